"""gunicorn.conf.py as read by gunicorn: the application preloaded, the metrics folder handed to
the workers through gunicorn's own environment setting (never written into os.environ here)."""

from __future__ import annotations

import os
import runpy
import tempfile

from tests.procesos import RAIZ

CONF = RAIZ / "gunicorn.conf.py"


def test_the_application_is_loaded_before_forking_and_hooks_are_set():
    c = runpy.run_path(str(CONF))
    assert c["preload_app"] is True
    for gancho in ("on_starting", "pre_fork", "child_exit", "on_exit"):
        assert callable(c[gancho])


def test_without_a_folder_the_master_gets_one_of_its_own(monkeypatch):
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    c = runpy.run_path(str(CONF))
    propia = os.path.join(tempfile.gettempdir(), f"hub-metricas-{os.getpid()}")
    assert c["raw_env"] == [f"PROMETHEUS_MULTIPROC_DIR={propia}"]
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ  # reading the file set nothing


def test_the_operators_folder_is_used_when_set(monkeypatch, tmp_path):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metricas"))
    c = runpy.run_path(str(CONF))
    assert c["raw_env"] == [f"PROMETHEUS_MULTIPROC_DIR={tmp_path / 'metricas'}"]
