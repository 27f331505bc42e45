"""Two-step writes (docs/decisiones/asistente.md), proved with a write tool only the tests have."""

from __future__ import annotations

import base64
import json
import string
import struct
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from django.contrib.auth.models import Group
from django.core import signing
from django.test import override_settings
from django.utils import timezone

from apps.cuentas.models import User
from apps.mcp import confirmacion
from apps.mcp.credenciales import Identidad
from apps.mcp.models import ClaveApi, ConfirmacionUsada, TokenPersonal
from hub.herramientas.registro import ErrorHerramienta
from tests.caches import CACHE_MUERTA
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token
from tests.mcp_cliente import ajustar, cumple_esquema, llamar

pytestmark = pytest.mark.django_db


def _previa(client, cabeceras, nombre="Comité de prueba", **extra) -> str:
    r = llamar(client, "prueba_grupo", {"nombre": nombre, **extra}, **cabeceras)
    assert r.resultado["isError"] is False, r.estructura
    return r.estructura["token_confirmacion"]


def _confirmar(client, cabeceras, token, nombre="Comité de prueba", **extra):
    argumentos = {"nombre": nombre, "confirmar": True, "token_confirmacion": token, **extra}
    return llamar(client, "prueba_grupo", argumentos, **cabeceras)


# The largest id a BigAutoField holds: the longest a user or a credential id can be.
ID_MAS_LARGO = 2**63 - 1
ALFABETO = string.ascii_letters + string.digits + "-_"
ARGUMENTOS = {"nombre": "Comité de prueba", "fallar": False}  # as validated (default included)


def _crudo(token: str) -> bytes:
    """The token's base64 decoding, as anyone can do it."""
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def _identidad(usuario) -> Identidad:
    return Identidad(usuario=usuario, clave=None, token=usuario.tokens_mcp.get(), ip="127.0.0.1")


def _codigo_de(token: str, identidad: Identidad, datos=ARGUMENTOS, segundos: int = 300) -> str:
    with pytest.raises(ErrorHerramienta) as error:
        confirmacion.verificar(token, identidad, "prueba_grupo", dict(datos), segundos)
    return error.value.codigo


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
    cumple_esquema(datos, herramientas_prueba["prueba_grupo"].esquema_salida)
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
    cumple_esquema(datos, herramientas_prueba["prueba_grupo"].esquema_salida)
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
    monkeypatch.setattr(confirmacion.time, "time", lambda: ahora + 61)
    assert _codigo(_confirmar(client, como_completo, token)) == "CONFIRMACION_VENCIDA"
    assert _grupos() == 0


def test_a_token_within_its_validity_still_works(
    client, como_completo, herramientas_prueba, monkeypatch
):
    ajustar(confirmacion_segundos=60)
    token = _previa(client, como_completo)
    ahora = time.time()
    monkeypatch.setattr(confirmacion.time, "time", lambda: ahora + 50)
    assert _confirmar(client, como_completo, token).resultado["isError"] is False


@pytest.mark.parametrize("cambio", ["recortado", "extendido", "basura", "otra_clave", "firmado"])
def test_a_tampered_token_is_confirmacion_invalida(
    client, como_completo, herramientas_prueba, cambio
):
    token = _previa(client, como_completo)
    carga = confirmacion.descifrar(token)
    alterados = {
        "recortado": token[:-1],
        "extendido": token + "A",
        "basura": "no-es-un-token",
        # The same payload sealed with a key that is not the server's.
        "otra_clave": Fernet(Fernet.generate_key()).encrypt(json.dumps(carga).encode()).decode(),
        # A token of the former format (signed, readable): refused, a new preview is needed.
        "firmado": signing.dumps(carga, salt="apps.mcp.confirmacion.v1"),
    }
    assert _codigo(_confirmar(client, como_completo, alterados[cambio])) == "CONFIRMACION_INVALIDA"
    assert _grupos() == 0


def test_changing_any_single_character_of_the_token_is_confirmacion_invalida(
    client, completo, como_completo, herramientas_prueba
):
    token = _previa(client, como_completo)
    identidad = _identidad(completo)
    assert confirmacion.verificar(token, identidad, "prueba_grupo", dict(ARGUMENTOS), 300)
    for i, original in enumerate(token):
        # Every other base64 character, and the ones a lenient decoder would take for the same
        # bits ("+" for "-", "/" for "_", padding).
        for otro in set(ALFABETO + "+/=") - {original}:
            alterado = token[:i] + otro + token[i + 1 :]
            assert _codigo_de(alterado, identidad) == "CONFIRMACION_INVALIDA", (i, otro)
    assert _codigo_de(token + "=", identidad) == "CONFIRMACION_INVALIDA"


@pytest.fixture
def ids_largos(clave):
    """A person and a personal token with the longest ids there can be, and their headers."""
    persona = UserFactory(
        id=ID_MAS_LARGO, username="ids_largos", permisos=["mcp.asistente.usar", "auth.add_group"]
    )
    token, secreto = nuevo_token(persona)
    TokenPersonal.objects.filter(pk=token.pk).update(id=ID_MAS_LARGO - 1)
    return persona, {**clave, "X-MCP-User-Token": secreto}


