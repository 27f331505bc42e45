"""Budget tests create many people: a fast password hasher keeps them quick."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _hasher_rapido(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
