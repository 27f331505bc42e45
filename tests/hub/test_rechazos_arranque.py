"""Start-up refusals, read by the operator: under HUB_PRODUCCION the start stops (non-zero exit, a
Spanish message naming the variable) without mail that is delivered, with DEBUG on, or with a
public address that is not https; every refusal, old and new, is Spanish. And no mail backend
prints a message's personal data to the log, in any mode."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.procesos import PRODUCCION_README, RAIZ, manage

SECRETO = secrets.token_urlsafe(60)


def _settings_con(tmp_path: Path, **env: str | None) -> subprocess.CompletedProcess:
    """`import hub.settings` in a clean environment; a variable given as None is left out."""
    variables = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "hub.settings",
        "SECRET_KEY": SECRETO,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'arranque.sqlite3'}",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", "import hub.settings"],
        cwd=RAIZ,
        env={k: v for k, v in variables.items() if v is not None},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def _produccion(tmp_path: Path, **env: str | None) -> subprocess.CompletedProcess:
    """The README's production block with these changes."""
    return _settings_con(tmp_path, **{**PRODUCCION_README, **env})


def _detenido(resultado: subprocess.CompletedProcess, mensaje: str) -> None:
    assert resultado.returncode != 0
    assert f"ImproperlyConfigured: {mensaje}" in resultado.stderr, resultado.stderr[-1500:]


def test_the_readme_production_block_starts(tmp_path):
    resultado = _produccion(tmp_path)
    assert resultado.returncode == 0, resultado.stderr


# --- production: mail that is delivered -------------------------------------------------------


def test_production_without_any_mail_setting_stops(tmp_path):
    resultado = _produccion(tmp_path, EMAIL_URL=None)
    _detenido(resultado, "HUB_PRODUCCION necesita un servidor de correo que entregue")
    assert "no hay correo configurado" in resultado.stderr
    assert "EMAIL_URL" in resultado.stderr


@pytest.mark.parametrize(
    "backend",
    [
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.locmem.EmailBackend",
        "django.core.mail.backends.dummy.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
        "hub.operacion.correo.LogSinDatos",
    ],
    ids=["consola", "memoria", "nulo", "archivo", "solo_log"],
)
def test_production_with_a_mail_backend_that_does_not_deliver_stops(tmp_path, backend):
    resultado = _produccion(tmp_path, EMAIL_URL=None, EMAIL_BACKEND=backend)
    _detenido(resultado, "HUB_PRODUCCION necesita un servidor de correo que entregue")
    assert f"EMAIL_BACKEND={backend} no envía" in resultado.stderr


@pytest.mark.parametrize("url", ["consolemail://", "memorymail://", "dummymail://"])
def test_production_with_an_email_url_that_does_not_deliver_stops(tmp_path, url):
    resultado = _produccion(tmp_path, EMAIL_URL=url)
    _detenido(resultado, "HUB_PRODUCCION necesita un servidor de correo que entregue")


def test_production_with_smtp_configured_one_variable_at_a_time_starts(tmp_path):
    resultado = _produccion(
        tmp_path,
        EMAIL_URL=None,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="smtp.entidad.gov.co",
    )
    assert resultado.returncode == 0, resultado.stderr


# --- production: DEBUG and the public address ------------------------------------------------


def test_production_with_debug_on_stops(tmp_path):
    resultado = _produccion(tmp_path, DEBUG="true")
    _detenido(resultado, "HUB_PRODUCCION no admite DEBUG=true")


@pytest.mark.parametrize(
    "url", ["http://hub.entidad.gov.co", "hub.entidad.gov.co", "ftp://hub.entidad.gov.co"]
)
def test_production_with_a_public_address_that_is_not_https_stops(tmp_path, url):
    resultado = _produccion(tmp_path, HUB_URL_PUBLICA=url)
    _detenido(resultado, f"HUB_URL_PUBLICA={url!r} debe empezar por https://")


def test_production_without_a_public_address_stops_in_spanish(tmp_path):
    resultado = _produccion(tmp_path, HUB_URL_PUBLICA=None)
    _detenido(resultado, "HUB_PRODUCCION necesita HUB_URL_PUBLICA")


def test_production_with_a_weak_key_stops_in_spanish(tmp_path):
    resultado = _produccion(tmp_path, SECRET_KEY="corta")
    _detenido(resultado, "HUB_PRODUCCION necesita una SECRET_KEY fuerte")


# --- every mode: the older refusals, now Spanish ---------------------------------------------