def test_nothing_in_the_token_is_readable_without_the_servers_key(
    client, ids_largos, herramientas_prueba
):
    persona, cabeceras = ids_largos
    antes = int(time.time())
    token = _previa(client, cabeceras)
    despues = int(time.time())
    assert len(token) <= 600
    # The server reads what it carries...
    carga = confirmacion.descifrar(token)
    assert carga["u"] == persona.pk
    assert carga["c"] == f"t{ID_MAS_LARGO - 1}"
    assert carga["h"] == "prueba_grupo"
    assert carga["d"] == confirmacion.huella_argumentos(ARGUMENTOS)
    # ...and nobody else: neither in the token nor in its base64 decoding, as text or binary.
    crudo = _crudo(token)
    partes = [
        "prueba_grupo",
        "Comité de prueba",
        str(persona.pk),
        f"t{ID_MAS_LARGO - 1}",
        str(ID_MAS_LARGO - 1),
        carga["j"],
        carga["d"],
    ]
    for parte in partes:
        assert parte not in token
        assert parte.encode() not in crudo
    for binario in (bytes.fromhex(carga["j"]), bytes.fromhex(carga["d"])):
        assert binario not in crudo
    for segundo in range(antes - 1, despues + 2):  # not even when it was issued
        assert str(segundo).encode() not in crudo
        assert struct.pack(">Q", segundo) not in crudo
    for campo in ("j", "u", "c", "h", "d", "e", "v"):  # no JSON either
        assert f'"{campo}":'.encode() not in crudo


def test_the_longest_token_there_can_be_fits_in_600_characters():
    persona = User(pk=ID_MAS_LARGO)
    identidad = Identidad(
        usuario=persona,
        clave=ClaveApi(pk=ID_MAS_LARGO),
        token=TokenPersonal(pk=ID_MAS_LARGO, usuario=persona),
        ip="2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
    )
    # The longest tool name the used-token table holds, the longest validity, long arguments.
    nombre = "h" * confirmacion.LARGO_HERRAMIENTA
    datos = {"texto": "ñ" * 5000, "lista": list(range(500))}
    token = confirmacion.emitir(identidad, nombre, datos, segundos=3600)
    assert len(token) <= confirmacion.LARGO_MAXIMO == 600
    assert confirmacion.verificar(token, identidad, nombre, datos, 3600)["h"] == nombre
    with pytest.raises(ValueError):
        confirmacion.emitir(identidad, nombre + "h", datos, segundos=3600)


def test_a_token_issued_before_a_key_rotation_still_confirms(completo, como_completo):
    identidad = _identidad(completo)
    with override_settings(SECRET_KEY="v" * 50):
        token = confirmacion.emitir(identidad, "prueba_grupo", ARGUMENTOS, segundos=300)
    with override_settings(SECRET_KEY="n" * 50, SECRET_KEY_FALLBACKS=["v" * 50]):
        assert confirmacion.verificar(token, identidad, "prueba_grupo", dict(ARGUMENTOS), 300)
    with override_settings(SECRET_KEY="n" * 50, SECRET_KEY_FALLBACKS=[]):
        assert _codigo_de(token, identidad) == "CONFIRMACION_INVALIDA"


def test_former_keys_come_from_the_environment(tmp_path):
    programa = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.SECRET_KEY_FALLBACKS)"
    )
    entorno = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "hub.settings",
        "SECRET_KEY": "n" * 25 + "m" * 25,
        "SECRET_KEY_FALLBACKS": "vieja-" + "v" * 50 + ",otra-" + "o" * 50,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}",
    }
    salida = subprocess.run(
        [sys.executable, "-c", programa],
        cwd=Path(__file__).resolve().parents[2],
        env=entorno,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert salida.strip() == str(["vieja-" + "v" * 50, "otra-" + "o" * 50])


def test_a_used_token_is_kept_until_it_expires(client, como_completo, herramientas_prueba):
    ajustar(confirmacion_segundos=120)
    antes = timezone.now()
    _confirmar(client, como_completo, _previa(client, como_completo))
    usada = ConfirmacionUsada.objects.get()
    # Kept exactly as long as the token could still be presented: then it may be deleted.
    assert antes + timedelta(seconds=119) <= usada.vence <= timezone.now() + timedelta(seconds=120)


def test_a_sealed_token_without_the_expected_payload_is_invalida(
    client, como_completo, herramientas_prueba
):
    for carga in ({"j": "x"}, ["no", "un", "objeto"], "texto"):
        token = confirmacion.cifrar(carga)
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
    assert not ConfirmacionUsada.objects.filter(jti=confirmacion.descifrar(token)["j"]).exists()


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
    carga = confirmacion.descifrar(token)
    # Another host spent it: only the shared database knows.
    ConfirmacionUsada.objects.create(
        jti=carga["j"],
        herramienta="prueba_grupo",
        usuario=completo,
        vence=timezone.now() + timedelta(minutes=5),
    )
    assert _codigo(_confirmar(client, como_completo, token)) == "CONFIRMACION_USADA"
    assert _grupos() == 0
