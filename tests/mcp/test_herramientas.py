"""The tool registry: schemas from serializers, who sees what, result shape, tool errors."""

from __future__ import annotations

import json
import logging

import jsonschema
import pytest
from django.core.exceptions import ValidationError
from rest_framework import serializers

from apps.mcp.models import AjustesAsistente
from hub.herramientas.registro import Acceso, Herramienta, Verificacion, esquema_de, registro
from hub.http.serializadores import Estricto
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token
from tests.mcp_cliente import ajustar, cumple_esquema, error_herramienta, llamar, rpc

pytestmark = pytest.mark.django_db

PRUEBA = {"prueba_eco", "prueba_falla", "prueba_publica", "prueba_grupo", "prueba_verificada"}


def _lista(client, cabeceras) -> dict[str, dict]:
    return {t["name"]: t for t in rpc(client, "tools/list", **cabeceras).resultado["tools"]}


# --- schemas -----------------------------------------------------------------------------------


def test_the_input_schema_is_derived_from_the_serializer(
    client, como_completo, herramientas_prueba
):
    esquema = _lista(client, como_completo)["prueba_eco"]["inputSchema"]
    assert esquema == {
        "type": "object",
        "properties": {
            "texto": {
                "type": "string",
                "minLength": 2,
                "maxLength": 50,
                "description": "Lo que se repite.",
            },
            "veces": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
            "modo": {"type": "string", "enum": ["corto", "largo"]},
            "dia": {"type": "string", "format": "date"},
            "activo": {"type": "boolean", "default": False},
            "etiquetas": {
                "type": "array",
                "items": {"type": "string", "enum": ["a", "b"]},
                "maxItems": 2,
            },
        },
        "required": ["texto"],
        "additionalProperties": False,
    }


def test_write_tools_get_confirmar_and_token_confirmacion_in_their_schema(
    client, como_completo, herramientas_prueba
):
    propiedades = _lista(client, como_completo)["prueba_grupo"]["inputSchema"]["properties"]
    assert propiedades["confirmar"]["type"] == "boolean"
    assert propiedades["confirmar"]["default"] is False
    assert propiedades["token_confirmacion"]["type"] == "string"
    assert propiedades["token_confirmacion"]["maxLength"] == 600


def test_schema_and_validation_agree_on_bounds_and_unknown_fields(
    client, como_completo, herramientas_prueba
):
    esquema = herramientas_prueba["prueba_eco"].esquema_entrada
    casos = [
        {"texto": "ok"},
        {"texto": "x"},
        {"texto": "ok", "veces": 6},
        {"texto": "ok", "veces": 0},
        {"texto": "ok", "modo": "medio"},
        {"texto": "ok", "dia": "2026-02-30"},
        {"texto": "ok", "otro": 1},
        {},
    ]
    for argumentos in casos:
        valido_esquema = jsonschema.Draft202012Validator(
            esquema, format_checker=jsonschema.FormatChecker()
        ).is_valid(argumentos)
        r = llamar(client, "prueba_eco", argumentos, **como_completo)
        assert (not r.resultado["isError"]) == valido_esquema, argumentos


@pytest.mark.parametrize(
    ("campo", "esperado"),
    [
        (
            serializers.EmailField(max_length=150),
            {"type": "string", "format": "email", "minLength": 1, "maxLength": 150},
        ),
        (serializers.CharField(allow_blank=True, required=False), {"type": "string"}),
        (
            serializers.MultipleChoiceField(choices=["x", "y"]),
            {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "uniqueItems": True},
        ),
        (serializers.ChoiceField(choices=[1, 2]), {"type": "integer", "enum": [1, 2]}),
        (serializers.DictField(), {"type": "object"}),
        (
            serializers.DecimalField(max_digits=5, decimal_places=2, min_value=0),
            {"type": "number", "minimum": 0},
        ),
        (serializers.IntegerField(allow_null=True), {"type": ["integer", "null"]}),
    ],
)
def test_each_field_kind_maps_to_its_json_schema(campo, esperado):
    class Args(Estricto):
        pass

    Args._declared_fields = {"c": campo}
    assert esquema_de(Args())["properties"]["c"] == esperado


