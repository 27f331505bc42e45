"""The areas of the assistant a connection may reach (issue 39): solicitudes, presupuesto and
calidad, granted as one OAuth scope each and stored on personal tokens.

A tool names its area at its declaration in the registry (`herramienta(area=...)`); a tool with
no area (mis_accesos, buscar_ayuda, busqueda_global, the administration tools) is open to every
connection under its own rule. A grant that names no area (tokens issued before areas existed)
reaches every area; every new grant names its areas explicitly.
"""

from __future__ import annotations

from collections.abc import Iterable

SOLICITUDES = "solicitudes"
PRESUPUESTO = "presupuesto"
CALIDAD = "calidad"
# code -> (title, what it lets the assistant reach), in the order pages show them.
AREAS: dict[str, tuple[str, str]] = {
    SOLICITUDES: (
        "Solicitudes",
        "Sus solicitudes y tareas: estado, búsqueda, resúmenes, comentarios y mesa de ayuda.",
    ),
    PRESUPUESTO: (
        "Presupuesto",
        "CDP, RP, ejecución del presupuesto, reportes y resúmenes ejecutivos.",
    ),
    CALIDAD: ("Documentos de calidad", "La búsqueda de documentos de calidad vigentes."),
}
TODAS: frozenset[str] = frozenset(AREAS)
PREFIJO_ALCANCE = "asistente:"
# OAuth scope -> area.
POR_ALCANCE: dict[str, str] = {f"{PREFIJO_ALCANCE}{area}": area for area in AREAS}
ALCANCES: tuple[str, ...] = tuple(POR_ALCANCE)


def alcance(area: str) -> str:
    """The OAuth scope that grants this area."""
    return f"{PREFIJO_ALCANCE}{area}"


def nombradas(alcances: Iterable[str]) -> frozenset[str]:
    """The areas these scopes name (possibly none)."""
    return frozenset(POR_ALCANCE[a] for a in alcances if a in POR_ALCANCE)


def de_alcances(alcances: Iterable[str]) -> frozenset[str]:
    """The areas an OAuth grant reaches: the ones it names, or every area if it names none."""
    return nombradas(alcances) or TODAS


def de_lista(areas: Iterable[str] | None) -> frozenset[str]:
    """The areas a personal token reaches: its stored list, or every area if empty (old rows)."""
    elegidas = frozenset(a for a in areas or () if a in AREAS)
    return elegidas or TODAS


def ordenadas(areas: Iterable[str]) -> list[str]:
    """These areas in the order pages show them."""
    conjunto = set(areas)
    return [a for a in AREAS if a in conjunto]


def opciones() -> list[tuple[str, str]]:
    """(code, title) of every area, for form fields."""
    return [(codigo, titulo) for codigo, (titulo, _texto) in AREAS.items()]
