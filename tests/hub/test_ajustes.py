from __future__ import annotations

import subprocess
import sys

import pytest


def _settings_con(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import hub.settings"],
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "hub.settings", **env},
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
    resultado = _settings_con(HUB_PRODUCCION="true")
    assert resultado.returncode != 0
    assert "SECRET_KEY" in resultado.stderr


def test_good_values_load():
    assert (
        _settings_con(DEBUG="false", HUB_PROXIES_CONFIABLES="127.0.0.1,10.0.0.0/8").returncode == 0
    )


def test_check_deploy_passes_with_the_production_variables_of_the_readme(tmp_path):
    import secrets
    from pathlib import Path

    raiz = Path(__file__).resolve().parents[2]
    resultado = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=raiz,
        env={
            "PATH": "/usr/bin:/bin",
            "HUB_PRODUCCION": "true",
            "SECRET_KEY": secrets.token_urlsafe(60),
            "ALLOWED_HOSTS": "hub.entidad.gov.co",
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
