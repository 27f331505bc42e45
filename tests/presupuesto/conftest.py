"""Fixtures of the budget tests."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory


@pytest.fixture
def admin_client(client):
    """A superuser of the hub (made by the factory), logged in to the admin."""
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client
