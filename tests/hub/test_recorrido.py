"""The walk of a request through the project's modules (bench/recorrido.py): docs/arquitectura.md
shows it as it is, and a domain tool never calls into the assistant (issue 24, item 1).

Both traced against a real Redis, as production serves them (the one-round-trip pre-read).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.solicitudes import services
from bench import recorrido
from tests.factories import GroupFactory
from tests.mcp.factories import nueva_clave
from tests.solicitudes.factories import tipo_con_etapas

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "arquitectura.md"
DOMINIO = ("apps.solicitudes", "apps.presupuesto", "apps.calidad", "apps.firmas")
CORREO = "ciudadana@correo.example"


def test_docs_arquitectura_shows_the_walks_a_warm_request_takes(client, redis_real):
    caminos = recorrido.recorridos(client)
    doc = DOC.read_text(encoding="utf-8")
    for nombre, hecho in caminos.items():
        walk = recorrido.texto(recorrido.TITULOS[nombre], hecho)
        assert walk in doc, f"docs/arquitectura.md no muestra este recorrido:\n{walk}"


def _entradas_del_dominio_al_asistente(entradas: list[recorrido.Entrada]) -> list[str]:
    """Entries into the assistant made by a domain module, but for the tool registry's types
    (the error a tool raises): the assistant calls the tool, never the other way round."""
    return [
        f"{e.desde} -> {e.modulo}"
        for e in entradas
        if e.desde is not None
        and e.desde.startswith(DOMINIO)
        and e.modulo.startswith("apps.mcp")
        and e.modulo != "hub.herramientas.registro"
    ]


def test_a_tool_call_with_a_person_never_enters_the_assistant_from_the_tool(client, redis_real):
    entradas = recorrido.recorridos(client)["estado_solicitud"].entradas
    assert "apps.solicitudes.herramientas.estado" in {e.modulo for e in entradas}
    # Not even the registry: with a person, the tool only reads its `Llamada` and answers.
    assert [e for e in entradas if (e.desde or "").startswith(DOMINIO) and "mcp" in e.modulo] == []


@pytest.mark.parametrize(("correo", "error"), [(CORREO, False), ("otra@correo.example", True)])
def test_a_verified_call_leaves_the_verification_limit_to_the_assistant(
    client, redis_real, correo, error
):
    tipo = tipo_con_etapas(GroupFactory(name="Revisión V"), nombre="Certificado V")
    solicitud = services.radicar(
        tipo=tipo,
        resumen="Constancia para el banco",
        nombre_solicitante="Ana Ruiz",
        correo_solicitante=CORREO,
    )
    mensaje = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "estado_solicitud",
            "arguments": {
                "numero_radicado": solicitud.numero_radicado,
                "correo_solicitante": correo,
            },
        },
    }
    clave = {"HTTP_X_MCP_API_KEY": nueva_clave()[1]}

    def llamar():
        r = client.post(
            "/mcp/api/mcp", json.dumps(mensaje), content_type="application/json", **clave
        )
        assert r.json()["result"]["isError"] is error

    llamar()
    entradas = recorrido.recorrer(llamar).entradas
    assert _entradas_del_dominio_al_asistente(entradas) == []
    # The assistant itself checks the limit (and, on a miss, counts it).
    assert ("apps.mcp.limites", "apps.mcp.llamadas") in {(e.modulo, e.desde) for e in entradas}


def test_every_climb_back_of_both_walks_goes_down_to_the_base_or_stays_in_its_app(
    client, redis_real
):
    for nombre, hecho in recorrido.recorridos(client).items():
        assert recorrido.vueltas(hecho), nombre  # there are climbs to judge
        assert recorrido.subidas(hecho) == [], nombre


def test_a_climb_from_a_domain_tool_into_the_assistant_is_a_climb_up():
    """The check above can fail: the climb issue 24 named (a domain tool calling back into the
    assistant's limits) is one, as is the base calling into an app; calls into hub are not."""

    def entrada(modulo: str, *arriba: str) -> recorrido.Entrada:
        return recorrido.Entrada(modulo, arriba[-1] if arriba else None, arriba)

    herramienta = "apps.solicitudes.herramientas.estado"
    pila = ("hub.http.middleware", "apps.mcp.protocolo", "apps.mcp.llamadas", herramienta)
    hecho = recorrido.Recorrido(
        entradas=[
            entrada("hub.http.middleware"),
            entrada("hub.busqueda.texto", "hub.http.middleware"),
            entrada("apps.mcp.protocolo", "hub.http.middleware"),
            entrada("apps.mcp.limites", "hub.http.middleware", "apps.mcp.protocolo"),
            entrada("hub.http.limites", "hub.http.middleware", "apps.mcp.protocolo"),
            entrada("apps.mcp.llamadas", "hub.http.middleware", "apps.mcp.protocolo"),
            entrada(herramienta, *pila[:-1]),
            entrada("hub.busqueda.texto", *pila),
            entrada("apps.mcp.limites", *pila),
            entrada("apps.mcp.protocolo", "hub.http.middleware", "hub.http.limites"),
        ],
        lineas=dict.fromkeys(
            [
                "hub.http.middleware",
                "hub.busqueda.texto",
                "apps.mcp.protocolo",
                "apps.mcp.limites",
                "hub.http.limites",
                "apps.mcp.llamadas",
                herramienta,
            ],
            recorrido.LINEAS,
        ),
    )
    assert recorrido.vueltas(hecho) == [
        ("hub.busqueda.texto", herramienta),
        ("apps.mcp.limites", herramienta),
        ("apps.mcp.protocolo", "hub.http.limites"),
    ]
    assert recorrido.subidas(hecho) == [
        ("apps.mcp.limites", herramienta),
        ("apps.mcp.protocolo", "hub.http.limites"),
    ]
