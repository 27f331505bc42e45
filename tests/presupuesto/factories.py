"""Budget factories: plain rows via factory-boy, documents through the services (invariants)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import factory

from apps.presupuesto import services
from apps.presupuesto.models import Actividad, Asignacion, Cdp, LineaPaa, Proyecto, Rp, Vigencia
from tests.factories import AreaFactory

# March of the factories' fiscal year (2026): the month the budget tests' PAA lines start in.
MARZO = datetime.date(2026, 3, 1)


class VigenciaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Vigencia
        django_get_or_create = ("anio",)

    anio = 2026
    activa = True
    tope = Decimal("10000000.00")


class ProyectoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Proyecto

    vigencia = factory.SubFactory(VigenciaFactory)
    codigo = factory.Sequence(lambda n: f"P{n:03d}")
    nombre = factory.Sequence(lambda n: f"Proyecto de inversión {n}")


class ActividadFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Actividad

    proyecto = factory.SubFactory(ProyectoFactory)
    codigo = factory.Sequence(lambda n: f"A{n:03d}")
    nombre = factory.Sequence(lambda n: f"Actividad {n}")


def asignacion(proyecto: Proyecto, area, valor) -> Asignacion:
    return services.asignar(proyecto=proyecto, area=area, valor=Decimal(valor))


def linea(
    proyecto: Proyecto,
    area,
    valor="1000.00",
    *,
    mes: datetime.date | None = None,
    estado: str = LineaPaa.Estado.APROBADA,
    objeto: str = "Servicios profesionales de apoyo",
    actividad: Actividad | None = None,
) -> LineaPaa:
    """A PAA line moved through the real transitions up to `estado`."""
    nueva = services.crear_linea_paa(
        proyecto=proyecto,
        area=area,
        objeto=objeto,
        valor_estimado=Decimal(valor),
        mes_inicio=mes or datetime.date(proyecto.vigencia.anio, 3, 1),
        actividad=actividad,
    )
    pasos = {
        "borrador": [],
        "en_revision": ["enviar"],
        "aprobada": ["enviar", "aprobar"],
        "anulada": ["enviar", "anular"],
    }
    for paso in pasos[estado]:
        if paso == "enviar":
            nueva = services.enviar_linea(linea=nueva)
        elif paso == "aprobar":
            nueva = services.aprobar_linea(linea=nueva)
        else:
            nueva = services.anular_linea(linea=nueva, motivo="Ya no se requiere")
    return nueva


def cdp_solicitado(proyecto: Proyecto, area, valor="1000.00", **kwargs) -> Cdp:
    kwargs.setdefault("objeto", "Contratar apoyo profesional para el área")
    return services.solicitar_cdp(proyecto=proyecto, area=area, valor=Decimal(valor), **kwargs)


def cdp_expedido(proyecto: Proyecto, area, valor="1000.00", *, numero_externo=None, **kw) -> Cdp:
    cdp = cdp_solicitado(proyecto, area, valor, **kw)
    return services.expedir_cdp(cdp=cdp, numero_externo=numero_externo)


def rp_solicitado(cdp: Cdp, valor="100.00", **kwargs) -> Rp:
    kwargs.setdefault("beneficiario", "Proveedora Andina S.A.S.")
    kwargs.setdefault("documento_beneficiario", "900123456-7")
    kwargs.setdefault("objeto", "Prestación de servicios profesionales")
    return services.solicitar_rp(cdp=cdp, valor=Decimal(valor), **kwargs)


def rp_expedido(cdp: Cdp, valor="100.00", *, numero_externo=None, **kwargs) -> Rp:
    rp = rp_solicitado(cdp, valor, **kwargs)
    return services.expedir_rp(rp=rp, numero_externo=numero_externo)


def celda(valor="1000.00", *, area=None, proyecto=None, tope="10000000.00"):
    """A project with one area assigned `valor`: (proyecto, area)."""
    vigencia = proyecto.vigencia if proyecto else VigenciaFactory(tope=Decimal(tope))
    proyecto = proyecto or ProyectoFactory(vigencia=vigencia)
    area = area or AreaFactory()
    asignacion(proyecto, area, valor)
    return proyecto, area
