"""The areas of a connection (issue 39): each tool's area declared in the registry, tools/list
and every call limited to the areas granted (OAuth scopes or a personal token's choice), grants
from before areas existed reaching every area, and busqueda_global searching only those granted."""

from __future__ import annotations

import pytest

from apps.mcp.models import RegistroAuditoria
from hub.herramientas.registro import registro
from tests.factories import UserFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token, nuevo_token_oauth
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador

pytestmark = pytest.mark.django_db

AREAS = {
    "solicitudes": {
        "estado_solicitud",
        "buscar_solicitudes",
        "mis_tareas",
        "resumen_solicitud",
        "comentar_solicitud",
        "radicar_mesa_ayuda",
    },
    "presupuesto": {
        "estado_cdp",
        "estado_rp",
        "estado_presupuesto",
        "reporte_preparar",
        "resumen_ejecutivo",
    },
    "calidad": {"buscar_documento"},
}
CON_AREA = sorted(h.nombre for h in registro if h.area is not None)
ABIERTAS = {"mis_accesos", "buscar_ayuda", "busqueda_global"}


def _alcances(*areas: str, escribir: bool = True) -> str:
    base = ["asistente:leer", *(f"asistente:{a}" for a in areas)]
    return " ".join(base + (["asistente:escribir"] if escribir else []))


@pytest.fixture
def todo_poder():
    """A person who may use every tool: only the connection's areas limit what she reaches."""
    return UserFactory(username="todo_poder", is_superuser=True)


def _oauth(usuario, alcances: str) -> dict[str, str]:
    _, secreto = nuevo_token_oauth(usuario, aplicacion=nueva_aplicacion(), alcances=alcances)
    return {"Authorization": f"Bearer {secreto}"}


def _nombres(client, cabeceras) -> set[str]:
    return {h["name"] for h in rpc(client, "tools/list", **cabeceras).resultado["tools"]}


def test_each_tool_declares_its_area_once_in_the_registry():
    declaradas = {h.nombre: h.area for h in registro if h.area is not None}
    assert declaradas == {nombre: area for area, nombres in AREAS.items() for nombre in nombres}
    assert {h.nombre for h in registro if h.area is None} >= ABIERTAS


@pytest.mark.parametrize("nombre", CON_AREA)
def test_a_tool_outside_the_granted_areas_is_not_listed_and_its_call_is_refused(
    client, todo_poder, nombre
):
    area = registro.obtener(nombre).area
    otras = [a for a in AREAS if a != area]
    fuera = _oauth(todo_poder, _alcances(*otras))
    assert nombre not in _nombres(client, fuera)
    datos = error_herramienta(llamar(client, nombre, {}, **fuera), "SIN_PERMISO")
    assert "no tiene acceso al área" in datos["mensaje"]
    fila = RegistroAuditoria.objects.filter(herramienta=nombre).latest("pk")
    assert fila.resultado == "SIN_PERMISO" and fila.usuario == todo_poder
    dentro = _oauth(todo_poder, _alcances(area))
    listadas = _nombres(client, dentro)
    assert nombre in listadas
    assert listadas - ABIERTAS - {"uso_asistente", "diagnostico_servicio"} == AREAS[area]


@pytest.mark.parametrize("area", sorted(AREAS))
def test_mis_accesos_and_buscar_ayuda_stay_open_and_name_this_connections_tools(
    client, todo_poder, area
):
    cabeceras = _oauth(todo_poder, _alcances(area, escribir=False))
    listadas = _nombres(client, cabeceras)
    assert listadas >= ABIERTAS
    datos = validador("mis_accesos")(llamar(client, "mis_accesos", {}, **cabeceras))
    assert {h["nombre"] for h in datos["herramientas"]} == listadas
    r = llamar(client, "buscar_ayuda", {"consulta": "cómo creo un token"}, **cabeceras)
    assert r.resultado["isError"] is False


def test_a_token_from_before_areas_reaches_every_area(client, todo_poder):
    antigua = _oauth(todo_poder, "asistente:leer asistente:escribir")
    todas = _oauth(todo_poder, _alcances(*AREAS))
    assert _nombres(client, antigua) == _nombres(client, todas) >= set(CON_AREA)


def test_a_personal_token_reaches_only_the_areas_chosen_and_an_old_one_every_area(
    client, todo_poder
):
    token, secreto = nuevo_token(todo_poder, nombre="Solo calidad")
    token.areas = "calidad"
    token.save()
    solo_calidad = {"X-MCP-User-Token": secreto}
    listadas = _nombres(client, solo_calidad)
    assert "buscar_documento" in listadas and not listadas & (AREAS["presupuesto"])
    error_herramienta(llamar(client, "estado_cdp", {}, **solo_calidad), "SIN_PERMISO")
    _, antiguo = nuevo_token(todo_poder, nombre="De antes")  # areas "": every area
    assert set(CON_AREA) <= _nombres(client, {"X-MCP-User-Token": antiguo})


def test_busqueda_global_searches_the_requested_scopes_the_connection_was_granted(
    client, todo_poder
):
    calidad = _oauth(todo_poder, _alcances("calidad"))
    datos = validador("busqueda_global")(
        llamar(client, "busqueda_global", {"texto": "manual"}, **calidad)
    )
    assert datos["ambitos"] == ["documentos"]
    assert "solicitudes" not in datos and "presupuesto" not in datos
    r = llamar(
        client,
        "busqueda_global",
        {"texto": "manual", "ambitos": ["solicitudes", "documentos"]},
        **calidad,
    )
    assert validador("busqueda_global")(r)["ambitos"] == ["documentos"]
    assert "No se buscó en solicitudes" in r.resultado["content"][0]["text"]
    r = llamar(
        client, "busqueda_global", {"texto": "manual", "ambitos": ["presupuesto"]}, **calidad
    )
    error_herramienta(r, "SIN_PERMISO")
    dos = _oauth(todo_poder, _alcances("calidad", "presupuesto"))
    datos = validador("busqueda_global")(
        llamar(client, "busqueda_global", {"texto": "manual"}, **dos)
    )
    assert datos["ambitos"] == ["documentos", "presupuesto"]


def test_an_area_refusal_runs_no_query_but_its_audit_row(
    client, todo_poder, django_assert_num_queries
):
    # The areas come from the scopes on the cached access: no query of their own.
    sin_presupuesto = _oauth(todo_poder, _alcances("calidad", escribir=False))
    llamar(client, "estado_cdp", {}, **sin_presupuesto)  # first use: lookups and marks
    with django_assert_num_queries(1):
        error_herramienta(llamar(client, "estado_cdp", {}, **sin_presupuesto), "SIN_PERMISO")
