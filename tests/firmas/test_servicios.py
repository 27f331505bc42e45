from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.calidad.models import Proceso
from apps.firmas import services
from apps.firmas.models import TOKEN_IMPOSIBLE, Firma
from apps.firmas.selectors import resumen_verificacion
from tests.calidad.factories import DocumentoFactory
from tests.factories import UserFactory
from tests.firmas.factories import INSTANTE, firma_anulada, firmar

pytestmark = pytest.mark.django_db


def _total(firma: Firma) -> int:
    return resumen_verificacion(str(firma.token))["total_firmas"]


def test_signing_records_who_with_which_role_and_when_under_a_random_token(area_firmable):
    usuario = UserFactory()
    a = firmar(area_firmable, usuario=usuario)
    b = firmar(area_firmable)
    assert a.token != b.token
    assert a.token.version == 4
    assert (a.firmante, a.rol, a.usuario, a.firmado_en) == (
        "María Fernanda López Rincón",
        "Ordenador del gasto",
        usuario,
        INSTANTE,
    )
    assert a.documento == area_firmable
    assert not a.anulada and a.anulada_en is None


def test_the_signing_time_defaults_to_now(area_firmable):
    antes = timezone.now()
    firma = services.firmar(documento=area_firmable, firmante="Ana", rol="Revisora")
    assert antes <= firma.firmado_en <= timezone.now()


def test_an_object_without_resumen_firma_cannot_be_signed():
    proceso = Proceso.objects.create(sigla="X", nombre="Proceso X")
    with pytest.raises(services.FirmaInvalida):
        services.firmar(documento=proceso, firmante="Ana", rol="Revisora")
    assert not Firma.objects.exists()


def test_an_unsaved_document_cannot_be_signed(firmables):
    from apps.cuentas.models import Area

    with pytest.raises(services.FirmaInvalida):
        services.firmar(documento=Area(nombre="x", sigla="x"), firmante="Ana", rol="Revisora")


@pytest.mark.parametrize(("firmante", "rol"), [("", "Rol"), ("Ana", "  "), ("\u200b", "Rol")])
def test_blank_signer_or_role_is_refused(area_firmable, firmante, rol):
    with pytest.raises(services.FirmaInvalida):
        services.firmar(documento=area_firmable, firmante=firmante, rol=rol)
    assert not Firma.objects.exists()


def test_too_long_texts_are_refused(area_firmable):
    with pytest.raises(services.FirmaInvalida):
        services.firmar(documento=area_firmable, firmante="A" * 201, rol="Rol")


def test_texts_are_cleaned_of_invisible_characters_and_extra_spaces(area_firmable):
    firma = services.firmar(
        documento=area_firmable, firmante=" Ana\u202e  María ", rol="Jefe\u200b de área"
    )
    assert (firma.firmante, firma.rol) == ("Ana María", "Jefe de área")


def test_a_naive_signing_time_is_refused(area_firmable):
    with pytest.raises(services.FirmaInvalida):
        services.firmar(
            documento=area_firmable,
            firmante="Ana",
            rol="Rol",
            firmado_en=datetime.datetime(2025, 1, 1),
        )


def test_total_firmas_counts_only_current_signatures_of_that_document(area_firmable):
    documento_calidad_firmable = DocumentoFactory(
        id=area_firmable.pk
    )  # same id, different model: must not be mixed up
    primera = firmar(area_firmable)
    firmar(area_firmable, firmante="Segunda persona")
    firma_anulada(area_firmable, firmante="Tercera persona")
    del_movimiento = firmar(documento_calidad_firmable)
    assert _total(primera) == 2
    assert _total(del_movimiento) == 1
    services.anular(firma=del_movimiento, motivo="Movimiento rechazado")
    assert _total(del_movimiento) == 0
    assert _total(primera) == 2


def test_annulment_keeps_the_signature_with_date_and_reason(area_firmable):
    firma = firmar(area_firmable)
    devuelta = services.anular(firma=firma, motivo="  El proceso fue rechazado. ")
    assert devuelta.anulada and firma.anulada
    firma.refresh_from_db()
    assert firma.anulada is True
    assert firma.motivo_anulacion == "El proceso fue rechazado."
    assert firma.anulada_en is not None
    assert Firma.objects.filter(pk=firma.pk).exists()


def test_annulling_twice_keeps_the_first_date_and_reason(area_firmable):
    firma = firmar(area_firmable)
    services.anular(firma=firma, motivo="Primera razón")
    firma.refresh_from_db()
    cuando = firma.anulada_en
    services.anular(firma=firma, motivo="Otra razón")
    firma.refresh_from_db()
    assert (firma.anulada_en, firma.motivo_anulacion) == (cuando, "Primera razón")


def test_annulment_without_reason_is_refused_and_changes_nothing(area_firmable):
    firma = firmar(area_firmable)
    with pytest.raises(services.FirmaInvalida):
        services.anular(firma=firma, motivo="   ")
    firma.refresh_from_db()
    assert firma.anulada is False


def test_annulling_every_signature_of_a_document_leaves_other_documents_alone(
    area_firmable, documento_calidad_firmable
):
    firmar(area_firmable)
    firmar(area_firmable, firmante="B")
    firma_anulada(area_firmable, firmante="C")
    otra = firmar(documento_calidad_firmable)
    assert services.anular_firmas_de(documento=area_firmable, motivo="Proceso reiniciado") == 2
    assert Firma.objects.de(area_firmable).vigentes().count() == 0
    assert (
        Firma.objects.de(area_firmable).filter(motivo_anulacion="Proceso reiniciado").count() == 2
    )
    otra.refresh_from_db()
    assert otra.anulada is False


def test_the_database_refuses_an_annulled_signature_without_date(area_firmable):
    firma = firmar(area_firmable)
    with pytest.raises(IntegrityError), transaction.atomic():
        Firma.objects.filter(pk=firma.pk).update(anulada=True)


def test_the_impossible_token_can_never_be_stored(area_firmable):
    firma = firmar(area_firmable)
    with pytest.raises(IntegrityError), transaction.atomic():
        Firma.objects.filter(pk=firma.pk).update(token=TOKEN_IMPOSIBLE)


def test_the_verification_address_uses_the_public_base(area_firmable, settings):
    settings.HUB_URL_PUBLICA = "https://hub.entidad.gov.co"
    firma = firmar(area_firmable)
    assert firma.url_verificacion() == (
        f"https://hub.entidad.gov.co/presupuesto/verificar/{firma.token}"
    )
