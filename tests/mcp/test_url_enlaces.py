"""`url` beside every `enlace`: HUB_URL_PUBLICA + the relative path, in results and schemas."""

from __future__ import annotations

import json

from apps.mcp.protocolo import INSTRUCCIONES
from hub.herramientas.registro import registro
from hub.http.enlaces import con_url, esquema_con_url


def _objetos_con_enlace(esquema):
    if isinstance(esquema, list):
        for valor in esquema:
            yield from _objetos_con_enlace(valor)
    elif isinstance(esquema, dict):
        if isinstance(esquema.get("properties"), dict) and "enlace" in esquema["properties"]:
            yield esquema
        for valor in esquema.values():
            yield from _objetos_con_enlace(valor)


def test_every_output_schema_that_declares_enlace_declares_url_beside_it():
    vistos = 0
    for herramienta in registro:
        for objeto in _objetos_con_enlace(herramienta.esquema_salida):
            vistos += 1
            assert objeto["properties"]["url"]["format"] == "uri", herramienta.nombre
            if "enlace" in objeto.get("required", []):
                assert "url" in objeto["required"], herramienta.nombre
    assert vistos >= 12


def test_url_is_the_public_address_plus_the_link(settings):
    settings.HUB_URL_PUBLICA = "https://hub.entidad.gov.co"
    datos = {
        "enlace": "/solicitudes/7",
        "hijos": [{"enlace": "/presupuesto/cdp/3", "otro": 1}],
        "sin": {"nombre": "x"},
    }
    assert con_url(datos) == {
        "enlace": "/solicitudes/7",
        "url": "https://hub.entidad.gov.co/solicitudes/7",
        "hijos": [
            {
                "enlace": "/presupuesto/cdp/3",
                "url": "https://hub.entidad.gov.co/presupuesto/cdp/3",
                "otro": 1,
            }
        ],
        "sin": {"nombre": "x"},
    }
    assert list(con_url(datos)) == ["enlace", "url", "hijos", "sin"]  # url right beside it


def test_a_nullable_enlace_gets_a_nullable_url():
    esquema = {"type": "object", "properties": {"enlace": {"type": ["string", "null"]}}}
    assert esquema_con_url(esquema)["properties"]["url"]["type"] == ["string", "null"]
    assert con_url({"enlace": None}) == {"enlace": None}


def test_the_instructions_say_links_open_in_the_hub_for_the_signed_in_person():
    assert "enlace" in INSTRUCCIONES and "url" in INSTRUCCIONES
    assert "inició sesión en el hub con su propia cuenta" in INSTRUCCIONES
    assert json.dumps(INSTRUCCIONES)  # plain text
