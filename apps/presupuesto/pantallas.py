"""Reads of the budget screens, the pages behind the tools' links (CDP, RP, PAA line).

Each screen shows exactly what the tool that links to it shows the same person: the tool's
permission, then the same `visibles_para` QuerySet method. Anything else is "not found".
"""

from __future__ import annotations

from django.db.models import Model, Prefetch, QuerySet

from apps.firmas.models import Firma
from apps.presupuesto.herramientas.permisos import PERSONALIZADOS, PLANEACION, REPORTES
from apps.presupuesto.models import Cdp, LineaPaa, Rp
from apps.presupuesto.models.base import usuario_activo
from apps.solicitudes.models import Solicitud

# The permissions of the tools that link to each screen (any of them).
PERMISOS_DOCUMENTOS = (PLANEACION,)  # estado_cdp, estado_rp, busqueda_global's presupuesto
PERMISOS_LINEAS = (REPORTES, PLANEACION)  # resumen_ejecutivo


def tiene_alguno(user, permisos: tuple[str, ...]) -> bool:
    """Active and holding any of `permisos` (the tool registry's rule)."""
    return usuario_activo(user) and any(user.has_perm(p) for p in permisos)


def cdps_visibles(user) -> QuerySet[Cdp]:
    """The CDPs estado_cdp would show `user`."""
    if not tiene_alguno(user, PERMISOS_DOCUMENTOS):
        return Cdp.objects.none()
    return Cdp.objects.visibles_para(user)


def rps_visibles(user) -> QuerySet[Rp]:
    """The RPs estado_rp would show `user`."""
    if not tiene_alguno(user, PERMISOS_DOCUMENTOS):
        return Rp.objects.none()
    return Rp.objects.visibles_para(user)


def lineas_visibles(user) -> QuerySet[LineaPaa]:
    """The PAA lines resumen_ejecutivo would show `user`."""
    if not tiene_alguno(user, PERMISOS_LINEAS):
        return LineaPaa.objects.none()
    return LineaPaa.objects.visibles_para(user)


# Signatures oldest first (annulled ones too: the page says so).
ORDEN_FIRMAS = ("firmado_en", "pk")


def _solicitud_de(user, numero_radicado: str | None) -> Solicitud | None:
    """The originating request, only if `user` may open its screen."""
    if not numero_radicado:
        return None
    return Solicitud.objects.visibles_para(user).por_numero(numero_radicado).first()


def _movimientos(qs: QuerySet) -> list[Model]:
    """Movements oldest first, each with its signatures in `firmas_en_orden` (two queries)."""
    firmas = Prefetch(
        "firmas", queryset=Firma.objects.order_by(*ORDEN_FIRMAS), to_attr="firmas_en_orden"
    )
    return list(qs.order_by("numero").prefetch_related(firmas))


def cdp(user, pk: int) -> dict | None:
    """Everything the CDP screen shows, or None when `user` may not see it."""
    documento = (
        cdps_visibles(user)
        .select_related("vigencia", "area", "proyecto", "linea_paa")
        .filter(pk=pk)
        .first()
    )
    if documento is None:
        return None
    linea = documento.linea_paa
    return {
        "cdp": documento,
        "linea_visible": linea is not None and lineas_visibles(user).filter(pk=linea.pk).exists(),
        "rps": list(rps_visibles(user).filter(cdp=documento).order_by("numero")),
        "movimientos": _movimientos(documento.movimientos.all()),
        "firmas": list(documento.firmas.order_by(*ORDEN_FIRMAS)),
        "solicitud": _solicitud_de(user, documento.numero_radicado),
    }


def rp(user, pk: int) -> dict | None:
    """Everything the RP screen shows, or None when `user` may not see it."""
    documento = (
        rps_visibles(user).select_related("vigencia", "cdp", "cdp__area").filter(pk=pk).first()
    )
    if documento is None:
        return None
    return {
        "rp": documento,
        # An RP is visible through its CDP's area: its CDP is visible too.
        "movimientos": _movimientos(documento.movimientos.all()),
        "firmas": list(documento.firmas.order_by(*ORDEN_FIRMAS)),
        "solicitud": _solicitud_de(user, documento.numero_radicado),
    }


def linea(user, pk: int) -> dict | None:
    """Everything the PAA line screen shows, or None when `user` may not see it."""
    fila = (
        lineas_visibles(user)
        .select_related("vigencia", "area", "proyecto", "actividad")
        .filter(pk=pk)
        .first()
    )
    if fila is None:
        return None
    return {
        "linea": fila,
        "cdps": list(cdps_visibles(user).filter(linea_paa=fila).order_by("numero")),
        "firmas": list(fila.firmas.order_by(*ORDEN_FIRMAS)),
    }


def del_radicado(user, numero_radicado: str | None) -> dict[str, list]:
    """The CDPs and RPs a request originated that `user` may see (for the request screen)."""
    if not numero_radicado:
        return {"cdps": [], "rps": []}
    return {
        "cdps": list(
            cdps_visibles(user).filter(numero_radicado=numero_radicado).order_by("numero")
        ),
        "rps": list(rps_visibles(user).filter(numero_radicado=numero_radicado).order_by("numero")),
    }


def de_la_solicitud(user, solicitud: Solicitud) -> dict[str, list]:
    """The request page's budget part: only the documents `user` could open (same rule as their
    screens)."""
    return del_radicado(user, solicitud.numero_radicado)


def en_el_inicio(user) -> dict[str, bool]:
    """The home's budget part: whether it links the personalized reports."""
    return {"con_reportes": tiene_alguno(user, (PERSONALIZADOS,))}
