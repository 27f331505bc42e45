"""The Django side of the benchmark, run in a subprocess with the bench database's environment.

`python -m bench.datos contar`: how many requests the database holds (is the scale loaded?).
`python -m bench.datos sesion USUARIO`: a signed-in session of USUARIO, as the Cookie header's
value, for the page rows (a list page is for a signed-in person).
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


def sesion(usuario: str) -> str:
    """`name=value` of a session cookie signed in as `usuario` (a row in the session store)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    cliente = Client()
    cliente.force_login(get_user_model().objects.get(username=usuario))
    nombre = settings.SESSION_COOKIE_NAME
    return f"{nombre}={cliente.cookies[nombre].value}"


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
    elif orden == "sesion":
        print(sesion(argv[1]))
    elif orden == "abrir-limites":
        abrir_limites(Path(argv[1]))
    elif orden == "restaurar-limites":
        restaurar_limites(Path(argv[1]))
    else:
        raise SystemExit(
            "uso: python -m bench.datos contar|sesion U|abrir-limites F|restaurar-limites F"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
