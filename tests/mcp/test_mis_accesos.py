"""mis_accesos: the caller's roles, areas, modules, permissions and tools (the tools/list ones)."""

from __future__ import annotations

import json

import pytest

from hub.herramientas.registro import registro
from tests.factories import AreaFactory, GroupFactory, UserFactory, dar_permisos, permiso
from tests.mcp.factories import nuevo_token
from tests.mcp_cliente import ajustar, llamar, rpc, validador

pytestmark = pytest.mark.django_db

CAMPOS = {"usuario", "nombre", "roles", "areas", "modulos", "herramientas"}
USAR = {
    "codigo": "mcp.asistente.usar",
    "nombre": "Puede usar el asistente (MCP) y crear tokens personales",
}


def _accesos(client, cabeceras, **argumentos):
    return llamar(client, "mis_accesos", argumentos, **cabeceras)


_valida = validador("mis_accesos")


def _lista(client, cabeceras) -> list[dict]:
    return rpc(client, "tools/list", **cabeceras).resultado["tools"]


def _como(usuario) -> dict[str, str]:
    return {"X-MCP-User-Token": nuevo_token(usuario)[1]}


@pytest.fixture
def gestora():
    """Roles with permissions, direct permissions, two areas, staff: a rich profile."""
    revision = GroupFactory(name="Revisión\u200b de solicitudes")
    revision.permissions.add(permiso("solicitudes.bandeja.ver"), permiso("solicitudes.radicar"))
    planeacion = GroupFactory(name="Planeación")
    planeacion.permissions.add(permiso("presupuesto.planeacion.consultar"))
    usuario = UserFactory(
        username="gestora",
        first_name="Gloria",
        last_name="Pardo",
        is_staff=True,
        areas=[AreaFactory(sigla="OTI", nombre="Oficina TIC"), AreaFactory(sigla="ADM")],
    )
    usuario.groups.add(planeacion, revision)
    dar_permisos(usuario, "mcp.asistente.usar", "mcp.asistente.administrar")
    return usuario


# --- what comes back ----------------------------------------------------------------------------


def test_a_person_with_assistant_access_only_sees_just_that(client, como_limitado, limitado):
    r = _accesos(client, como_limitado)
    datos = _valida(r)
    assert set(datos) == CAMPOS | {"permisos", "total_permisos"}
    assert datos["usuario"] == "limitado_t"
    assert datos["nombre"] == limitado.get_full_name()
    assert datos["roles"] == []
    assert datos["areas"] == []
    assert datos["modulos"] == [
        {"codigo": "calidad", "nombre": "Documentos de calidad"},
        {"codigo": "asistente", "nombre": "Asistente (MCP)"},
    ]
    assert datos["permisos"] == {"mcp": [USAR]}
    assert datos["total_permisos"] == 1
    nombres = [h["nombre"] for h in datos["herramientas"]]
    assert "mis_accesos" in nombres and "buscar_ayuda" in nombres
    assert "diagnostico_servicio" not in nombres
    assert "limitado_t" in r.resultado["content"][0]["text"]


def test_roles_areas_modules_and_permissions_grouped_by_module(client, gestora):
    datos = _valida(_accesos(client, _como(gestora)))
    assert datos["usuario"] == "gestora"
    assert datos["nombre"] == "Gloria Pardo"
    assert datos["roles"] == ["Planeación", "Revisión de solicitudes"]  # invisible char removed
    assert datos["areas"] == [
        {"sigla": "ADM", "nombre": gestora.areas.get(sigla="ADM").nombre},
        {"sigla": "OTI", "nombre": "Oficina TIC"},
    ]
    assert [m["codigo"] for m in datos["modulos"]] == [
        "solicitudes",
        "bandeja",
        "presupuesto",
        "calidad",
        "asistente",
        "administracion_asistente",
        "administracion",
    ]
    assert datos["permisos"] == {
        "mcp": [
            {
                "codigo": "mcp.asistente.administrar",
                "nombre": "Puede usar las herramientas de administración del asistente",
            },
            USAR,
        ],
        "presupuesto": [
            {
                "codigo": "presupuesto.planeacion.consultar",
                "nombre": "Consultar CDP, RP y la planeación presupuestal",
            }
        ],
        "solicitudes": [
            {
                "codigo": "solicitudes.bandeja.ver",
                "nombre": "Puede ver la bandeja de tareas de solicitudes",
            },
            {
                "codigo": "solicitudes.radicar",
                "nombre": "Puede radicar solicitudes y casos de mesa de ayuda",
            },
        ],
    }
    assert datos["total_permisos"] == 5
    nombres = {h["nombre"] for h in datos["herramientas"]}
    assert {"diagnostico_servicio", "uso_asistente"} <= nombres


