"""Demo credentials: deterministic, idempotent, and each behaving as its name says."""

from __future__ import annotations

import pytest
from oauth2_provider.models import get_access_token_model

from apps.calidad import demo as demo_calidad
from apps.cuentas import demo as demo_cuentas
from apps.mcp import demo
from apps.mcp.models import AjustesAsistente, ClaveApi, TokenPersonal
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from apps.solicitudes import demo as demo_solicitudes
from hub import secretos
from hub.operacion.demo import ContextoDemo
from tests.mcp_cliente import llamar, rpc

pytestmark = pytest.mark.django_db


@pytest.fixture
def _base():
    """Accounts, requests and documents, as demo_data loads them before the assistant."""
    ctx = ContextoDemo(escala=1)
    demo_cuentas.cargar(ctx)
    demo_solicitudes.cargar(ctx)
    demo_calidad.cargar(ctx)
    return ctx


@pytest.fixture
def ctx(_base):
    contexto = ContextoDemo(escala=1, objetos=dict(_base.objetos), salida=dict(_base.salida))
    demo.cargar(contexto)
    return contexto


def test_the_demo_outputs_the_key_the_tokens_and_a_foreign_request(ctx):
    assert secretos.bien_formado(ctx.salida["api_key"], PREFIJO_CLAVE)
    assert set(ctx.salida["tokens"]) == {
        "completo",
        "limitado",
        "sin_asistente",
        "bloqueado",
        "vencido",
        "revocado",
    }
    for secreto in ctx.salida["tokens"].values():
        assert secretos.bien_formado(secreto, PREFIJO_TOKEN)
    assert ctx.salida["solicitud_ajena"]
    assert ClaveApi.objects.get().nombre == "Asistente de demostración"
    assert AjustesAsistente.objects.count() == 1
    resumen = "\n".join(ctx.resumen)
    assert ctx.salida["api_key"] in resumen and ctx.salida["tokens"]["completo"] in resumen
    assert "tools/list" in resumen and "curl" in resumen


def test_running_the_demo_twice_prints_the_same_secrets_and_adds_nothing(ctx, _base):
    otra = ContextoDemo(escala=1, objetos=dict(_base.objetos), salida={})
    demo.cargar(otra)
    assert otra.salida["api_key"] == ctx.salida["api_key"]
    assert otra.salida["tokens"] == ctx.salida["tokens"]
    assert otra.salida["oauth_token"] == ctx.salida["oauth_token"]
    assert get_access_token_model().objects.count() == 1
    assert ClaveApi.objects.count() == 1
    assert TokenPersonal.objects.count() == len(demo.TOKENS)


def test_each_demo_credential_behaves_as_its_name_says(client, ctx):
    clave = {"X-MCP-Api-Key": ctx.salida["api_key"]}
    tokens = ctx.salida["tokens"]

    def estado(nombre: str) -> int:
        return rpc(client, "ping", **clave, **{"X-MCP-User-Token": tokens[nombre]}).status

    assert rpc(client, "ping", **clave).status == 200
    assert estado("completo") == 200
    assert estado("limitado") == 200
    assert estado("sin_asistente") == 403
    assert estado("bloqueado") == 403
    assert estado("vencido") == 401
    assert estado("revocado") == 401


def test_the_demo_oauth_token_acts_as_completo_through_a_verified_client(client, ctx):
    secreto = ctx.salida["oauth_token"]
    assert secreto.startswith("sgioat_")
    assert rpc(client, "ping", Authorization=f"Bearer {secreto}").status == 200
    acceso = get_access_token_model().objects.select_related("user", "application").get()
    assert acceso.user.username == "completo"
    assert acceso.application.verificada is True


def test_the_foreign_request_is_visible_to_completo_and_not_to_limitado(client, ctx):
    numero = ctx.salida["solicitud_ajena"]
    clave = {"X-MCP-Api-Key": ctx.salida["api_key"]}
    tokens = ctx.salida["tokens"]
    completo = llamar(
        client,
        "estado_solicitud",
        {"numero_radicado": numero},
        **clave,
        **{"X-MCP-User-Token": tokens["completo"]},
    )
    assert completo.estructura["numero_radicado"] == numero
    limitado = llamar(
        client,
        "estado_solicitud",
        {"numero_radicado": numero},
        **clave,
        **{"X-MCP-User-Token": tokens["limitado"]},
    )
    assert limitado.estructura["codigo"] == "NO_ENCONTRADO"


def test_the_public_request_of_the_demo_answers_with_the_api_key_alone(client, ctx):
    publica = ctx.salida["solicitud_publica"]
    r = llamar(client, "estado_solicitud", publica, **{"X-MCP-Api-Key": ctx.salida["api_key"]})
    assert r.estructura["encontrado"] is True
