from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.procesos import PRODUCCION_README

CLAVE = secrets.token_urlsafe(60)


def _settings_con(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import hub.settings"],
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "hub.settings",
            "SECRET_KEY": CLAVE,
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("variable", "valor"),
    [
        ("DEBUG", "quizas"),
        ("HUB_PROXIES_CONFIABLES", "dos"),
        ("HUB_PROXIES_CONFIABLES", "-1"),
        # The old meaning (how many proxies) must stop the start, not trust address 0.0.0.1.
        ("HUB_PROXIES_CONFIABLES", "1"),
        ("HUB_PROXIES_CONFIABLES", "127.0.0.1,10.0.0.1/8"),
        ("HUB_PROXIES_CONFIABLES", "0.0.0.0/0"),
    ],
)
def test_a_bad_value_stops_start_up_with_a_clear_message(variable, valor):
    resultado = _settings_con(**{variable: valor})
    assert resultado.returncode != 0
    assert "ImproperlyConfigured" in resultado.stderr
    assert variable in resultado.stderr


def test_production_profile_refuses_the_development_secret_key():
    resultado = _settings_con(HUB_PRODUCCION="true", SECRET_KEY="")
    assert resultado.returncode != 0
    assert "SECRET_KEY" in resultado.stderr


def test_without_secret_key_outside_debug_the_start_stops():
    resultado = _settings_con(SECRET_KEY="")
    assert resultado.returncode != 0
    assert "ImproperlyConfigured: Falta SECRET_KEY" in resultado.stderr


def test_with_debug_and_no_key_a_local_random_key_is_kept_out_of_the_repository(tmp_path):
    codigo = "from django.conf import settings; print(settings.SECRET_KEY)"
    entorno = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "hub.settings", "DEBUG": "true"}
    leer = [sys.executable, "-c", f"import django; django.setup(); {codigo}"]
    primera = subprocess.run(leer, env=entorno, capture_output=True, text=True, check=True)
    segunda = subprocess.run(leer, env=entorno, capture_output=True, text=True, check=True)
    clave = primera.stdout.strip()
    assert len(clave) >= 50 and clave == segunda.stdout.strip()  # stable for this checkout
    archivo = Path(__file__).resolve().parents[2] / "var" / "clave_secreta_desarrollo"
    assert archivo.read_text().strip() == clave
    assert archivo.stat().st_mode & 0o077 == 0  # readable by its owner only
    rastreados = subprocess.run(
        ["git", "ls-files", "var"], cwd=archivo.parents[1], capture_output=True, text=True
    ).stdout
    assert "clave_secreta" not in rastreados


def test_production_profile_requires_the_public_address():
    entorno = {**PRODUCCION_README, "HUB_URL_PUBLICA": ""}
    resultado = _settings_con(**entorno)
    assert resultado.returncode != 0
    assert "HUB_URL_PUBLICA" in resultado.stderr


def test_good_values_load():
    assert (
        _settings_con(DEBUG="false", HUB_PROXIES_CONFIABLES="127.0.0.1,10.0.0.0/8").returncode == 0
    )


def test_check_deploy_passes_with_the_production_variables_of_the_readme(tmp_path):
    raiz = Path(__file__).resolve().parents[2]
    resultado = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=raiz,
        env={
            "PATH": "/usr/bin:/bin",
            **PRODUCCION_README,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert resultado.returncode == 0, resultado.stderr
    assert "no issues" in resultado.stdout


def test_demo_data_refuses_to_run_in_production(settings):
    from django.core.management import CommandError, call_command

    settings.HUB_PRODUCCION = True
    with pytest.raises(CommandError, match="HUB_PRODUCCION"):
        call_command("demo_data")
