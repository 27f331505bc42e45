"""Verifying a filer by e-mail (estado_solicitud without a user)."""

from __future__ import annotations

import pytest

from apps.solicitudes import selectors
from apps.solicitudes.models import Solicitud

pytestmark = pytest.mark.django_db


def test_an_outside_filers_email_matches_ignoring_case_and_spaces(flujo):
    s = flujo.radicar(nombre_solicitante="María López", correo_solicitante="Maria.Lopez@Correo.com")
    assert s.correo_verificacion == "Maria.Lopez@Correo.com"
    assert list(Solicitud.objects.con_correo_solicitante(" maria.lopez@correo.COM ")) == [s]
    assert selectors.solicitud_publica(s.numero_radicado, "maria.lopez@correo.com") == s


def test_an_internal_filer_is_verified_with_their_user_email(flujo):
    s = flujo.radicar()
    assert s.correo_verificacion == "ana.perez@entidad.gov.co"
    assert list(Solicitud.objects.con_correo_solicitante("ANA.PEREZ@entidad.gov.co")) == [s]
    assert selectors.solicitud_publica(s.numero_radicado, "ana.perez@entidad.gov.co") == s


@pytest.mark.parametrize("correo", ["otra@correo.com", "", "   ", "ana.perez@entidad.gov"])
def test_a_wrong_or_empty_email_finds_nothing(flujo, correo):
    s = flujo.radicar()
    assert selectors.solicitud_publica(s.numero_radicado, correo) is None


def test_a_user_without_email_never_matches_an_empty_email(flujo):
    flujo.solicitante.email = ""
    flujo.solicitante.save()
    s = flujo.radicar()
    assert Solicitud.objects.con_correo_solicitante("").count() == 0
    assert selectors.solicitud_publica(s.numero_radicado, "") is None


def test_the_right_email_with_a_wrong_number_finds_nothing(flujo):
    flujo.radicar()
    assert selectors.solicitud_publica("SOL-1999-000001", "ana.perez@entidad.gov.co") is None
