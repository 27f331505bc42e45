"""The contract's tool table, with the real tools: which ones each identity sees and may call."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.mcp_cliente import error_herramienta, llamar, rpc

pytestmark = pytest.mark.django_db

PUBLICAS = {"buscar_documento", "estado_solicitud"}
# Access "any identified user" (and the public ones, which a person may use too).
DE_TODA_PERSONA = PUBLICAS | {"buscar_ayuda", "busqueda_global", "mis_accesos", "resumen_solicitud"}
# Permission (any of) -> the tools it adds.
POR_PERMISO = {
    "solicitudes.bandeja.ver": {"buscar_solicitudes", "comentar_solicitud", "mis_tareas"},
    "solicitudes.radicar": {"buscar_solicitudes", "comentar_solicitud", "radicar_mesa_ayuda"},
    "solicitudes.ver_todas": {"buscar_solicitudes", "comentar_solicitud"},
    "presupuesto.planeacion.consultar": {"estado_cdp", "estado_rp", "resumen_ejecutivo"},
    "presupuesto.reportes.consultar": {"estado_presupuesto", "resumen_ejecutivo"},
    "presupuesto.reportes.personalizados": {"reporte_preparar"},
    # The two administration tools, whose names the contract does not show.
    "mcp.asistente.administrar": {"diagnostico_servicio", "uso_asistente"},
}
CON_PERMISO = set().union(*POR_PERMISO.values())


def _nombres(client, cabeceras) -> set[str]:
    return {t["name"] for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}


def test_the_key_alone_lists_exactly_the_two_public_tools(client, clave):
    assert _nombres(client, clave) == PUBLICAS


def test_a_person_without_permissions_lists_exactly_the_tools_of_any_identified_user(client, como):
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    assert _nombres(client, como(persona)) == DE_TODA_PERSONA


@pytest.mark.parametrize("permiso", sorted(POR_PERMISO))
def test_each_permission_adds_exactly_the_tools_of_the_table(client, como, permiso):
    persona = UserFactory(permisos=["mcp.asistente.usar", permiso])
    assert _nombres(client, como(persona)) == DE_TODA_PERSONA | POR_PERMISO[permiso]


@pytest.mark.parametrize("nombre", sorted(DE_TODA_PERSONA - PUBLICAS | CON_PERMISO))
def test_every_tool_that_needs_a_person_is_sin_identidad_with_the_key_alone(client, clave, nombre):
    error_herramienta(llamar(client, nombre, {}, **clave), "SIN_IDENTIDAD")


@pytest.mark.parametrize("nombre", sorted(CON_PERMISO))
def test_every_tool_with_permissions_is_sin_permiso_for_a_person_without_them(client, como, nombre):
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    error_herramienta(llamar(client, nombre, {}, **como(persona)), "SIN_PERMISO")