@pytest.mark.parametrize(
    ("variables", "mensaje"),
    [
        ({"SECRET_KEY": None}, "Falta SECRET_KEY"),
        ({"DEBUG": "quizas"}, "DEBUG='quizas' no es válido: no es un booleano (use true o false)"),
        (
            {"HUB_MAX_CUERPO": "mucho"},
            "HUB_MAX_CUERPO='mucho' no es válido: no es un número entero",
        ),
        ({"HUB_MAX_CUERPO": "10"}, "HUB_MAX_CUERPO=10 debe ser al menos 1024."),
        ({"HUB_LOG_FORMATO": "xml"}, "HUB_LOG_FORMATO='xml': use json o texto."),
        ({"HUB_PROXIES_CONFIABLES": "1"}, "HUB_PROXIES_CONFIABLES: '1' es un número"),
        (
            {"HUB_PROXIES_CONFIABLES": "dos"},
            "HUB_PROXIES_CONFIABLES: 'dos' no es una dirección IP ni una red",
        ),
        (
            {"HUB_PROXIES_CONFIABLES": "10.0.0.1/8"},
            "HUB_PROXIES_CONFIABLES: '10.0.0.1/8' tiene bits de host: ¿quiso decir 10.0.0.0/8?",
        ),
        (
            {"HUB_PROXIES_CONFIABLES": "0.0.0.0/0"},
            "HUB_PROXIES_CONFIABLES: '0.0.0.0/0' haría confiar en cualquier cliente",
        ),
    ],
    ids=[
        "sin_clave",
        "booleano",
        "entero",
        "minimo",
        "formato_logs",
        "proxies_numero",
        "proxies_texto",
        "proxies_bits",
        "proxies_todos",
    ],
)
def test_a_refusal_in_any_mode_is_spanish(tmp_path, variables, mensaje):
    _detenido(_settings_con(tmp_path, **variables), mensaje)


@pytest.mark.parametrize(
    "variables",
    [
        {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"},
        {"EMAIL_URL": "consolemail://"},
    ],
    ids=["backend", "url"],
)
@pytest.mark.parametrize("debug", ["true", None], ids=["debug", "sin_debug"])
def test_the_console_mail_backend_is_refused_in_every_mode(tmp_path, variables, debug):
    resultado = _settings_con(tmp_path, DEBUG=debug, **variables)
    _detenido(resultado, "El backend de correo de consola escribe cada correo")


def test_a_bad_email_url_stops_in_spanish_without_showing_its_password(tmp_path):
    resultado = _settings_con(tmp_path, EMAIL_URL="smtp://hub:clave-del-buzon@smtp.example:puerto")
    _detenido(resultado, "EMAIL_URL no es válida")
    assert "clave-del-buzon" not in resultado.stderr


def test_gunicorn_conf_refuses_a_bad_proxy_list_in_spanish(tmp_path):
    resultado = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--check-config", "-c", "gunicorn.conf.py", "hub.wsgi"],
        cwd=RAIZ,
        env={
            "PATH": "/usr/bin:/bin",
            "SECRET_KEY": SECRETO,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'arranque.sqlite3'}",
            "HUB_PROXIES_CONFIABLES": "0.0.0.0/0",
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert resultado.returncode != 0
    salida = resultado.stdout + resultado.stderr
    assert "HUB_PROXIES_CONFIABLES: '0.0.0.0/0' haría confiar en cualquier cliente" in salida


# --- no personal data in the log from the mail of development ---------------------------------

NOMBRE = "Ana Pérez Gómez"
CORREO = "ana.perez@correo.example"
CEDULA = "1032456789"
ASUNTO = f"Certificado de la cédula {CEDULA}"
TEXTO = f"Necesito el certificado laboral de la cédula {CEDULA}, por favor."
ENVIAR = f"""
from django.utils import timezone
from apps.notificaciones.models import MensajeContacto, SitioContacto
from apps.notificaciones.services import reenviar_por_correo
sitio = SitioContacto.objects.create(
    codigo="portal", nombre="Portal", correo_destino="buzon@entidad.gov.co"
)
contacto = MensajeContacto.objects.create(
    referencia="REF-PRUEBA", sitio=sitio, nombre={NOMBRE!r}, correo={CORREO!r}, asunto={ASUNTO!r},
    mensaje={TEXTO!r}, ip="203.0.113.9", user_agent="prueba",
    recibido_en=timezone.now(),
)
print("ENVIADO", reenviar_por_correo(contacto))
"""


@pytest.mark.parametrize(
    "modo",
    [{"DEBUG": "true"}, {}, {"DEBUG": "true", "HUB_LOG_FORMATO": "json"}],
    ids=["make_run", "sin_debug", "json"],
)
def test_a_contact_mail_through_the_development_backend_logs_no_personal_data(tmp_path, modo):
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "hub.settings",
        "SECRET_KEY": SECRETO,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'correo.sqlite3'}",
        "HUB_CACHE_DIR": str(tmp_path / "cache"),
        **modo,
    }

    manage(env, "migrate", "--noinput", "-v0")
    resultado = manage(env, "shell", "-c", ENVIAR)
    salida = resultado.stdout + resultado.stderr
    assert "ENVIADO True" in resultado.stdout
    assert "correo no enviado (no hay servidor de correo configurado)" in salida
    assert "1 destinatario" in salida
    for dato in (NOMBRE, "Ana", CORREO, "correo.example", CEDULA, "certificado", "buzon@"):
        assert dato not in salida, salida
