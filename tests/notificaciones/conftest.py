"""Fixtures of the contact form tests."""

from __future__ import annotations

import json

import pytest

from hub.models import Limites
from tests.notificaciones.ayudas import URL
from tests.notificaciones.factories import SitioContactoFactory


@pytest.fixture
def enviar(client):
    """POST a message as JSON: enviar(datos, ip="...", **extra)."""

    def _enviar(datos, *, ip: str = "203.0.113.10", **extra):
        return client.post(
            URL,
            json.dumps(datos),
            content_type="application/json",
            REMOTE_ADDR=ip,
            **extra,
        )

    return _enviar


@pytest.fixture
def portal(db):
    return SitioContactoFactory(
        codigo="portal", nombre="Portal web institucional", correo_destino="contacto@entidad.gov.co"
    )


@pytest.fixture
def sede(db):
    return SitioContactoFactory(
        codigo="sede", nombre="Sede electrónica", correo_destino="sede@entidad.gov.co"
    )


@pytest.fixture(autouse=True)
def _limites(db):
    """The limits row exists, as in any running installation (its creation has its own hooks)."""
    Limites.cargar()
