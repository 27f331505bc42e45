"""The WSGI entry point: what the process builds at start is out of the collector's way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

_SONDA = """
import gc, sys
import hub.wsgi
from django.conf import settings
from django.urls import get_resolver
congelados = gc.get_freeze_count()
# The URLconf (and with it every view and the MCP tool registry) was loaded before the freeze.
cargada = (
    settings.ROOT_URLCONF in sys.modules
    and "urlconf_module" in get_resolver().__dict__
    and "apps.mcp.registro" in sys.modules
)
print(congelados, cargada)
"""


def test_loading_the_wsgi_application_freezes_the_start_up_objects_urlconf_included():
    entorno = {**os.environ, "DJANGO_SETTINGS_MODULE": "hub.settings", "DEBUG": "true"}
    salida = subprocess.run(
        [sys.executable, "-c", _SONDA],
        cwd=RAIZ,
        env=entorno,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    congelados, cargada = int(salida[0]), salida[1]
    # Django, DRF, psycopg and the hub's own modules: well over fifty thousand objects.
    assert congelados > 50_000
    assert cargada == "True"
