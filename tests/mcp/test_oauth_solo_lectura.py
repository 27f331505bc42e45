"""An OAuth identity without `asistente:escribir`, with the hub's own write tools: they are not
listed (nor named by mis_accesos), each call is refused before any preview or token, nothing is
written, and the audit row keeps the refusal with the person and the client."""

from __future__ import annotations

import pytest

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria
from apps.solicitudes import services
from apps.solicitudes.models import Comentario, Solicitud
from tests.factories import GroupFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token_oauth
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
ESCRITURAS = {"comentar_solicitud", "radicar_mesa_ayuda"}
ESCRIBIR = "asistente:escribir"


@pytest.fixture
def mundo():
    rol = GroupFactory(name="Mesa de ayuda OAuth")
    tipo_con_etapas(rol, nombre="Soporte OAuth", prefijo="MDA", es_mesa_ayuda=True)
    tramite = tipo_con_etapas(rol, nombre="Trámite OAuth")
    radicadora = persona(
        username="radicadora_oauth",
        permisos=[USAR, "solicitudes.radicar", "solicitudes.bandeja.ver"],
    )
    propia = services.radicar(tipo=tramite, solicitante=radicadora, resumen="Mi solicitud")
    aplicacion = nueva_aplicacion("Cliente de lectura")
    _, lectura = nuevo_token_oauth(radicadora, aplicacion=aplicacion, alcances="asistente:leer")
    _, completa = nuevo_token_oauth(radicadora, aplicacion=aplicacion)
    return {
        "propia": propia,
        "aplicacion": aplicacion,
        "radicadora": radicadora,
        "lectura": {"Authorization": f"Bearer {lectura}"},
        "completa": {"Authorization": f"Bearer {completa}"},
    }


def _nombres(r) -> set[str]:
    return {h["name"] for h in r.resultado["tools"]}


def test_the_write_tools_are_listed_only_with_the_write_scope(client, mundo):
    assert _nombres(rpc(client, "tools/list", **mundo["completa"])) >= ESCRITURAS
    sin_escribir = _nombres(rpc(client, "tools/list", **mundo["lectura"]))
    assert not sin_escribir & ESCRITURAS
    assert {"buscar_solicitudes", "mis_tareas", "resumen_solicitud"} <= sin_escribir


def test_mis_accesos_names_the_same_tools_as_tools_list(client, mundo):
    datos = validador("mis_accesos")(llamar(client, "mis_accesos", {}, **mundo["lectura"]))
    herramientas = {h["nombre"] for h in datos["herramientas"]}
    assert herramientas == _nombres(rpc(client, "tools/list", **mundo["lectura"]))
    assert not any(h["escritura"] for h in datos["herramientas"])


@pytest.mark.parametrize(
    ("nombre", "argumentos"),
    [
        ("comentar_solicitud", {"numero_radicado": None, "comentario": "Un comentario"}),
        (
            "radicar_mesa_ayuda",
            {"asunto": "No abre el tablero", "descripcion": "Pantalla en blanco al abrirlo."},
        ),
    ],
)
def test_a_write_tool_is_refused_before_its_preview_and_the_refusal_is_audited(
    client, mundo, nombre, argumentos
):
    if "numero_radicado" in argumentos:
        argumentos = {**argumentos, "numero_radicado": mundo["propia"].numero_radicado}
    antes = Solicitud.objects.count()
    for extra in ({}, {"confirmar": True, "token_confirmacion": "x" * 40}):
        r = llamar(client, nombre, {**argumentos, **extra}, **mundo["lectura"])
        datos = error_herramienta(r, "SIN_PERMISO")
        assert set(datos) == {"codigo", "mensaje"}  # no preview, no token
        assert ESCRIBIR in datos["mensaje"]
    assert Solicitud.objects.count() == antes
    assert not Comentario.objects.exists()
    assert not ConfirmacionUsada.objects.exists()
    filas = list(RegistroAuditoria.objects.order_by("id"))
    assert [(f.herramienta, f.resultado) for f in filas] == [(nombre, "SIN_PERMISO")] * 2
    for fila in filas:
        assert fila.usuario == mundo["radicadora"]
        assert (fila.credencial, fila.cliente_id) == ("oauth", mundo["aplicacion"].pk)
        assert "token_confirmacion" not in fila.argumentos


def test_with_the_write_scope_the_same_call_gives_the_preview(client, mundo):
    argumentos = {"numero_radicado": mundo["propia"].numero_radicado, "comentario": "Un comentario"}
    r = llamar(client, "comentar_solicitud", argumentos, **mundo["completa"])
    assert r.resultado["isError"] is False
    assert r.estructura["requiere_confirmacion"] is True
