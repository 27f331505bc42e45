"""A NUL byte in the username re-renders the sign-in form with its error (PostgreSQL cannot hold
NUL in a query: it was a 500 there), on the people's form and the admin's."""

from __future__ import annotations

import pytest

from apps.cuentas.models import BloqueoIngreso
from tests.cuentas.ingreso import ADMIN, LOGIN, ingresar

pytestmark = pytest.mark.django_db

# Django's own message for it (ProhibitNullCharactersValidator), in Spanish.
NULOS = "Los caracteres nulos no están permitidos."


@pytest.mark.parametrize("ruta", [LOGIN, ADMIN])
def test_a_nul_in_the_username_re_renders_the_form_with_its_error(client, camila, ruta):
    r = ingresar(client, "cami\x00la", "equivocada", ruta)
    assert r.status_code == 200
    formulario = r.context["form"]
    assert formulario.errors["username"] == [NULOS]
    assert NULOS in r.content.decode()
    assert not any(n.startswith("hub_dispositivo_") for n in r.cookies)
    assert not BloqueoIngreso.objects.exists()
