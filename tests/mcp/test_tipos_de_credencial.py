"""The credential table another app fills at start (apps.mcp.credenciales.registrar): OAuth's
kind joins it from apps.autorizacion, so the assistant imports nothing of OAuth."""

from __future__ import annotations

import dataclasses

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.autorizacion import credencial
from apps.mcp import credenciales


@pytest.fixture
def tabla():
    """The table as start-up left it, put back after the test."""
    antes = list(credenciales.TIPOS)
    yield credenciales.TIPOS
    credenciales.TIPOS[:] = antes
    credenciales.prefijos.cache_clear()


def test_oauth_registers_its_kind_between_the_personal_token_and_the_api_key():
    assert [tipo.nombre for tipo in credenciales.TIPOS] == ["token", "oauth", "clave"]
    assert credenciales.por_nombre(credenciales.NOMBRE_OAUTH) is credencial.OAUTH


def test_the_audit_hides_the_prefixes_of_every_registered_kind():
    assert credenciales.prefijos() == ("sgimcp_", "sgioat_", "sgiort_", "sgiapi_")


def test_registering_the_same_kind_again_leaves_the_table_as_it_was(tabla):
    credenciales.registrar(credencial.OAUTH)
    assert [tipo.nombre for tipo in tabla] == ["token", "oauth", "clave"]


@pytest.mark.parametrize(
    "cambios", [{"letra": "z"}, {"nombre": "otro"}], ids=["same name", "same letter"]
)
def test_a_kind_whose_name_or_letter_is_taken_is_refused_at_start(tabla, cambios):
    repetido = dataclasses.replace(credencial.OAUTH, **cambios)
    with pytest.raises(ImproperlyConfigured):
        credenciales.registrar(repetido)
    assert [tipo.nombre for tipo in tabla] == ["token", "oauth", "clave"]


def test_a_new_kind_goes_before_the_kind_that_takes_any_bearer_value(tabla):
    nuevo = dataclasses.replace(
        credencial.OAUTH, nombre="otro", letra="x", prefijo="sgixx_", bearer="sgixx_"
    )
    credenciales.registrar(nuevo)
    assert [tipo.nombre for tipo in tabla] == ["token", "oauth", "otro", "clave"]
    assert "sgixx_" in credenciales.prefijos()
    assert credenciales.por_nombre("otro") is nuevo


def test_an_unregistered_name_is_a_key_error():
    with pytest.raises(KeyError):
        credenciales.por_nombre("desconocido")
