"""Signature stages (issue 35, item 2): a stage marked `requiere_firma` completes only through
`firmar`, by the person responsible for it, with their password; the history records who signed
which text and when. It is no `Firma` of the public verification (apps.firmas)."""

from __future__ import annotations

import pytest

from apps.firmas.models import Firma
from apps.solicitudes import selectors, services
from apps.solicitudes.errores import (
    AccionNoPermitida,
    DatosInvalidos,
    FirmaRequerida,
    SolicitudCambio,
    TransicionInvalida,
)
from apps.solicitudes.models import Accion, Estado, Evento, Tarea
from hub.herramientas.registro import registro
from tests.factories import CONTRASENA, UserFactory
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db


def _en_la_etapa_de_firma(flujo):
    """The shared workflow's request at its third stage, the one that requires a signature."""
    s = flujo.radicar()
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
    assert s.etapa_actual.requiere_firma
    return s


def _foto(s) -> tuple:
    s.refresh_from_db()
    return (
        s.estado,
        s.etapa_actual_id,
        s.version,
        Tarea.objects.pendientes().filter(solicitud=s).count(),
        Evento.objects.filter(solicitud=s).count(),
    )


@pytest.mark.parametrize("servicio", [services.avanzar, services.aprobar])
def test_a_signature_stage_is_not_completed_by_advancing_or_approving(flujo, servicio):
    s = _en_la_etapa_de_firma(flujo)
    antes = _foto(s)
    with pytest.raises(FirmaRequerida) as error:
        servicio(solicitud=s, actor=flujo.responsables[2])
    assert "firma" in error.value.detalle
    assert _foto(s) == antes


def test_not_even_a_superuser_completes_it_without_signing(flujo):
    s = _en_la_etapa_de_firma(flujo)
    with pytest.raises(FirmaRequerida):
        services.avanzar(solicitud=s, actor=UserFactory(is_superuser=True))


def test_signing_with_the_password_completes_the_stage_and_records_who_signed_what_and_when(flujo):
    s = _en_la_etapa_de_firma(flujo)
    firmante = flujo.responsables[2]
    texto = services.texto_de_firma(s)
    assert s.numero_radicado in texto and s.resumen in texto and s.etapa_actual.nombre in texto
    firmas_publicas = Firma.objects.count()
    s = services.firmar(
        solicitud=s, actor=firmante, contrasena=CONTRASENA, version=s.version, texto=texto
    )
    assert s.estado == Estado.APROBADO  # the last stage: signing it approves
    firma = Evento.objects.get(solicitud=s, accion=Accion.FIRMADA)
    assert firma.actor == firmante
    assert firma.etapa_origen.orden == 3
    assert texto in firma.descripcion
    assert firmante.nombre_visible in firma.descripcion
    cierre = Evento.objects.filter(solicitud=s).order_by("-pk").first()
    assert cierre.accion == Accion.APROBADA and cierre.creado_en == firma.creado_en
    assert Firma.objects.count() == firmas_publicas  # internal: no public verification signature


def test_signing_a_middle_stage_moves_the_request_to_the_next_one(flujo):
    tipo = tipo_con_etapas(*flujo.roles, nombre="Con firma en medio", firmas={1: True})
    s = services.radicar(tipo=tipo, solicitante=flujo.solicitante, resumen="Resumen de prueba")
    s = services.firmar(solicitud=s, actor=flujo.responsables[0], contrasena=CONTRASENA)
    assert (s.estado, s.etapa_actual.orden) == (Estado.EN_TRAMITE, 2)
    assert [e.accion for e in Evento.objects.filter(solicitud=s).order_by("pk")][-2:] == [
        Accion.FIRMADA,
        Accion.AVANZADA,
    ]


@pytest.mark.parametrize("contrasena", ["otra-clave-123", "", "\x00", CONTRASENA + "x" * 5000])
def test_a_wrong_password_signs_nothing(flujo, contrasena):
    s = _en_la_etapa_de_firma(flujo)
    antes = _foto(s)
    with pytest.raises(DatosInvalidos) as error:
        services.firmar(solicitud=s, actor=flujo.responsables[2], contrasena=contrasena)
    assert error.value.campos == {"contrasena": ["La contraseña no es correcta."]}
    assert _foto(s) == antes


def test_only_the_person_responsible_for_the_stage_signs(flujo):
    s = _en_la_etapa_de_firma(flujo)
    titular = flujo.responsables[2]
    services.asignar(tarea=selectors.tarea_actual(s), usuario=titular, actor=titular)
    antes = _foto(s)
    for otro in (persona(flujo.roles[2]), flujo.responsables[1], flujo.solicitante):
        with pytest.raises(AccionNoPermitida):
            services.firmar(solicitud=s, actor=otro, contrasena=CONTRASENA)
    # A superuser fixes data, but does not sign in the place of the stage's holder.
    with pytest.raises(AccionNoPermitida):
        services.firmar(solicitud=s, actor=UserFactory(is_superuser=True), contrasena=CONTRASENA)
    assert _foto(s) == antes


def test_a_stage_without_signature_is_not_signed(flujo):
    s = flujo.radicar()
    with pytest.raises(TransicionInvalida):
        services.firmar(solicitud=s, actor=flujo.responsables[0], contrasena=CONTRASENA)


def test_the_same_signing_form_sent_twice_signs_once(flujo):
    s = _en_la_etapa_de_firma(flujo)
    dibujada = s.version
    services.firmar(
        solicitud=s, actor=flujo.responsables[2], contrasena=CONTRASENA, version=dibujada
    )
    with pytest.raises(SolicitudCambio):
        services.firmar(
            solicitud=s, actor=flujo.responsables[2], contrasena=CONTRASENA, version=dibujada
        )
    assert Evento.objects.filter(solicitud=s, accion=Accion.FIRMADA).count() == 1


def test_a_text_that_is_no_longer_the_one_to_sign_is_refused(flujo):
    s = _en_la_etapa_de_firma(flujo)
    antes = _foto(s)
    with pytest.raises(SolicitudCambio):
        services.firmar(
            solicitud=s, actor=flujo.responsables[2], contrasena=CONTRASENA, texto="Otro texto"
        )
    assert _foto(s) == antes


def test_the_pages_offer_signing_instead_of_completing_a_signature_stage(flujo):
    s = _en_la_etapa_de_firma(flujo)
    ofrecidas = services.acciones_permitidas(solicitud=s, actor=flujo.responsables[2])
    assert "firmar" in ofrecidas
    assert not {"avanzar", "aprobar"} & ofrecidas
    assert "firmar" not in services.acciones_permitidas(
        solicitud=s, actor=UserFactory(is_superuser=True)
    )


def test_no_assistant_tool_signs_or_moves_a_stage():
    """The assistant writes a comment or files a help-desk case; signing is the page's alone."""
    assert {h.nombre for h in registro if h.escritura} == {
        "comentar_solicitud",
        "radicar_mesa_ayuda",
    }
