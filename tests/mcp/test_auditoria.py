"""Audit (docs/decisiones/asistente.md): one append-only row per tools/call, no secrets."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import Group
from django.db import DatabaseError

from apps.mcp.models import ConfirmacionUsada, RegistroAuditoria, SoloAgregar
from tests.factories import UserFactory
from tests.mcp_cliente import enviar, llamar, rpc

pytestmark = pytest.mark.django_db


def _fila() -> RegistroAuditoria:
    return RegistroAuditoria.objects.order_by("-id").first()


def test_an_ok_call_leaves_one_row_with_who_what_and_how_long(
    client, clave, completo, token_completo, herramientas_prueba
):
    cabeceras = {**clave, "X-MCP-User-Token": token_completo}
    llamar(client, "prueba_eco", {"texto": "hola", "veces": 2}, REMOTE_ADDR="10.3.3.3", **cabeceras)
    assert RegistroAuditoria.objects.count() == 1
    fila = _fila()
    assert fila.usuario == completo
    assert fila.clave is not None and fila.clave.nombre == "Integración de prueba"
    assert fila.credencial == "clave_y_token"
    assert fila.token_prefijo == token_completo[:13]
    assert fila.ip == "10.3.3.3"
    assert fila.herramienta == "prueba_eco"
    assert fila.argumentos == {"texto": "hola", "veces": 2}
    assert fila.resultado == "ok"
    assert isinstance(fila.duracion_ms, int) and fila.duracion_ms >= 0


def test_the_credential_kind_is_recorded(client, clave, token_completo, herramientas_prueba):
    llamar(client, "prueba_publica", {}, **clave)
    assert _fila().credencial == "clave_api" and _fila().usuario is None
    llamar(client, "prueba_publica", {}, **{"X-MCP-User-Token": token_completo})
    assert _fila().credencial == "token_personal" and _fila().clave is None


@pytest.mark.parametrize(
    ("nombre", "argumentos", "resultado"),
    [
        ("prueba_eco", {"texto": "x"}, "DATOS_INVALIDOS"),
        ("prueba_falla", {}, "ERROR_INTERNO"),
        ("no_existe", {"a": 1}, "PARAMETROS_INVALIDOS"),
        ("prueba_eco", ["no", "objeto"], "PARAMETROS_INVALIDOS"),
    ],
)
def test_error_outcomes_are_audited_with_their_code(
    client, como_completo, herramientas_prueba, nombre, argumentos, resultado
):
    llamar(client, nombre, argumentos, **como_completo)
    assert RegistroAuditoria.objects.count() == 1
    assert _fila().resultado == resultado
    assert _fila().herramienta == nombre


def test_permission_and_identity_refusals_are_audited(
    client, clave, como_limitado, herramientas_prueba
):
    llamar(client, "prueba_eco", {"texto": "hola"}, **como_limitado)
    llamar(client, "prueba_eco", {"texto": "hola"}, **clave)
    assert list(RegistroAuditoria.objects.order_by("id").values_list("resultado", flat=True)) == [
        "SIN_PERMISO",
        "SIN_IDENTIDAD",
    ]


def test_a_missing_tool_name_is_audited_with_an_empty_name(client, como_completo):
    rpc(client, "tools/call", {"arguments": {}}, **como_completo)
    assert _fila().herramienta == "" and _fila().resultado == "PARAMETROS_INVALIDOS"


def test_other_methods_and_refused_credentials_leave_no_row(client, clave, herramientas_prueba):
    rpc(client, "initialize", {"protocolVersion": "2025-06-18"}, **clave)
    rpc(client, "tools/list", **clave)
    rpc(client, "ping", **clave)
    llamar(client, "prueba_publica", {}, **{"X-MCP-Api-Key": "sgiapi_mala"})
    assert RegistroAuditoria.objects.count() == 0


def test_secrets_never_reach_the_audit_log(client, clave, token_completo, herramientas_prueba):
    cabeceras = {**clave, "X-MCP-User-Token": token_completo}
    r = llamar(client, "prueba_grupo", {"nombre": "Comité"}, **cabeceras)
    token = r.estructura["token_confirmacion"]
    llamar(
        client,
        "prueba_grupo",
        {"nombre": "Comité", "confirmar": True, "token_confirmacion": token},
        **cabeceras,
    )
    filas = list(RegistroAuditoria.objects.order_by("id"))
    assert [f.resultado for f in filas] == ["ok", "ok"]
    assert filas[1].argumentos == {"nombre": "Comité", "confirmar": True}
    volcado = json.dumps(list(RegistroAuditoria.objects.values()), default=str)
    for secreto in (token, token_completo, clave["X-MCP-Api-Key"]):
        assert secreto not in volcado


def test_long_texts_are_cut_in_the_audit_log(client, como_completo, herramientas_prueba):
    llamar(client, "prueba_eco", {"texto": "a" * 5000, "extra": {"b": "c" * 900}}, **como_completo)
    argumentos = _fila().argumentos
    assert len(argumentos["texto"]) == 200 and argumentos["texto"].endswith("…")
    assert len(argumentos["extra"]["b"]) == 200


@pytest.mark.parametrize(
    "params",
    [
        {"name": "no\u0000existe", "arguments": {}},
        {
            "name": "prueba_eco",
            "arguments": {"texto": "hola", "\u0000": 1, "a\u0000b": {"\u0000": 2}},
        },
    ],
)
def test_nul_characters_in_names_and_argument_keys_are_audited_not_a_503(
    client, como_completo, herramientas_prueba, params
):
    # Found by the Hypothesis fuzzing: PostgreSQL refuses NUL in text and in jsonb keys.
    r = enviar(
        client,
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params},
        **como_completo,
    )
    assert r.status == 200
    fila = _fila()
    assert "\x00" not in fila.herramienta
    assert "\x00" not in json.dumps(fila.argumentos, ensure_ascii=False)
    assert "\\u0000" not in json.dumps(fila.argumentos)


def test_a_secret_pasted_as_an_argument_name_keeps_only_its_prefix(
    client, como_completo, token_completo, herramientas_prueba
):
    llamar(client, "prueba_eco", {"texto": "hola", token_completo: 1}, **como_completo)
    argumentos = _fila().argumentos
    assert token_completo not in json.dumps(argumentos)
    assert "sgimcp_[oculto]" in argumentos


def test_audit_rows_cannot_be_changed_or_deleted(client, como_completo, herramientas_prueba):
    llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    fila = _fila()
    fila.resultado = "ok-falso"
    with pytest.raises(SoloAgregar):
        fila.save()
    with pytest.raises(SoloAgregar):
        fila.delete()
    with pytest.raises(SoloAgregar):
        RegistroAuditoria.objects.filter(pk=fila.pk).update(resultado="x")
    with pytest.raises(SoloAgregar):
        RegistroAuditoria.objects.all().delete()
    assert RegistroAuditoria.objects.get(pk=fila.pk).resultado == "ok"


def test_if_the_audit_row_cannot_be_written_the_call_fails_and_nothing_is_written(
    client, como_completo, herramientas_prueba, monkeypatch
):
    r = llamar(client, "prueba_grupo", {"nombre": "Comité"}, **como_completo)
    token = r.estructura["token_confirmacion"]

    def falla(*args, **kwargs):
        raise DatabaseError("disco lleno")

    monkeypatch.setattr(RegistroAuditoria.objects, "create", falla)
    r = llamar(
        client,
        "prueba_grupo",
        {"nombre": "Comité", "confirmar": True, "token_confirmacion": token},
        **como_completo,
    )
    assert r.status == 503
    assert r.cuerpo["error"]["code"] == "SERVICIO_NO_DISPONIBLE"
    assert "disco lleno" not in r.http.content.decode()
    assert Group.objects.filter(name="Comité").count() == 0
    assert ConfirmacionUsada.objects.count() == 0
    assert RegistroAuditoria.objects.count() == 1  # the preview's row only


def test_a_read_whose_audit_fails_is_not_answered(
    client, como_completo, herramientas_prueba, monkeypatch
):
    monkeypatch.setattr(
        RegistroAuditoria.objects, "create", lambda **k: (_ for _ in ()).throw(DatabaseError())
    )
    r = llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    assert r.status == 503
    assert "hola" not in r.http.content.decode()


# --- admin -------------------------------------------------------------------------------------


@pytest.fixture
def admin_client_mcp(client):
    admin = UserFactory(username="admin_mcp", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def test_the_admin_shows_the_log_read_only_with_filters(
    client, como_completo, herramientas_prueba, admin_client_mcp
):
    llamar(client, "prueba_eco", {"texto": "hola"}, **como_completo)
    fila = _fila()
    lista = admin_client_mcp.get(
        "/admin/mcp/registroauditoria/?resultado=ok&herramienta=prueba_eco"
    )
    assert lista.status_code == 200
    assert "prueba_eco" in lista.content.decode()
    assert admin_client_mcp.get("/admin/mcp/registroauditoria/add/").status_code == 403
    detalle = admin_client_mcp.get(f"/admin/mcp/registroauditoria/{fila.pk}/change/")
    assert detalle.status_code == 200
    assert 'name="_save"' not in detalle.content.decode()
    borrar = admin_client_mcp.post(
        f"/admin/mcp/registroauditoria/{fila.pk}/delete/", {"post": "yes"}
    )
    assert borrar.status_code == 403
    assert RegistroAuditoria.objects.filter(pk=fila.pk).exists()


def test_the_admin_exports_the_selected_rows_as_csv(
    client, como_completo, herramientas_prueba, admin_client_mcp
):
    llamar(client, "prueba_eco", {"texto": '=HYPERLINK("x")'}, **como_completo)
    llamar(client, "prueba_eco", {"texto": "x"}, **como_completo)
    ids = list(RegistroAuditoria.objects.values_list("pk", flat=True))
    r = admin_client_mcp.post(
        "/admin/mcp/registroauditoria/",
        {"action": "exportar_csv", "_selected_action": ids},
    )
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/csv")
    filas = list(csv.reader(io.StringIO(b"".join(r.streaming_content).decode())))
    assert filas[0][:6] == ["fecha", "usuario", "integracion", "credencial", "ip", "herramienta"]
    assert sorted(f[7] for f in filas[1:]) == ["DATOS_INVALIDOS", "ok"]
    assert all(not f[6].startswith("=") for f in filas[1:])
