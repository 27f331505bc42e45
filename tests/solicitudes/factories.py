"""factory-boy factories and small builders of the requests domain."""

from __future__ import annotations

import secrets
from datetime import datetime

import factory
from django.utils import timezone

from apps.solicitudes import services
from apps.solicitudes.models import Etapa, Solicitud, TipoSolicitud
from tests.factories import AreaFactory, GroupFactory, UserFactory, dar_permisos


class TipoSolicitudFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TipoSolicitud
        django_get_or_create = ("codigo",)

    codigo = factory.Sequence(lambda n: f"tipo-{n}")
    nombre = factory.Sequence(lambda n: f"Trámite de prueba {n}")
    area = factory.SubFactory(AreaFactory)
    prefijo = "SOL"
    activo = True
    es_mesa_ayuda = False


class EtapaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Etapa

    tipo = factory.SubFactory(TipoSolicitudFactory)
    orden = factory.Sequence(lambda n: n + 1)
    nombre = factory.Sequence(lambda n: f"Etapa {n}")
    rol = factory.SubFactory(GroupFactory)
    plazo_horas = 72
    requiere_firma = False


def tipo_con_etapas(*roles, plazos=None, firmas=None, **kwargs) -> TipoSolicitud:
    """A type whose workflow has one stage per role (in that order)."""
    tipo = TipoSolicitudFactory(**kwargs)
    for i, rol in enumerate(roles, start=1):
        EtapaFactory(
            tipo=tipo,
            orden=i,
            nombre=f"Etapa {i} de {tipo.nombre}",
            rol=rol,
            plazo_horas=(plazos or {}).get(i, 72),
            requiere_firma=(firmas or {}).get(i, False),
        )
    return tipo


def persona(*roles, permisos=(), **kwargs):
    """An active user holding these roles (groups) and direct permissions."""
    usuario = UserFactory(**kwargs)
    if roles:
        usuario.groups.add(*roles)
    if permisos:
        dar_permisos(usuario, *permisos)
    return usuario


def radicadora(**kwargs):
    """Someone allowed to file requests."""
    return persona(permisos=["solicitudes.radicar"], **kwargs)


def radicar(tipo: TipoSolicitud, solicitante=None, **kwargs) -> Solicitud:
    """File through the real service (number, task, event)."""
    if solicitante is None and "correo_solicitante" not in kwargs:
        solicitante = radicadora()
    kwargs.setdefault("resumen", "Solicitud de prueba para el flujo")
    return services.radicar(tipo=tipo, solicitante=solicitante, **kwargs)


def fechar(solicitud: Solicitud, dia: str) -> None:
    """Move the filing date to local noon of `dia` (YYYY-MM-DD)."""
    momento = timezone.make_aware(datetime.fromisoformat(f"{dia} 12:00"))
    Solicitud.objects.filter(pk=solicitud.pk).update(fecha_radicacion=momento)


def dos_tipos_con_radicados(sigla: str, *, resumen_banco: str) -> dict:
    """Two types (codes cert-<sigla> and via-<sigla>, names ending in the sigla); the owner
    files three requests and keeps a draft, someone else files one."""
    revision = GroupFactory(name=f"Revisión {sigla}")
    certificado = tipo_con_etapas(
        revision, nombre=f"Certificado laboral {sigla}", codigo=f"cert-{sigla.lower()}"
    )
    viaticos = tipo_con_etapas(
        revision, nombre=f"Viáticos y desplazamientos {sigla}", codigo=f"via-{sigla.lower()}"
    )
    dueno = persona(permisos=["solicitudes.radicar", "mcp.asistente.usar"], first_name="Dueña")
    banco = services.radicar(tipo=certificado, solicitante=dueno, resumen=resumen_banco)
    embajada = services.radicar(
        tipo=certificado, solicitante=dueno, resumen="Certificado para la embajada"
    )
    viaje = services.radicar(tipo=viaticos, solicitante=dueno, resumen="Viaje a Medellín")
    borrador = services.crear_borrador(
        tipo=certificado, solicitante=dueno, resumen="Borrador de certificado"
    )
    otra = persona(permisos=["solicitudes.radicar", "mcp.asistente.usar"])
    ajena = services.radicar(tipo=certificado, solicitante=otra, resumen="Certificado ajeno")
    return {
        "dueno": dueno,
        "otra": otra,
        "banco": banco,
        "embajada": embajada,
        "viaje": viaje,
        "borrador": borrador,
        "ajena": ajena,
        "certificado": certificado,
        "viaticos": viaticos,
        "revision": revision,
    }


def lo_que_envia(solicitud: Solicitud, datos: dict | None = None) -> dict:
    """What a form of the request's page posts: `datos` plus the version it was drawn for (the
    request's current one) and a fresh nonce (the comment form's)."""
    solicitud.refresh_from_db(fields=["version"])
    return {"version": str(solicitud.version), "nonce": secrets.token_urlsafe(16), **(datos or {})}
