"""Fixtures of the assistant's own tests: the tools that exist only in the tests, registered.

The JSON-RPC caller and the result checks are in tests/mcp_cliente.py; the credential fixtures
(`clave`, `como`, `completo`, `limitado`...) in tests/conftest.py, for every app's tool tests.
"""

from __future__ import annotations

import pytest

from hub.herramientas.registro import registro
from tests.mcp.herramientas_prueba import HERRAMIENTAS_PRUEBA
from tests.mcp_cliente import ajustar


@pytest.fixture
def herramientas_prueba():
    """Register the test-only tools (prueba_publica made public) and remove them afterwards."""
    for h in HERRAMIENTAS_PRUEBA:
        registro.registrar(h)
    ajustar(
        herramientas_publicas=[
            "estado_solicitud",
            "buscar_documento",
            "prueba_publica",
            "prueba_verificada",
        ]
    )
    yield {h.nombre: h for h in HERRAMIENTAS_PRUEBA}
    for h in HERRAMIENTAS_PRUEBA:
        registro.quitar(h.nombre)
