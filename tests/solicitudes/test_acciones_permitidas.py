"""What a page offers (`acciones_permitidas`) is exactly what the services accept: for each
state and each kind of person, every workflow service is tried (and rolled back) and must
succeed if and only if it was offered."""

from __future__ import annotations

import pytest
from django.db import transaction

from apps.solicitudes import selectors, services
from apps.solicitudes.errores import ErrorSolicitud
from apps.solicitudes.models import Tarea
from tests.factories import UserFactory
from tests.solicitudes.factories import persona

pytestmark = pytest.mark.django_db

MOTIVO = "Motivo de la prueba"
LLAMADAS = {
    "avanzar": lambda s, a: services.avanzar(solicitud=s, actor=a),
    "aprobar": lambda s, a: services.aprobar(solicitud=s, actor=a),
    "reanudar": lambda s, a: services.reanudar(solicitud=s, actor=a),
    "devolver": lambda s, a: services.devolver(solicitud=s, actor=a, motivo=MOTIVO),
    "rechazar": lambda s, a: services.rechazar(solicitud=s, actor=a, motivo=MOTIVO),
    "anular": lambda s, a: services.anular(solicitud=s, actor=a, motivo=MOTIVO),
    "marcar_atencion": lambda s, a: services.marcar_atencion(solicitud=s, actor=a, motivo=MOTIVO),
    "asignar": lambda s, a: services.asignar(tarea=selectors.tarea_actual(s), usuario=a, actor=a),
    "corregir": lambda s, a: services.corregir(solicitud=s, actor=a),
}


class _Deshacer(Exception):
    pass


def _acepta(llamada, solicitud, actor) -> bool:
    """Whether the service accepts; nothing it wrote stays."""
    try:
        with transaction.atomic():
            llamada(solicitud, actor)
            raise _Deshacer
    except _Deshacer:
        return True
    except ErrorSolicitud:
        return False


def _persona(flujo, s, papel: str):
    etapa = s.etapa_actual
    rol = etapa.rol if etapa else None
    tarea = Tarea.objects.pendientes().filter(solicitud=s, es_correccion=False).first()
    if papel == "titular" and tarea is not None:
        titular = persona(rol)
        Tarea.objects.filter(pk=tarea.pk).update(asignada_a=titular)
        return titular
    if papel == "colega_con_asignada" and tarea is not None:
        Tarea.objects.filter(pk=tarea.pk).update(asignada_a=persona(rol))
        return persona(rol)
    if papel in ("titular", "colega_con_asignada", "del_rol"):
        return persona(rol) if rol else persona()
    if papel == "otro_rol":
        return persona(*[r for r in flujo.roles if r != rol][:1])
    if papel == "solicitante":
        return flujo.solicitante
    if papel == "superusuario":
        return UserFactory(is_superuser=True)
    return persona()


@pytest.mark.parametrize(
    "papel",
    [
        "titular",
        "del_rol",
        "colega_con_asignada",
        "otro_rol",
        "solicitante",
        "ajeno",
        "superusuario",
    ],
)
@pytest.mark.parametrize(
    "estado",
    [
        "borrador",
        "radicado",
        "en_tramite",
        "devuelto",
        "requiere_atencion",
        "aprobado",
        "rechazado",
    ],
)
def test_what_is_offered_is_exactly_what_the_services_accept(flujo, estado, papel):
    s = flujo.en_estado(estado)
    actor = _persona(flujo, s, papel)
    s.refresh_from_db()
    ofrecidas = services.acciones_permitidas(
        solicitud=s, actor=actor, tarea=selectors.tarea_actual(s)
    )
    aceptadas = {
        nombre
        for nombre, llamada in LLAMADAS.items()
        if (nombre != "asignar" or selectors.tarea_actual(s) is not None)
        and _acepta(llamada, s, actor)
    }
    assert ofrecidas == aceptadas


def test_the_holder_of_a_first_stage_may_move_it_and_the_filer_only_annul(flujo):
    s = flujo.en_estado("radicado")
    titular = _persona(flujo, s, "titular")
    tarea = selectors.tarea_actual(s)
    esperadas = {"asignar", "avanzar", "devolver", "rechazar", "anular", "marcar_atencion"}
    assert services.acciones_permitidas(solicitud=s, actor=titular, tarea=tarea) == esperadas
    assert services.acciones_permitidas(solicitud=s, actor=flujo.solicitante, tarea=tarea) == {
        "anular"
    }
    assert services.puede_asignar(tarea=tarea, actor=flujo.solicitante) is False


def test_a_returned_request_offers_the_correction_to_its_filer_only(flujo):
    s = flujo.en_estado("devuelto")
    tarea = selectors.tarea_actual(s)
    assert services.acciones_permitidas(solicitud=s, actor=flujo.solicitante, tarea=tarea) == {
        "corregir",
        "anular",
    }
    r1 = flujo.responsables[0]
    assert "corregir" not in services.acciones_permitidas(solicitud=s, actor=r1, tarea=tarea)
    assert services.puede_corregir(solicitud=s, actor=r1) is False


def test_for_an_outside_filer_the_stages_role_records_the_correction(flujo):
    s = flujo.radicar(nombre_solicitante="María Gómez", correo_solicitante="maria@correo.co")
    s = services.devolver(solicitud=s, actor=flujo.responsables[0], motivo="Falta un soporte")
    colega = persona(flujo.roles[0])
    assert services.puede_corregir(solicitud=s, actor=colega) is True
    assert services.puede_corregir(solicitud=s, actor=flujo.responsables[1]) is False
    assert services.corregir(solicitud=s, actor=colega).estado == "en_tramite"


def test_at_the_last_stage_approving_is_offered(flujo):
    flujo.sin_firma()
    s = flujo.radicar()
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    s = services.avanzar(solicitud=s, actor=flujo.responsables[1])
    assert services.es_ultima_etapa(s) is True
    ofrecidas = services.acciones_permitidas(solicitud=s, actor=flujo.responsables[2])
    assert {"aprobar", "avanzar"} <= ofrecidas
