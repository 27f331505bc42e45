"""Two-step writes (DESIGN 9), proved with a write tool that exists only in the tests."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import jsonschema
import pytest
from django.contrib.auth.models import Group
from django.core import signing
from django.test import override_settings
from django.utils import timezone

from apps.mcp import confirmacion
from apps.mcp.credenciales import Identidad
from apps.mcp.models import ConfirmacionUsada
from tests.factories import UserFactory
from tests.mcp.conftest import ajustar, llamar
from tests.mcp.factories import nuevo_token

pytestmark = pytest.mark.django_db

CACHE_MUERTA = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def _previa(client, cabeceras, nombre="Comité de prueba", **extra) -> str:
    r = llamar(client, "prueba_grupo", {"nombre": nombre, **extra}, **cabeceras)
    assert r.resultado["isError"] is False, r.estructura
    return r.estructura["token_confirmacion"]


def _confirmar(client, cabeceras, token, nombre="Comité de prueba", **extra):
    argumentos = {"nombre": nombre, "confirmar": True, "token_confirmacion": token, **extra}
    return llamar(client, "prueba_grupo", argumentos, **cabeceras)


def _codigo(r) -> str:
    assert r.resultado["isError"] is True
    return r.estructura["codigo"]


def _grupos(nombre="Comité de prueba") -> int:
    return Group.objects.filter(name=nombre).count()


def test_step_one_returns_a_preview_and_a_token_and_writes_nothing(
    client, como_completo, herramientas_prueba
):
    r = llamar(client, "prueba_grupo", {"nombre": "Comité de prueba"}, **como_completo)
    datos = r.estructura
    assert r.resultado["isError"] is False
    assert datos["nombre"] == "Comité de prueba"
    assert datos["requiere_confirmacion"] is True
    assert isinstance(datos["token_confirmacion"], str) and len(datos["token_confirmacion"]) <= 600
    assert len(datos["vence_en"]) == 16
    assert "confirmar=true" in r.resultado["content"][0]["text"]
    jsonschema.validate(datos, herramientas_prueba["prueba_grupo"].esquema_salida)
    assert _grupos() == 0
    assert ConfirmacionUsada.objects.count() == 0


def test_step_two_writes_once_and_answers_the_result(client, como_completo, herramientas_prueba):
    token = _previa(client, como_completo)
    r = _confirmar(client, como_completo, token)
    assert r.resultado["isError"] is False
    datos = r.estructura
    assert datos == {
        "grupo_id": Group.objects.get(name="Comité de prueba").pk,
        "nombre": "Comité de prueba",
    }
    jsonschema.validate(datos, herramientas_prueba["prueba_grupo"].esquema_salida)
    assert _grupos() == 1


def test_a_reused_token_writes_nothing(client, como_completo, herramientas_prueba):
    token = _previa(client, como_completo)
    _confirmar(client, como_completo, token)
    r = _confirmar(client, como_completo, token)
    assert _codigo(r) == "CONFIRMACION_USADA"
    assert _grupos() == 1


@pytest.mark.parametrize(
    ("al_emitir", "al_confirmar"),
    [(60, 60), (60, 3600), (600, 60)],
    # A validity changed between the steps: a longer one does not extend an issued token (its
    # used row may then be deleted at its expiry), a shorter one shortens it.
    ids=["same validity", "longer validity set later", "shorter validity set later"],
)
def test_an_expired_token_is_confirmacion_vencida(
    client, como_completo, herramientas_prueba, monkeypatch, al_emitir, al_confirmar
):
    ajustar(confirmacion_segundos=al_emitir)
    token = _previa(client, como_completo)
    ajustar(confirmacion_segundos=al_confirmar)
    ahora = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: ahora + 61)
    assert _codigo(_confirmar(client, como_completo, token)) == "CONFIRMACION_VENCIDA"
    assert _grupos() == 0


def test_a_token_within_its_validity_still_works(
    client, como_completo, herramientas_prueba, monkeypatch
):
    ajustar(confirmacion_segundos=60)
    token = _previa(client, como_completo)
    ahora = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: ahora + 50)
    assert _confirmar(client, como_completo, token).resultado["isError"] is False


def _con_carga(token: str, carga: dict) -> str:
    """The same timestamp and signature around another payload."""
    _, marca, firma = token.rsplit(":", 2)
    nueva = signing.b64_encode(signing.JSONSerializer().dumps(carga)).decode()
    return f"{nueva}:{marca}:{firma}"


@pytest.mark.parametrize("cambio", ["firma", "carga", "basura", "otra_sal"])
def test_a_tampered_token_is_confirmacion_invalida(
    client, como_completo, herramientas_prueba, cambio
):
    token = _previa(client, como_completo)
    carga = signing.loads(token, salt=confirmacion.SAL)
    alterados = {
        "firma": token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        "carga": _con_carga(token, {**carga, "u": "0" * len(carga["u"])}),
        "basura": "no-es-un-token",
        "otra_sal": signing.dumps(carga, salt="apps.mcp.otra"),
    }
    assert _codigo(_confirmar(client, como_completo, alterados[cambio])) == "CONFIRMACION_INVALIDA"
    assert _grupos() == 0


def test_the_token_shows_no_internal_ids(client, completo, como_completo, herramientas_prueba):
    token = _previa(client, como_completo)
    assert len(token) <= 600
    # Anyone can read a signed value: base64 of JSON, before the timestamp and the signature.
    carga = json.loads(signing.b64_decode(token.split(":")[0].encode()))
    credencial = completo.tokens_mcp.get()
    internos = {completo.pk, str(completo.pk), credencial.pk, f"t{credencial.pk}"}
    assert not internos & {v for v in carga.values() if isinstance(v, int | str)}
    # Who and with which credential travel as keyed digests, the same length for any id.
    assert len(carga["u"]) == len(carga["c"]) == 32


def test_a_used_token_is_kept_until_it_expires(client, como_completo, herramientas_prueba):
    ajustar(confirmacion_segundos=120)
    antes = timezone.now()
    _confirmar(client, como_completo, _previa(client, como_completo))
    usada = ConfirmacionUsada.objects.get()
    # Kept exactly as long as the token could still be presented: then it may be deleted.
    assert antes + timedelta(seconds=119) <= usada.vence <= timezone.now() + timedelta(seconds=120)


def test_a_signed_token_without_the_expected_payload_is_invalida(
    client, como_completo, herramientas_prueba
):
    token = signing.dumps({"j": "x"}, salt=confirmacion.SAL)
    assert _codigo(_confirmar(client, como_completo, token)) == "CONFIRMACION_INVALIDA"


def test_another_persons_token_is_confirmacion_ajena(
    client, clave, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    otra = UserFactory(permisos=["mcp.asistente.usar", "auth.add_group"])
    _, secreto = nuevo_token(otra)
    r = _confirmar(client, {**clave, "X-MCP-User-Token": secreto}, token)
    assert _codigo(r) == "CONFIRMACION_AJENA"
    assert _grupos() == 0


def test_a_token_from_another_valid_credential_of_the_same_person_is_ajena(
    client, clave, completo, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    _, otro = nuevo_token(completo)
    assert _codigo(_confirmar(client, {**clave, "X-MCP-User-Token": otro}, token)) == (
        "CONFIRMACION_AJENA"
    )
    assert _grupos() == 0


def test_a_confirmation_after_the_step_one_token_was_revoked_is_sesion_expirada(
    client, clave, completo, herramientas_prueba
):
    primero, secreto = nuevo_token(completo)
    token = _previa(client, {**clave, "X-MCP-User-Token": secreto})
    primero.revocado_en = primero.creado
    primero.save()
    _, nuevo = nuevo_token(completo)
    r = _confirmar(client, {**clave, "X-MCP-User-Token": nuevo}, token)
    assert _codigo(r) == "SESION_EXPIRADA"
    assert _grupos() == 0


def test_other_arguments_are_confirmacion_no_coincide(client, como_completo, herramientas_prueba):
    token = _previa(client, como_completo)
    r = _confirmar(client, como_completo, token, nombre="Otro comité")
    assert _codigo(r) == "CONFIRMACION_NO_COINCIDE"
    assert _grupos("Otro comité") == 0


def test_a_token_for_another_tool_is_confirmacion_no_coincide(
    client, completo, como_completo, herramientas_prueba
):
    token_personal = completo.tokens_mcp.get()
    identidad = Identidad(usuario=completo, clave=None, token=token_personal, ip="127.0.0.1")
    token = confirmacion.emitir(
        identidad, "otra_herramienta", {"nombre": "Comité de prueba", "fallar": False}, segundos=60
    )
    assert _codigo(_confirmar(client, como_completo, token)) == "CONFIRMACION_NO_COINCIDE"


def test_defaults_are_part_of_the_digest_so_explicit_defaults_still_match(
    client, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    assert _confirmar(client, como_completo, token, fallar=False).resultado["isError"] is False


def test_confirmar_without_token_is_datos_invalidos(client, como_completo, herramientas_prueba):
    r = llamar(
        client, "prueba_grupo", {"nombre": "Comité de prueba", "confirmar": True}, **como_completo
    )
    assert _codigo(r) == "DATOS_INVALIDOS"
    assert set(r.estructura["campos"]) == {"token_confirmacion"}
    assert _grupos() == 0


def test_a_token_without_confirmar_is_datos_invalidos(client, como_completo, herramientas_prueba):
    token = _previa(client, como_completo)
    r = llamar(
        client,
        "prueba_grupo",
        {"nombre": "Comité de prueba", "token_confirmacion": token},
        **como_completo,
    )
    assert _codigo(r) == "DATOS_INVALIDOS"
    assert _grupos() == 0


def test_a_token_longer_than_600_characters_is_datos_invalidos(
    client, como_completo, herramientas_prueba
):
    r = _confirmar(client, como_completo, "a" * 601)
    assert _codigo(r) == "DATOS_INVALIDOS"
    assert set(r.estructura["campos"]) == {"token_confirmacion"}


def test_a_failure_after_writing_leaves_nothing_written_and_the_token_unspent(
    client, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo, fallar=True)
    r = _confirmar(client, como_completo, token, fallar=True)
    assert _codigo(r) == "NO_ENCONTRADO"
    assert _grupos() == 0
    assert ConfirmacionUsada.objects.count() == 0


def test_access_is_checked_again_at_confirmation(
    client, completo, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    completo.user_permissions.remove(*completo.user_permissions.filter(codename="add_group"))
    assert _codigo(_confirmar(client, como_completo, token)) == "SIN_PERMISO"
    assert _grupos() == 0


def test_writes_disabled_between_the_steps_stop_the_write(
    client, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    ajustar(escrituras_habilitadas=False)
    assert _codigo(_confirmar(client, como_completo, token)) == "ESCRITURA_DESHABILITADA"
    assert _grupos() == 0


def test_more_than_the_confirmed_writes_per_minute_is_rate_limit(
    client, como_completo, herramientas_prueba
):
    ajustar(escrituras_por_minuto=2)
    for i in range(2):
        nombre = f"Grupo {i}"
        r = _confirmar(client, como_completo, _previa(client, como_completo, nombre), nombre)
        assert r.resultado["isError"] is False
    token = _previa(client, como_completo, "Grupo 3")
    r = _confirmar(client, como_completo, token, "Grupo 3")
    assert _codigo(r) == "RATE_LIMIT"
    assert r.estructura["reintentar_en"] >= 1
    assert _grupos("Grupo 3") == 0
    # The refused token was not spent: it can be retried once the window passes.
    assert not ConfirmacionUsada.objects.filter(
        jti=signing.loads(token, salt=confirmacion.SAL)["j"]
    ).exists()


def test_previews_do_not_count_against_the_write_limit(client, como_completo, herramientas_prueba):
    ajustar(escrituras_por_minuto=1)
    for _ in range(3):
        _previa(client, como_completo)
    assert (
        _confirmar(client, como_completo, _previa(client, como_completo)).resultado["isError"]
        is False
    )


@override_settings(CACHES=CACHE_MUERTA)
def test_with_the_cache_down_a_confirmed_write_fails_closed(
    client, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    r = _confirmar(client, como_completo, token)
    assert r.status == 200
    assert _codigo(r) == "SERVICIO_NO_DISPONIBLE"
    assert _grupos() == 0


def test_a_token_spent_on_another_host_is_refused_here(
    client, completo, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    carga = signing.loads(token, salt=confirmacion.SAL)
    # Another host spent it: only the shared database knows.
    ConfirmacionUsada.objects.create(
        jti=carga["j"],
        herramienta="prueba_grupo",
        usuario=completo,
        vence=timezone.now() + timedelta(minutes=5),
    )
    assert _codigo(_confirmar(client, como_completo, token)) == "CONFIRMACION_USADA"
    assert _grupos() == 0
