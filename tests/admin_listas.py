"""Reading an admin list in tests: one column's title and cells, in either order."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Columna:
    """What a list shows in one column: its title, and its cells sorted up and down by it."""

    titulo: str
    ascendente: list[str]
    descendente: list[str]


def columna(client, url: str, nombre: str) -> Columna:
    """Column `nombre` of the admin list at `url`, sorted by it both ways (Django's `o`)."""
    indice = client.get(url).context["cl"].list_display.index(nombre)
    cabecera = re.compile(
        rf'<th scope="col" class="sortable column-{nombre}">\s*<div class="text">'
        r'<a href="[^"]*">([^<]*)</a></div>'
    )
    celda = re.compile(rf'<td class="field-{nombre}">([^<]*)</td>')
    html = client.get(url).content.decode()
    (titulo,) = cabecera.findall(html)

    def celdas(orden: str) -> list[str]:
        return celda.findall(client.get(url, {"o": orden}).content.decode())

    return Columna(titulo, celdas(str(indice)), celdas(f"-{indice}"))
