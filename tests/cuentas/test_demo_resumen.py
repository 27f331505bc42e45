"""What `make run` prints: every demo person with the password, the human verification page of
a signature (not only the JSON API), and the health address."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from apps.cuentas.demo import CONTRASENA_DEMO, PERSONAS

pytestmark = pytest.mark.django_db

BASE = "http://127.0.0.1:8123"


def test_the_summary_lists_people_passwords_the_verification_page_and_health(client):
    salida = io.StringIO()
    call_command("demo_data", "--resumen", "--base", BASE, stdout=salida, stderr=io.StringIO())
    resumen = salida.getvalue()
    for usuario in ["admin", *PERSONAS]:
        linea = rf"^  {usuario} +{re.escape(CONTRASENA_DEMO)}   \S"
        assert re.search(linea, resumen, re.M), usuario
    assert re.search(r"^  bloqueado .*cuenta bloqueada, no puede ingresar$", resumen, re.M)
    assert re.search(r"^  sin_asistente .*\(sin acceso al asistente\)$", resumen, re.M)
    # The page a QR code opens, for people, and it really opens.
    paginas = re.findall(rf"{BASE}(/presupuesto/verificar/[0-9a-f-]{{36}})", resumen)
    assert len(paginas) == 2
    valida = client.get(paginas[0])
    assert valida.status_code == 200 and valida["Content-Type"].startswith("text/html")
    assert f"Salud del servicio: {BASE}/salud/" in resumen
    assert client.get("/salud/").status_code == 200
