"""Readiness for operators: GET /salud/, `manage.py health_check` and gunicorn.conf.py."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError, connections
from django.test import override_settings

from hub.models import Limites
from hub.observabilidad import salud
from tests.factories import UserFactory
from tests.procesos import entorno, manage

pytestmark = pytest.mark.django_db

RAIZ = Path(__file__).resolve().parent.parent.parent
CONF = RAIZ / "gunicorn.conf.py"

SECRETO = "clave-ultra-secreta-42"
# A dead Redis with the password in its URL: neither may appear in any answer.
CACHE_CAIDA = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://:{SECRETO}@127.0.0.1:1/0",
        "KEY_PREFIX": "salud-caida",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.fixture
def personal(client):
    client.force_login(UserFactory(is_staff=True))
    return client


@pytest.fixture
def base_caida(monkeypatch):
    """The database refuses every new cursor, with a message full of connection details."""
    Limites.cargar()  # the global limit's singleton is in the cache, as in production

    def sin_base(*args, **kwargs):
        raise OperationalError(f'connection to server at "db", port 5432 failed: clave={SECRETO}')

    monkeypatch.setattr(connections["default"], "cursor", sin_base)


# --- the endpoint -------------------------------------------------------------------------


def test_healthy_service_answers_200_pass_as_health_json_never_cached(client):
    r = client.get("/salud/")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/health+json"
    assert r["Cache-Control"] == "no-store"
    assert r.json() == {"status": "pass"}


def test_anonymous_caller_gets_only_the_status(client):
    assert set(client.get("/salud/").json()) == {"status"}


def test_signed_in_non_staff_user_gets_only_the_status(client):
    client.force_login(UserFactory(is_staff=False))
    assert client.get("/salud/").json() == {"status": "pass"}


def test_staff_gets_each_check_with_a_numeric_latency(personal):
    r = personal.get("/salud/")
    assert r.status_code == 200
    cuerpo = r.json()
    assert cuerpo["status"] == "pass"
    assert cuerpo["version"] == "1"
    assert cuerpo["releaseId"] == "1.0.0"
    assert set(cuerpo["checks"]) == {"database:responseTime", "cache:responseTime"}
    for nombre in ("database:responseTime", "cache:responseTime"):
        [check] = cuerpo["checks"][nombre]
        assert check["status"] == "pass"
        assert check["componentType"] == "datastore"
        assert check["observedUnit"] == "ms"
        assert isinstance(check["observedValue"], float)
        assert check["observedValue"] >= 0
        assert isinstance(check["time"], str) and check["time"]
        assert "output" not in check


def test_the_cache_probe_leaves_no_key_behind(client):
    from django.core.cache import cache

    vistas = []
    original = cache.set

    def espiar(clave, *args, **kwargs):
        vistas.append(clave)
        return original(clave, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cache, "set", espiar)
        client.get("/salud/")
    [clave] = [c for c in vistas if c.startswith("salud:")]
    assert cache.get(clave) is None


def test_cache_down_is_503_fail_without_url_or_password(personal):
    with override_settings(CACHES=CACHE_CAIDA):
        r = personal.get("/salud/")
    assert r.status_code == 503
    assert r["Content-Type"] == "application/health+json"
    assert r["Cache-Control"] == "no-store"
    cuerpo = r.json()
    assert cuerpo["status"] == "fail"
    [cache_check] = cuerpo["checks"]["cache:responseTime"]
    assert cache_check["status"] == "fail"
    assert cache_check["output"] == "ConnectionError"
    assert cuerpo["checks"]["database:responseTime"][0]["status"] == "pass"
    texto = r.content.decode()
    assert SECRETO not in texto
    assert "redis://" not in texto
    assert "127.0.0.1" not in texto


def test_cache_down_shows_anonymous_only_fail(client):
    with override_settings(CACHES=CACHE_CAIDA):
        r = client.get("/salud/")
    assert r.status_code == 503
    assert r.json() == {"status": "fail"}


def test_database_down_is_503_fail_naming_only_the_error_class(client, base_caida):
    r = client.get("/salud/")
    assert r.status_code == 503
    assert r.json() == {"status": "fail"}
    assert SECRETO not in r.content.decode()


def test_staff_session_unreadable_with_database_down_counts_as_anonymous(personal, base_caida):
    # The staff session is not readable without the database: the caller counts as anonymous.
    r = personal.get("/salud/")
    assert r.status_code == 503
    assert r.json() == {"status": "fail"}


def test_database_check_detail_names_the_error_class_only(monkeypatch):
    def sin_base(*args, **kwargs):
        raise OperationalError(f"host=db password={SECRETO}")

    monkeypatch.setattr(connections["default"], "cursor", sin_base)
    r = salud.comprobar_base()
    assert (r.estado, r.error) == ("fail", "OperationalError")
    cuerpo = salud.cuerpo([r], detalle=True)
    assert SECRETO not in str(cuerpo)
    assert cuerpo["checks"]["database:responseTime"][0]["output"] == "OperationalError"


def test_a_slow_check_warns_and_still_answers_200(personal, monkeypatch):
    monkeypatch.setattr(salud, "LENTO_MS", -1.0)
    r = personal.get("/salud/")
    assert r.status_code == 200
    cuerpo = r.json()
    assert cuerpo["status"] == "warn"
    assert cuerpo["checks"]["cache:responseTime"][0]["status"] == "warn"


def test_fail_wins_over_warn():
    hecho = {"componente": "x", "tipo": "datastore", "ms": 1.0}
    resultados = [salud.Resultado(estado="warn", **hecho), salud.Resultado(estado="fail", **hecho)]
    assert salud.estado_global(resultados) == "fail"


def test_post_is_405_with_allow(client):
    r = client.post("/salud/")
    assert r.status_code == 405
    assert "GET" in r["Allow"]


def test_it_is_not_under_the_versioned_interface(client):
    assert client.get("/api/salud/").status_code == 404
    assert client.get("/salud/").status_code == 200


# --- the management command --------------------------------------------------------------


def test_command_prints_one_line_per_check_and_returns_on_pass():
    salida = StringIO()
    call_command("health_check", stdout=salida)
    lineas = salida.getvalue().splitlines()
    assert lineas[0].startswith("database: pass ")
    assert lineas[1].startswith("cache: pass ")
    assert lineas[0].endswith(" ms") and lineas[1].endswith(" ms")
    assert lineas[2] == "estado: pass"


def test_command_fails_with_exit_code_1_when_the_cache_is_down():
    salida = StringIO()
    with override_settings(CACHES=CACHE_CAIDA), pytest.raises(CommandError) as exc:
        call_command("health_check", stdout=salida)
    assert exc.value.returncode == 1
    assert "cache: fail" in salida.getvalue()
    assert "(ConnectionError)" in salida.getvalue()
    assert SECRETO not in salida.getvalue() + str(exc.value)


def test_command_fails_with_exit_code_1_when_the_database_is_down(monkeypatch):
    def sin_base(*args, **kwargs):
        raise OperationalError(f"password={SECRETO}")

    monkeypatch.setattr(connections["default"], "cursor", sin_base)
    salida = StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("health_check", stdout=salida)
    assert exc.value.returncode == 1
    assert salida.getvalue().splitlines()[0].startswith("database: fail ")
    assert SECRETO not in salida.getvalue()


def test_manage_py_exits_0_on_pass_and_1_on_fail(tmp_path):
    env = {**entorno(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'salud.sqlite3'}"}
    sano = manage({**env, "REDIS_URL": ""}, "health_check", check=False)
    assert sano.returncode == 0, sano.stderr
    caido = manage(
        {**env, "REDIS_URL": f"redis://:{SECRETO}@127.0.0.1:1/0"}, "health_check", check=False
    )
    assert caido.returncode == 1
    assert "cache: fail" in caido.stdout
    assert SECRETO not in caido.stdout + caido.stderr


# --- gunicorn.conf.py --------------------------------------------------------------------


def _conf(monkeypatch, **env: str) -> dict:
    for nombre in (
        "PORT",
        "HUB_BIND",
        "WEB_CONCURRENCY",
        "FORWARDED_ALLOW_IPS",
        "HUB_PROXIES_CONFIABLES",
        "GUNICORN_MAX_REQUESTS",
    ):
        monkeypatch.delenv(nombre, raising=False)
    for nombre, valor in env.items():
        monkeypatch.setenv(nombre, valor)
    return runpy.run_path(str(CONF))


def test_gunicorn_recycling_is_adjustable(monkeypatch):
    c = _conf(monkeypatch, GUNICORN_MAX_REQUESTS="500")
    assert (c["max_requests"], c["max_requests_jitter"]) == (500, 50)


def test_gunicorn_conf_defaults(monkeypatch):
    c = _conf(monkeypatch)
    assert c["bind"] == ["0.0.0.0:8000"]
    assert c["workers"] == (os.cpu_count() or 1) * 2 + 1
    assert c["worker_class"] == "sync"
    assert (c["timeout"], c["graceful_timeout"], c["keepalive"]) == (30, 30, 5)
    assert (c["max_requests"], c["max_requests_jitter"]) == (20000, 2000)
    assert c["limit_request_line"] == 8190
    assert c["limit_request_fields"] == 100
    assert c["limit_request_field_size"] == 8190
    assert c["accesslog"] == "-"
    # No trusted proxy by default, the same as the hub: nobody sets X-Forwarded-* for gunicorn,
    # not even through a unix socket (gunicorn trusts those whatever forwarded_allow_ips says).
    assert c["forwarded_allow_ips"] == ""
    assert (c["secure_scheme_headers"], c["forwarder_headers"]) == ({}, "")


def test_gunicorn_access_log_never_includes_query_strings_or_referer(monkeypatch):
    formato = _conf(monkeypatch)["access_log_format"]
    assert "%(U)s" in formato
    for atomo in ("%(r)s", "%(q)s", "%(f)s", "{referer}i", "{query_string}e"):
        assert atomo not in formato


def test_gunicorn_conf_reads_port_bind_workers_and_proxies_from_env(monkeypatch):
    assert _conf(monkeypatch, PORT="9000")["bind"] == ["0.0.0.0:9000"]
    c = _conf(
        monkeypatch,
        PORT="9000",
        HUB_BIND="127.0.0.1:7000,unix:/run/hub.sock",
        WEB_CONCURRENCY="3",
        HUB_PROXIES_CONFIABLES="10.0.0.2, 172.16.0.0/12",
    )
    assert c["bind"] == ["127.0.0.1:7000", "unix:/run/hub.sock"]
    assert c["workers"] == 3
    assert c["forwarded_allow_ips"] == "10.0.0.2/32,172.16.0.0/12"
    # gunicorn's own scheme and forwarder headers, from those proxies (and a unix socket's peer).
    assert "secure_scheme_headers" not in c and "forwarder_headers" not in c


def test_gunicorn_trusts_exactly_the_proxies_the_hub_trusts(monkeypatch):
    # An old FORWARDED_ALLOW_IPS that says the same is accepted; one that differs stops the start.
    c = _conf(monkeypatch, HUB_PROXIES_CONFIABLES="127.0.0.1", FORWARDED_ALLOW_IPS="127.0.0.1")
    assert c["forwarded_allow_ips"] == "127.0.0.1/32"
    for otro in ("127.0.0.1,::1", "*", "10.0.0.2"):
        with pytest.raises(SystemExit, match="HUB_PROXIES_CONFIABLES"):
            _conf(monkeypatch, HUB_PROXIES_CONFIABLES="127.0.0.1", FORWARDED_ALLOW_IPS=otro)


@pytest.mark.parametrize("valor", ["1", "10.0.0.1/8", "*"])
def test_gunicorn_conf_refuses_a_bad_proxy_list(monkeypatch, valor):
    with pytest.raises(SystemExit, match="HUB_PROXIES_CONFIABLES"):
        _conf(monkeypatch, HUB_PROXIES_CONFIABLES=valor)


@pytest.mark.parametrize("valor", ["muchos", "0"])
def test_gunicorn_conf_refuses_a_bad_worker_count(monkeypatch, valor):
    with pytest.raises(SystemExit, match="WEB_CONCURRENCY"):
        _conf(monkeypatch, WEB_CONCURRENCY=valor)


def test_gunicorn_check_config_accepts_the_file_and_the_app():
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["DJANGO_SETTINGS_MODULE"] = "hub.settings"
    env.pop("WEB_CONCURRENCY", None)
    r = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--check-config", "-c", str(CONF), "hub.wsgi"],
        cwd=RAIZ,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
