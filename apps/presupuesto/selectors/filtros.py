"""Matching of the dashboard's project and area filters to what the user may see."""

from __future__ import annotations

from django.db.models import QuerySet

from apps.cuentas.models import Area
from apps.presupuesto.models import Proyecto, Vigencia
from apps.presupuesto.models.base import areas_de, usuario_activo, ve_todas_las_areas
from hub.busqueda.texto import normalizar

MAX_COINCIDENCIAS = 10


class FiltroInvalido(LookupError):
    """A project or area filter that matches nothing the user may see (or too many)."""

    def __init__(self, campo: str, texto: str, mensaje: str, opciones: list[str] | None = None):
        super().__init__(mensaje)
        self.campo = campo
        self.texto = texto
        self.mensaje = mensaje
        self.opciones = opciones or []


def _sin_coincidencias(campo: str, texto: str) -> FiltroInvalido:
    nombre = "proyecto" if campo == "proyecto" else "área"
    return FiltroInvalido(campo, texto, f"Ningún {nombre} visible coincide con «{texto}».")


def areas_coincidentes(texto: str, user=None) -> list[Area]:
    """Areas by id, exact abbreviation or name, else every word in the name (accents apart).

    Areas are few: one query loads them, the tiers are decided in Python. With `user`, only
    the areas the user may see.
    """
    texto = (texto or "").strip()
    if not texto:
        return []
    qs = Area.objects.all()
    if user is not None:
        if not usuario_activo(user):
            return []
        if not ve_todas_las_areas(user):
            qs = qs.filter(pk__in=areas_de(user))
    todas = list(qs.order_by("sigla"))
    buscado = normalizar(texto)
    palabras = buscado.split(" ")
    niveles = [
        [a for a in todas if texto.isdigit() and str(a.pk) == texto],
        [a for a in todas if normalizar(a.sigla) == buscado],
        [a for a in todas if normalizar(a.nombre) == buscado],
        [a for a in todas if all(p in normalizar(a.nombre) for p in palabras)],
    ]
    return next((nivel for nivel in niveles if nivel), [])


def resolver_areas(area, user) -> list[Area] | None:
    """The visible areas an area filter means (None: no filter); FiltroInvalido if none."""
    if area is None:
        return None
    if isinstance(area, Area):
        if not usuario_activo(user):
            raise _sin_coincidencias("area", area.sigla)
        if ve_todas_las_areas(user) or user.areas.filter(pk=area.pk).exists():
            return [area]
        raise _sin_coincidencias("area", area.sigla)
    encontradas = areas_coincidentes(str(area), user)
    if not encontradas:
        raise _sin_coincidencias("area", str(area))
    return encontradas


def resolver_proyectos(proyecto, user, vigencia: Vigencia) -> tuple[QuerySet, list[dict]] | None:
    """The visible projects a filter means and a sample of them (None: no filter)."""
    if proyecto is None:
        return None
    base = Proyecto.objects.de_vigencia(vigencia).visibles_para(user)
    if isinstance(proyecto, Proyecto):
        qs, texto = base.filter(pk=proyecto.pk), proyecto.codigo
    else:
        qs, texto = base.coincidentes(str(proyecto)), str(proyecto)
    muestra = list(
        qs.order_by("codigo").values("id", "codigo", "nombre", "activo")[: MAX_COINCIDENCIAS + 1]
    )
    if not muestra:
        raise _sin_coincidencias("proyecto", texto)
    return qs, muestra