def test_a_role_without_permissions_shows_no_module_of_its_own(client):
    usuario = UserFactory(username="solo_rol", permisos=["mcp.asistente.usar"])
    usuario.groups.add(GroupFactory(name="Rol vacío"))
    datos = _valida(_accesos(client, _como(usuario)))
    assert datos["roles"] == ["Rol vacío"]
    assert [m["codigo"] for m in datos["modulos"]] == ["calidad", "asistente"]


def test_without_permissions_only_roles_modules_and_tools(client, gestora):
    cabeceras = _como(gestora)
    completo = _valida(_accesos(client, cabeceras))
    corto = _valida(_accesos(client, cabeceras, incluir_permisos=False))
    assert set(corto) == CAMPOS
    assert {k: completo[k] for k in CAMPOS} == corto


@pytest.mark.parametrize("persona", ["limitado", "completo"])
def test_the_tools_are_exactly_those_of_tools_list(client, request, herramientas_prueba, persona):
    cabeceras = request.getfixturevalue(f"como_{persona}")
    lista = _lista(client, cabeceras)
    datos = _valida(_accesos(client, cabeceras))
    assert [h["nombre"] for h in datos["herramientas"]] == [t["name"] for t in lista]
    assert [h["titulo"] for h in datos["herramientas"]] == [t["title"] for t in lista]
    escrituras = {h["nombre"] for h in datos["herramientas"] if h["escritura"]}
    assert escrituras == {t["name"] for t in lista if not t["annotations"]["readOnlyHint"]}
    nombres = {h["nombre"] for h in datos["herramientas"]}
    if persona == "completo":
        assert {"prueba_eco", "prueba_grupo"} <= nombres
        assert "prueba_grupo" in escrituras
    else:
        assert not {"prueba_eco", "prueba_grupo"} & nombres


def test_with_writes_disabled_both_lists_drop_the_write_tools(
    client, como_completo, herramientas_prueba
):
    ajustar(escrituras_habilitadas=False)
    lista = _lista(client, como_completo)
    datos = _valida(_accesos(client, como_completo))
    assert [h["nombre"] for h in datos["herramientas"]] == [t["name"] for t in lista]
    assert "prueba_grupo" not in {h["nombre"] for h in datos["herramientas"]}


def test_each_person_learns_only_about_themselves(client, como_limitado, gestora):
    propio = _valida(_accesos(client, como_limitado))
    assert propio["usuario"] == "limitado_t"
    r = _accesos(client, como_limitado, usuario="gestora")
    assert r.resultado["isError"] is True
    assert r.estructura["codigo"] == "DATOS_INVALIDOS"
    assert r.estructura["campos"] == {"usuario": ["Campo no permitido."]}
    assert "gestora" not in json.dumps(r.resultado)


# --- arguments, access, cost -------------------------------------------------------------------


@pytest.mark.parametrize("valor", ["quizas", 2, None, [True]])
def test_a_non_boolean_incluir_permisos_is_datos_invalidos(client, como_limitado, valor):
    r = _accesos(client, como_limitado, incluir_permisos=valor)
    assert r.estructura["codigo"] == "DATOS_INVALIDOS"
    assert set(r.estructura["campos"]) == {"incluir_permisos"}


def test_the_default_includes_the_permissions(client, como_limitado):
    assert "permisos" in _valida(_accesos(client, como_limitado))
    assert "permisos" in _valida(_accesos(client, como_limitado, incluir_permisos=True))
    esquema = registro.obtener("mis_accesos").esquema_entrada
    assert esquema["properties"]["incluir_permisos"]["default"] is True
    assert "required" not in esquema


def test_the_api_key_alone_gets_sin_identidad(client, clave):
    r = _accesos(client, clave)
    assert r.resultado["isError"] is True
    assert r.estructura["codigo"] == "SIN_IDENTIDAD"
    assert "mis_accesos" not in {t["name"] for t in _lista(client, clave)}


def test_the_cost_is_the_same_for_a_bare_and_a_rich_profile(
    client, clave, como_limitado, gestora, django_assert_num_queries
):
    rica = {**clave, **_como(gestora)}
    # First uses write the credentials' last use: warm both up.
    _accesos(client, como_limitado)
    _accesos(client, rica)
    # Roles, areas, permission names, audit row (credentials and permissions come from the cache).
    with django_assert_num_queries(4) as pobre:
        _accesos(client, como_limitado)
    with django_assert_num_queries(len(pobre.captured_queries)):
        _accesos(client, rica)
    with django_assert_num_queries(len(pobre.captured_queries) - 1):
        _accesos(client, rica, incluir_permisos=False)
