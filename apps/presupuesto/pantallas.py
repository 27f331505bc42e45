"""Reads of the budget screens, the pages behind the tools' links (CDP, RP, PAA line).

Each screen shows exactly what the tool that links to it shows the same person: the tool's
permission, then the same `visibles_para` QuerySet method. Anything else is "not found".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, QuerySet

from apps.firmas.models import Firma
from apps.presupuesto.herramientas.comun import PLANEACION, REPORTES
from apps.presupuesto.models import Cdp, LineaPaa, MovimientoCdp, MovimientoRp, Rp
from apps.presupuesto.models.base import usuario_activo

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


@dataclass
class Movimiento:
    """One movement with its signatures (for the movements table)."""

    fila: Model
    firmas: list[Firma]


def firmas_de(documento: Model) -> list[Firma]:
    """A document's signatures, oldest first (annulled ones too: the page says so)."""
    return list(Firma.objects.de(documento).order_by("firmado_en", "pk"))


def _movimientos(qs: QuerySet, modelo: type[Model]) -> list[Movimiento]:
    """Movements oldest first, each with its signatures (two queries in all)."""
    filas = list(qs.order_by("numero"))
    tipo = ContentType.objects.get_for_model(modelo)
    por_movimiento: dict[int, list[Firma]] = {}
    firmas = Firma.objects.filter(content_type=tipo, object_id__in=[m.pk for m in filas])
    for firma in firmas.order_by("firmado_en", "pk"):
        por_movimiento.setdefault(firma.object_id, []).append(firma)
    return [Movimiento(fila, por_movimiento.get(fila.pk, [])) for fila in filas]


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
        "movimientos": _movimientos(MovimientoCdp.objects.filter(cdp=documento), MovimientoCdp),
        "firmas": firmas_de(documento),
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
        "movimientos": _movimientos(MovimientoRp.objects.filter(rp=documento), MovimientoRp),
        "firmas": firmas_de(documento),
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
        "firmas": firmas_de(fila),
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
