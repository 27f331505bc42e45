"""schemathesis over every v1 operation, in-process against the WSGI app, from /api/schema/.

Demo data (`demo_data`) gives the fuzzing real things to find: a brand with images, a valid and
an annulled signature, contact sites, an API key and a person's token. schemathesis's
dictionaries mix those real values into the generated ones, so cases reach the deep paths
(200 with a verification, 201 receipts, tool calls) and not only 401/404.

Counts are fixed and derandomized for CI; `HUB_FUZZ_EJEMPLOS=<factor>` multiplies them and
switches to random seeds. The cases of each operation and the statuses seen are written to
var/fuzz/schemathesis.json.
"""

from __future__ import annotations

import io
import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import schemathesis
from django.core import signals
from django.core.management import call_command
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from apps.mcp.models import AjustesAsistente
from hub.herramientas.registro import registro
from hub.models import Limites
from hub.wsgi import application
from tests.marca.factories import ico, png, poner_imagen

pytestmark = pytest.mark.django_db

_FACTOR = os.environ.get("HUB_FUZZ_EJEMPLOS")
EJEMPLOS = 100 * int(_FACTOR or 1)  # fuzzing-phase examples per operation
MCP = ("POST", "/mcp/api/mcp")
INFORME = Path(__file__).resolve().parents[2] / "var" / "fuzz" / "schemathesis.json"

casos: Counter[str] = Counter()
estados: defaultdict[str, Counter[str]] = defaultdict(Counter)


def es_error_jsonrpc(response) -> bool:
    """A JSON-RPC protocol error: the assistant's way of refusing a malformed message."""
    if response.status_code != 200:
        return False
    try:
        cuerpo = json.loads(response.content)
    except ValueError:
        return False
    return isinstance(cuerpo, dict) and cuerpo.get("jsonrpc") == "2.0" and "error" in cuerpo


def nivel(response) -> str:
    """For the assistant's 200s: a method result, a JSON-RPC error or a tool error."""
    if response.status_code != 200:
        return ""
    try:
        cuerpo = json.loads(response.content)
    except ValueError:
        return ""
    if not isinstance(cuerpo, dict) or cuerpo.get("jsonrpc") != "2.0":
        return ""
    if "error" in cuerpo:
        return f" error {cuerpo['error']['code']}"
    resultado = cuerpo.get("result") or {}
    return " herramienta isError" if resultado.get("isError") else " result"


def rechaza_datos_negativos(ctx, response, case):
    """negative_data_rejection, where the assistant's rejection level is JSON-RPC.

    The interface keeps the three levels apart: a message that breaks the JSON-RPC schema is
    refused with HTTP 200 and a JSON-RPC `error` (-32600/-32601/-32602), never a 4xx. That answer
    is the rejection; anything else goes through the built-in check unchanged.
    """
    if (case.method.upper(), case.path) == MCP and es_error_jsonrpc(response):
        return True
    return negative_data_rejection(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    rechaza_datos_negativos,
]


@pytest.fixture
def esquema_api(request, tmp_path):
    """The served schema, loaded through the WSGI app, with the demo's real values to mix in."""
    # schemathesis 4.32 renames the test node through `_nodeid`, which pytest 9 no longer has.
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid
    salida = tmp_path / "demo.json"
    call_command("demo_data", salida=str(salida), stderr=io.StringIO())
    demo = json.loads(salida.read_text())
    poner_imagen("logo", png())
    poner_imagen("favicon", ico())  # the isotype stays empty: its 404 is exercised too
    # High limits so cases reach the views; the contact limit keeps its defaults (3 per 10
    # minutes), so its 429 with every limit header is exercised for real.
    limites = Limites.cargar()
    limites.global_por_minuto = limites.marca_por_minuto = 100_000
    limites.verificacion_por_minuto = 100_000
    limites.save()  # save, not update(): it also drops the cached copy
    ajustes = AjustesAsistente.cargar()
    ajustes.integracion_por_minuto = ajustes.usuario_por_minuto = 100_000
    ajustes.escrituras_por_minuto = 100_000
    ajustes.save()
    firmas = demo["firmas"]
    config = schemathesis.Config.from_dict(
        {
            **({} if _FACTOR else {"seed": 20250618}),
            "generation": {"mode": "all"},
            "phases": {"stateful": {"enabled": False}},
            "auth": {
                "openapi": {
                    "claveApi": {"api_key": demo["api_key"]},
                    "tokenUsuario": {"api_key": demo["tokens"]["completo"]},
                }
            },
            "dictionaries": {
                "firmas": {"values": [firmas["valida"], firmas["anulada"]]},
                "sitios": {"values": demo["contacto"]["sitios"]},
                "herramientas": {"values": sorted(h.nombre for h in registro)},
            },
            "parameters": {
                "path.token": {"dictionary": "firmas", "probability": 0.5},
                "body.sitio": {"dictionary": "sitios", "probability": 0.7},
                "body.params.name": {"dictionary": "herramientas", "probability": 0.8},
            },
        }
    )
    # The real WSGI handler closes "old" connections around each request, which would close the
    # test's transaction; Django's test client avoids it the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=config)
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("esquema_api")


@pytest.fixture(scope="module", autouse=True)
def _informe():
    """After the run: cases and statuses per operation, for CI's artifacts and the report."""
    yield
    INFORME.parent.mkdir(parents=True, exist_ok=True)
    resumen = {
        op: {"casos": n, "estados": dict(sorted(estados[op].items()))}
        for op, n in sorted(casos.items())
    }
    INFORME.write_text(json.dumps({"total": sum(casos.values()), "operaciones": resumen}, indent=2))


@schema.parametrize()
@settings(
    max_examples=EJEMPLOS,
    deadline=None,
    derandomize=not _FACTOR,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_v1_operation_conforms_to_the_published_schema(case):
    response = case.call_and_validate(checks=CHECKS)
    casos[case.operation.label] += 1
    # The coverage phase also tries other methods on each path (their answer must be 405).
    estados[case.operation.label][
        f"{case.method.upper()} {response.status_code}{nivel(response)}"
    ] += 1
