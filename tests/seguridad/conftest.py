"""Fixtures of the security tests."""

from __future__ import annotations

import logging

import pytest

from tests.seguridad import Todo


@pytest.fixture
def todo(caplog):
    """caplog at DEBUG for the root, plus a handler on every named logger."""
    caplog.set_level(logging.DEBUG)
    manejador = Todo()
    nombres = [None, *logging.root.manager.loggerDict]
    anteriores = {}
    for nombre in nombres:
        logger = logging.getLogger(nombre)
        if isinstance(logger, logging.PlaceHolder):
            continue
        anteriores[nombre] = logger.level
        logger.setLevel(logging.DEBUG)
        logger.addHandler(manejador)
    yield manejador, caplog
    for nombre, nivel in anteriores.items():
        logger = logging.getLogger(nombre)
        logger.removeHandler(manejador)
        logger.setLevel(nivel)
