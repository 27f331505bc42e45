"""The Django side of the benchmark, run in a subprocess with the bench database's environment.

`python -m bench.datos contar`: how many requests the database holds (is the scale loaded?).
`python -m bench.datos abrir-limites ARCHIVO`: raise every rate limit for the run, keeping the
previous values in ARCHIVO; `restaurar-limites ARCHIVO` puts them back. Only the bench database's
singleton rows change (through the model, so the cached copies are dropped too); the defaults in
the code, which production gets, are never touched.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# Far above anything wrk can send in a run, and within PostgreSQL's integer column.
SIN_LIMITE = 1_000_000_000
CAMPOS_HUB = ("global_por_minuto", "marca_por_minuto", "verificacion_por_minuto")
CAMPOS_MCP = ("usuario_por_minuto", "integracion_por_minuto")


def _modelos():
    from apps.mcp.models import AjustesAsistente
    from hub.models import Limites

    return ((Limites, CAMPOS_HUB), (AjustesAsistente, CAMPOS_MCP))


def contar() -> dict[str, int]:
    from apps.solicitudes.models import Solicitud

    return {"solicitudes": Solicitud.objects.count()}


def abrir_limites(archivo: Path) -> None:
    previos: dict[str, dict[str, int]] = {}
    for modelo, campos in _modelos():
        fila = modelo.cargar()
        previos[modelo._meta.label] = {c: getattr(fila, c) for c in campos}
        for campo in campos:
            setattr(fila, campo, SIN_LIMITE)
        fila.save()
    if not archivo.exists():  # a run that died kept the true previous values: keep those
        archivo.write_text(json.dumps(previos, indent=2))


def restaurar_limites(archivo: Path) -> None:
    if not archivo.exists():
        return
    previos = json.loads(archivo.read_text())
    for modelo, _campos in _modelos():
        fila = modelo.cargar()
        for campo, valor in previos.get(modelo._meta.label, {}).items():
            setattr(fila, campo, valor)
        fila.save()
    archivo.unlink()


def main(argv: list[str]) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hub.settings")
    django.setup()
    orden = argv[0] if argv else ""
    if orden == "contar":
        print(json.dumps(contar()))
    elif orden == "abrir-limites":
        abrir_limites(Path(argv[1]))
    elif orden == "restaurar-limites":
        restaurar_limites(Path(argv[1]))
    else:
        raise SystemExit("uso: python -m bench.datos contar|abrir-limites F|restaurar-limites F")


if __name__ == "__main__":
    main(sys.argv[1:])
