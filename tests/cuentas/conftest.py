"""A person with assistant access, signed in, and fresh assistant settings for every test."""

from __future__ import annotations

import pytest

from apps.mcp.models import AjustesAsistente
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _ajustes_frescos():
    AjustesAsistente.olvidar()
    yield
    AjustesAsistente.olvidar()


@pytest.fixture
def persona():
    return UserFactory(username="camila", permisos=["mcp.asistente.usar"])


@pytest.fixture
def navegante(client, persona):
    client.force_login(persona)
    return client
