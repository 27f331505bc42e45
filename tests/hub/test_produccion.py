"""The production profile from outside: `check --deploy` passes with it and fails loudly with a weak
key; logs default to JSON there; a real gunicorn writes nothing but JSON lines."""

from __future__ import annotations

import json
import re
import secrets
import signal
import subprocess
import sys
import time

import httpx
import pytest

from tests.procesos import PRODUCCION_README, RAIZ, entorno, manage, puerto_libre

SECRETO_FUERTE = secrets.token_urlsafe(60)


def _ejecutar(args: list[str], tmp_path, **env: str | None) -> subprocess.CompletedProcess:
    """Run Python in a clean environment; a variable given as None is left out."""
    variables = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "hub.settings",
        "SECRET_KEY": SECRETO_FUERTE,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        **env,
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=RAIZ,
        env={k: v for k, v in variables.items() if v is not None},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _check_deploy(tmp_path, **env: str | None) -> subprocess.CompletedProcess:
    """check --deploy with the README's production variables; None removes one."""
    argumentos = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    return _ejecutar(argumentos, tmp_path, **{**PRODUCCION_README, **env})


def test_check_deploy_passes_with_a_strong_key(tmp_path):
    r = _check_deploy(tmp_path, SECRET_KEY=SECRETO_FUERTE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "System check identified no issues (0 silenced)."


@pytest.mark.parametrize(
    "secreto",
    [
        None,
        "",
        "corta-de-treinta-caracteres-xx",
        "a" * 64,
        "abcd" * 16,
        "django-insecure-" + "x1y2z3w4" * 6,
    ],
    ids=["missing", "empty", "short", "one character", "four characters", "django-insecure"],
)
def test_a_missing_or_weak_key_stops_the_production_profile(tmp_path, secreto):
    r = _check_deploy(tmp_path, SECRET_KEY=secreto)
    assert r.returncode != 0
    assert "ImproperlyConfigured: HUB_PRODUCCION necesita una SECRET_KEY fuerte" in r.stderr


def test_production_without_mail_stops_before_check_deploy(tmp_path):
    r = _check_deploy(tmp_path, EMAIL_URL=None)
    assert r.returncode != 0
    assert "HUB_PRODUCCION necesita un servidor de correo que entregue" in r.stderr


def test_mail_configured_one_variable_at_a_time_is_accepted(tmp_path):
    r = _check_deploy(
        tmp_path,
        EMAIL_URL=None,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="smtp.entidad.gov.co",
    )
    assert r.returncode == 0, r.stderr


def test_production_without_redis_is_reported_limits_hold_per_host_only(tmp_path):
    r = _check_deploy(tmp_path, REDIS_URL=None)
    assert r.returncode != 0  # --fail-level WARNING
    assert "hub.W001" in r.stderr and "solo entre los procesos de este servidor" in r.stderr


def _formatter(tmp_path, **env: str) -> str:
    r = _ejecutar(
        [
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.LOGGING['handlers']['console']['formatter'])",
        ],
        tmp_path,
        **env,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_logs_are_json_in_production_and_text_in_development_unless_chosen(tmp_path):
    assert _formatter(tmp_path) == "texto"
    assert _formatter(tmp_path, HUB_LOG_FORMATO="json") == "json"
    produccion = {
        "HUB_PRODUCCION": "true",
        "HUB_URL_PUBLICA": "https://hub.entidad.gov.co",
        "EMAIL_URL": PRODUCCION_README["EMAIL_URL"],
    }
    assert _formatter(tmp_path, **produccion) == "json"
    produccion_texto = produccion
    assert _formatter(tmp_path, HUB_LOG_FORMATO="texto", **produccion_texto) == "texto"


def test_an_unknown_log_format_stops_start_up(tmp_path):
    r = _ejecutar(["-c", "import hub.settings"], tmp_path, HUB_LOG_FORMATO="xml")
    assert r.returncode != 0
    assert "HUB_LOG_FORMATO='xml': use json o texto." in r.stderr


def test_a_log_line_of_the_configured_process_is_one_json_object(tmp_path):
    r = _ejecutar(
        [
            "-c",
            "import django, logging; django.setup(); "
            "logging.getLogger('apps.prueba').warning('hola %s', 'mundo', extra={'n': 1})",
        ],
        tmp_path,
        HUB_LOG_FORMATO="json",
    )
    (linea,) = r.stderr.splitlines()
    objeto = json.loads(linea)
    assert {k: objeto[k] for k in ("level", "logger", "message", "n")} == {
        "level": "WARNING",
        "logger": "apps.prueba",
        "message": "hola mundo",
        "n": 1,
    }


@pytest.mark.procesos
def test_gunicorn_with_json_logs_writes_only_json_lines_and_one_access_line(tmp_path):
    env = entorno(tmp_path)
    manage(env, "migrate", "--noinput")
    puerto = puerto_libre()
    env.update(
        HUB_LOG_FORMATO="json",
        HUB_BIND=f"127.0.0.1:{puerto}",
        WEB_CONCURRENCY="1",
        HUB_PROXIES_CONFIABLES="127.0.0.1",
    )
    salida = (tmp_path / "stdout.log").open("w+")
    errores = (tmp_path / "stderr.log").open("w+")
    proceso = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "hub.wsgi"],
        cwd=RAIZ,
        env=env,
        stdout=salida,
        stderr=errores,
    )
    try:
        base = f"http://127.0.0.1:{puerto}"
        limite = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/salud/", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < limite, "gunicorn did not start"
                time.sleep(0.3)
        r = httpx.get(
            f"{base}/auth/api/v1/ping?token=sgimcp_no-debe-salir",
            headers={"X-Request-ID": "prueba-de-humo-0001", "X-Forwarded-For": "198.51.100.7"},
            timeout=10,
        )
        assert r.status_code == 200
        propio = r.headers["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", propio)  # ours, not the one sent
    finally:
        proceso.send_signal(signal.SIGTERM)
        proceso.wait(timeout=60)
    salida.seek(0)
    errores.seek(0)
    lineas = [linea for linea in (salida.read() + errores.read()).splitlines() if linea.strip()]
    objetos = [json.loads(linea) for linea in lineas]  # every line: one JSON object
    assert any(o["logger"] == "gunicorn.error" for o in objetos)
    accesos = [o for o in objetos if o.get("request_id") == propio]
    assert [
        (o["logger"], o["path"], o["status"], o["ip"], o["request_id_recibido"]) for o in accesos
    ] == [("hub.acceso", "/auth/api/v1/ping", 200, "198.51.100.7", "prueba-de-humo-0001")]
    assert all("no-debe-salir" not in linea for linea in lineas)