def test_a_tool_must_use_strict_arguments_and_writes_need_a_user():
    class Laxo(serializers.Serializer):
        pass

    with pytest.raises(TypeError):
        Herramienta(
            nombre="x",
            titulo="x",
            descripcion="x",
            acceso=Acceso.USUARIO,
            argumentos=Laxo,
            salida={},
        )
    with pytest.raises(ValueError, match="exige usuario"):
        Herramienta(
            nombre="x",
            titulo="x",
            descripcion="x",
            acceso=Acceso.PUBLICA,
            argumentos=Estricto,
            salida={},
            escritura=True,
            ejecutar=print,
        )


@pytest.mark.parametrize(
    ("acceso", "verificacion"),
    [
        (Acceso.VERIFICADA, None),
        (Acceso.PUBLICA, Verificacion("dato", "el dato")),
        (Acceso.USUARIO, Verificacion("dato", "el dato")),
    ],
)
def test_only_a_verified_tool_declares_the_datum_the_assistant_checks(acceso, verificacion):
    with pytest.raises(ValueError, match="solo el acceso verificada declara su verificación"):
        Herramienta(
            nombre="x",
            titulo="x",
            descripcion="x",
            acceso=acceso,
            argumentos=Estricto,
            salida={},
            verificacion=verificacion,
        )


def test_a_name_cannot_be_registered_twice(herramientas_prueba):
    with pytest.raises(ValueError, match="dos veces"):
        registro.registrar(herramientas_prueba["prueba_eco"])


# --- who sees what -----------------------------------------------------------------------------


def test_tools_list_differs_between_key_only_limited_and_complete(
    client, clave, como_limitado, como_completo, herramientas_prueba
):
    solo_clave = set(_lista(client, clave)) & PRUEBA
    limitado = set(_lista(client, como_limitado)) & PRUEBA
    completo = set(_lista(client, como_completo)) & PRUEBA
    assert solo_clave == {"prueba_publica", "prueba_verificada"}
    assert limitado == {"prueba_publica", "prueba_verificada", "prueba_falla"}
    assert completo == PRUEBA


