"""The demo organization in tests: loading it as demo_data builds it, and signing in as one of
its people in a real browser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management import call_command

from apps.cuentas.demo import CONTRASENA_DEMO


def cargar_demo(carpeta: Path, **opciones: Any) -> dict[str, Any]:
    """Build the demo and return what demo_data writes to its `salida` file (under `carpeta`)."""
    salida = carpeta / "demo.json"
    call_command("demo_data", salida=str(salida), **opciones)
    return json.loads(salida.read_text())


def ingresar_a_la_demo(pagina, usuario: str = "completo") -> None:
    """Sign a person of the demo in on the hub's sign-in page, as they would."""
    pagina.goto(pagina.base + "/cuentas/login/")
    pagina.fill("input[name=username]", usuario)
    pagina.fill("input[name=password]", CONTRASENA_DEMO)
    pagina.click("button[type=submit]")
    pagina.wait_for_load_state()
