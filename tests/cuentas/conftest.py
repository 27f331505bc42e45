"""Camila, a person who signs in; with assistant access, signed in (fresh assistant settings:
tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory


@pytest.fixture
def persona():
    return UserFactory(username="camila", permisos=["mcp.asistente.usar"])


@pytest.fixture
def navegante(client, persona):
    client.force_login(persona)
    return client


@pytest.fixture
def camila():
    """A person with no permission, who signs in with the factory's password."""
    return UserFactory(username="camila")