def test_every_listed_tool_has_exactly_the_documented_keys(
    client, como_completo, herramientas_prueba
):
    for herramienta in _lista(client, como_completo).values():
        assert set(herramienta) == {
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
        }
        assert herramienta["inputSchema"]["type"] == "object"
        assert herramienta["outputSchema"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(herramienta["inputSchema"])
        jsonschema.Draft202012Validator.check_schema(herramienta["outputSchema"])
        jsonschema.Draft7Validator.check_schema(herramienta["outputSchema"])  # TypeScript SDK 1.x
        anotaciones = herramienta["annotations"]
        for pista in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
            assert isinstance(anotaciones[pista], bool)


def test_read_and_write_tools_carry_matching_annotations(
    client, como_completo, herramientas_prueba
):
    lista = _lista(client, como_completo)
    assert lista["prueba_eco"]["annotations"]["readOnlyHint"] is True
    assert lista["prueba_grupo"]["annotations"]["readOnlyHint"] is False
    assert lista["prueba_grupo"]["annotations"]["idempotentHint"] is False


def test_the_administrator_can_reduce_the_public_list(client, clave, herramientas_prueba):
    ajustar(herramientas_publicas=["prueba_verificada"])
    assert set(_lista(client, clave)) & PRUEBA == {"prueba_verificada"}
    error_herramienta(llamar(client, "prueba_publica", {}, **clave), "SIN_IDENTIDAD")


def test_a_public_tool_still_works_for_a_person(client, como_limitado, herramientas_prueba):
    ajustar(herramientas_publicas=[])
    r = llamar(client, "prueba_publica", {}, **como_limitado)
    assert r.estructura == {"usuario": "limitado_t"}


def test_the_public_list_only_accepts_public_or_verified_tools(herramientas_prueba):
    ajustes = AjustesAsistente.cargar()
    ajustes.herramientas_publicas = ["prueba_publica", "prueba_eco", "no_existe"]
    with pytest.raises(ValidationError) as error:
        ajustes.full_clean()
    assert "prueba_eco" in str(error.value) and "no_existe" in str(error.value)
    ajustes.herramientas_publicas = ["prueba_publica", "prueba_verificada"]
    ajustes.full_clean()


def test_write_tools_are_hidden_and_refused_while_writes_are_disabled(
    client, como_completo, herramientas_prueba
):
    ajustar(escrituras_habilitadas=False)
    assert "prueba_grupo" not in _lista(client, como_completo)
    error_herramienta(
        llamar(client, "prueba_grupo", {"nombre": "abc"}, **como_completo),
        "ESCRITURA_DESHABILITADA",
    )


# --- results and tool errors -------------------------------------------------------------------


def test_a_result_has_two_text_items_and_structured_content(
    client, como_completo, herramientas_prueba
):
    resultado = llamar(
        client, "prueba_eco", {"texto": "hola", "veces": 2}, **como_completo
    ).resultado
    assert set(resultado) == {"content", "isError", "structuredContent"}
    assert resultado["isError"] is False
    assert resultado["content"][0] == {"type": "text", "text": "Eco: hola"}
    assert resultado["content"][1]["type"] == "text"
    assert json.loads(resultado["content"][1]["text"]) == resultado["structuredContent"]
    assert resultado["structuredContent"] == {"texto": "hola", "veces": 2}
    cumple_esquema(resultado["structuredContent"], herramientas_prueba["prueba_eco"].esquema_salida)


def test_a_user_tool_with_the_key_alone_is_sin_identidad(client, clave, herramientas_prueba):
    datos = error_herramienta(
        llamar(client, "prueba_eco", {"texto": "hola"}, **clave), "SIN_IDENTIDAD"
    )
    assert "X-MCP-User-Token" in datos["mensaje"]


def test_a_person_without_the_tools_permission_gets_sin_permiso(
    client, como_limitado, herramientas_prueba
):
    error_herramienta(
        llamar(client, "prueba_eco", {"texto": "hola"}, **como_limitado), "SIN_PERMISO"
    )


def test_a_tool_without_permissions_is_open_to_any_identified_person(client, herramientas_prueba):
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    _, token = nuevo_token(persona)
    r = llamar(client, "prueba_falla", {}, **{"X-MCP-User-Token": token})
    assert r.estructura["codigo"] == "ERROR_INTERNO"  # reached the tool: access was granted


def test_permission_is_checked_before_arguments(client, como_limitado, herramientas_prueba):
    error_herramienta(llamar(client, "prueba_eco", {"nada": 1}, **como_limitado), "SIN_PERMISO")


@pytest.mark.parametrize(
    ("argumentos", "campos"),
    [
        ({}, {"texto"}),
        ({"texto": "x"}, {"texto"}),
        ({"texto": "hola", "veces": 9}, {"veces"}),
        ({"texto": "hola", "veces": "dos"}, {"veces"}),
        ({"texto": "hola", "sobra": True}, {"sobra"}),
        ({"texto": "hola", "modo": "otro", "dia": "ayer"}, {"modo", "dia"}),
        ({"texto": {"a": 1}}, {"texto"}),
    ],
)
def test_invalid_arguments_are_a_tool_error_with_campos(
    client, como_completo, herramientas_prueba, argumentos, campos
):
    datos = error_herramienta(
        llamar(client, "prueba_eco", argumentos, **como_completo), "DATOS_INVALIDOS"
    )
    assert set(datos["campos"]) == campos
    assert all(isinstance(p, list) and p for p in datos["campos"].values())


def test_missing_arguments_are_validated_as_an_empty_object(
    client, como_completo, herramientas_prueba
):
    datos = error_herramienta(
        llamar(client, "prueba_eco", None, **como_completo), "DATOS_INVALIDOS"
    )
    assert set(datos["campos"]) == {"texto"}


def test_an_unexpected_exception_is_error_interno_logged_and_not_leaked(
    client, como_completo, herramientas_prueba, caplog
):
    caplog.set_level(logging.ERROR)
    r = llamar(client, "prueba_falla", {}, **como_completo)
    assert r.status == 200
    datos = error_herramienta(r, "ERROR_INTERNO")
    assert "detalle-interno" not in r.http.content.decode()
    assert datos["mensaje"]
    assert "detalle-interno-que-no-debe-salir" in caplog.text


def test_the_apps_tools_are_discovered_at_start_up():
    assert "buscar_documento" in registro
    assert "estado_solicitud" in registro
    assert registro.obtener("buscar_documento").acceso is Acceso.PUBLICA
    assert registro.obtener("estado_solicitud").acceso is Acceso.VERIFICADA
