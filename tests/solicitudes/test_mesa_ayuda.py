"""Help-desk tickets are requests of the help-desk type, with their own prefix."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.solicitudes import selectors, services
from apps.solicitudes.errores import AccionNoPermitida, DatosInvalidos, MesaAyudaNoConfigurada
from apps.solicitudes.models import Estado, Tarea
from tests.factories import GroupFactory
from tests.solicitudes.factories import persona, radicadora, tipo_con_etapas

pytestmark = pytest.mark.django_db


@pytest.fixture
def mesa(db):
    rol = GroupFactory(name="Mesa de ayuda")
    return tipo_con_etapas(
        rol, nombre="Soporte tecnológico", prefijo="MDA", es_mesa_ayuda=True, plazos={1: 8}
    )


def _ticket(**kwargs):
    datos = {
        "solicitante": radicadora(),
        "asunto": "No carga el tablero",
        "descripcion": "Al abrir el tablero aparece una pantalla en blanco.",
    }
    datos.update(kwargs)
    return services.radicar_mesa_ayuda(**datos)


def test_a_ticket_gets_a_help_desk_number_and_lands_in_its_inbox(mesa):
    s = _ticket(severidad="bloqueante", modulo="Presupuesto")
    assert s.numero_radicado == f"MDA-{timezone.localdate().year}-000001"
    assert (s.tipo, s.estado, s.resumen) == (mesa, Estado.RADICADO, "No carga el tablero")
    assert dict(s.campos.values_list("nombre", "valor")) == {
        "descripcion": "Al abrir el tablero aparece una pantalla en blanco.",
        "severidad": "bloqueante",
        "modulo": "Presupuesto",
    }
    tarea = Tarea.objects.pendientes().get(solicitud=s)
    assert tarea.rol.name == "Mesa de ayuda"
    assert {c["nombre"] for c in selectors.campos_publicos(s)} == {
        "descripcion",
        "severidad",
        "modulo",
    }


def test_severity_defaults_to_error(mesa):
    s = _ticket()
    assert s.campos.get(nombre="severidad").valor == "error"


@pytest.mark.parametrize(
    ("cambio", "campo"),
    [
        ({"severidad": "urgente"}, "severidad"),
        ({"asunto": "Mal"}, "asunto"),
        ({"descripcion": "corto"}, "descripcion"),
        ({"modulo": "m" * 121}, "modulo"),
    ],
)
def test_invalid_ticket_data_is_refused(mesa, cambio, campo):
    with pytest.raises(DatosInvalidos) as error:
        _ticket(**cambio)
    assert list(error.value.campos) == [campo]


def test_filing_a_ticket_needs_the_radicar_permission(mesa):
    with pytest.raises(AccionNoPermitida):
        _ticket(solicitante=persona())


def test_without_an_active_help_desk_type_the_ticket_is_refused(mesa):
    mesa.activo = False
    mesa.save()
    with pytest.raises(MesaAyudaNoConfigurada):
        _ticket()


def test_only_one_active_help_desk_type_may_exist(mesa):
    with pytest.raises(IntegrityError), transaction.atomic():
        tipo_con_etapas(GroupFactory(), prefijo="MDA", es_mesa_ayuda=True)
    assert selectors.tipo_mesa_ayuda() == mesa


def test_validating_a_ticket_for_the_preview_writes_nothing(mesa):
    from apps.solicitudes.models import Solicitud

    caso = services.validar_mesa_ayuda(
        solicitante=radicadora(),
        asunto="  No carga el tablero\u200b ",
        descripcion="Al abrir el tablero aparece una pantalla en blanco.",
        severidad="mejora_grave",
    )
    assert (caso.tipo, caso.asunto, caso.severidad, caso.modulo) == (
        mesa,
        "No carga el tablero",
        "mejora_grave",
        "",
    )
    assert Solicitud.objects.count() == 0
    with pytest.raises(AccionNoPermitida):
        services.validar_mesa_ayuda(
            solicitante=persona(), asunto="Asunto válido", descripcion="Descripción suficiente."
        )


def test_a_help_desk_type_without_stages_is_not_configured(db):
    tipo_con_etapas(prefijo="MDA", es_mesa_ayuda=True)
    with pytest.raises(MesaAyudaNoConfigurada) as error:
        _ticket()
    assert error.value.codigo == "MESA_AYUDA_NO_CONFIGURADA"
