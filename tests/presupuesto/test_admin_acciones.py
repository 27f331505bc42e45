"""The budget admin actions: each offered by name, each moving state through its service."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from apps.presupuesto import services
from apps.presupuesto.models import Cdp, LineaPaa, MovimientoCdp
from tests.factories import UserFactory
from tests.presupuesto.factories import cdp_expedido, cdp_solicitado, celda, linea, rp_expedido

pytestmark = pytest.mark.django_db

ACCIONES_DOCUMENTO = [
    ("revisar", "Pasar a revisión"),
    ("en_sistema_financiero", "Marcar: en registro en el sistema financiero"),
    ("en_firma", "Marcar: en firma del ordenador del gasto"),
    ("devolver", "Devolver al área (escriba el motivo)"),
    ("rechazar", "Rechazar (escriba el motivo)"),
    ("expedir", "Expedir (número externo opcional)"),
    ("anular", "Anular (escriba el motivo)"),
    ("verificar_saldos", "Verificar saldos contra los movimientos"),
]
ACCIONES_MOVIMIENTO = [
    ("aplicar", "Aplicar los movimientos solicitados"),
    ("rechazar", "Rechazar (escriba el motivo)"),
]
ACCIONES_LINEA = [
    ("enviar", "Enviar a revisión"),
    ("aprobar", "Aprobar"),
    ("devolver", "Devolver (escriba el motivo)"),
    ("anular", "Anular (escriba el motivo)"),
    ("cerrar", "Cerrar (contratación terminada)"),
]
OFRECIDAS = [
    *[("cdp", *a) for a in ACCIONES_DOCUMENTO],
    *[("rp", *a) for a in ACCIONES_DOCUMENTO],
    *[("movimientocdp", *a) for a in ACCIONES_MOVIMIENTO],
    *[("movimientorp", *a) for a in ACCIONES_MOVIMIENTO],
    *[("lineapaa", *a) for a in ACCIONES_LINEA],
]


@pytest.fixture
def proyecto_y_area():
    return celda("5000")


@pytest.fixture
def una_fila_de_cada(proyecto_y_area):
    """The action bar shows only above a list with rows."""
    lin = linea(*proyecto_y_area, "900", estado="borrador")
    cdp = cdp_expedido(*proyecto_y_area, "1000")
    rp = rp_expedido(cdp, "400")
    services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor="10", descripcion="+")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="5", descripcion="Pago")
    return {"lineapaa": lin, "cdp": cdp, "rp": rp}


def _accion(cliente, modelo: str, accion: str, objetos, **datos):
    return cliente.post(
        reverse(f"admin:presupuesto_{modelo}_changelist"),
        {"action": accion, "_selected_action": [o.pk for o in objetos], **datos},
        follow=True,
    )


def _mensajes(respuesta) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in respuesta.context["messages"]]


@pytest.mark.parametrize(("modelo", "accion", "descripcion"), OFRECIDAS)
def test_each_action_is_offered_under_its_spanish_name(
    admin_client, una_fila_de_cada, modelo, accion, descripcion
):
    html = admin_client.get(reverse(f"admin:presupuesto_{modelo}_changelist")).content.decode()
    assert f'<option value="{accion}">{descripcion}</option>' in html


def test_a_reader_without_the_change_permission_is_offered_only_the_balance_check(
    client, proyecto_y_area
):
    lector = UserFactory(is_staff=True)
    lector.user_permissions.add(Permission.objects.get(codename="view_cdp"))
    client.force_login(lector)
    cdp = cdp_solicitado(*proyecto_y_area, "100")
    html = client.get(reverse("admin:presupuesto_cdp_changelist")).content.decode()
    assert '<option value="verificar_saldos">' in html
    for accion, _ in ACCIONES_DOCUMENTO[:-1]:
        assert f'<option value="{accion}">' not in html
    _accion(client, "cdp", "revisar", [cdp])
    assert Cdp.objects.get(pk=cdp.pk).estado == "solicitado"


def test_review_and_issuance_marks_move_each_selected_cdp_and_say_how_many(
    admin_client, proyecto_y_area
):
    uno, otro = (cdp_solicitado(*proyecto_y_area, v) for v in ("100", "200"))
    r = _accion(admin_client, "cdp", "revisar", [uno, otro])
    assert _mensajes(r) == [("success", "En revisión: 2.")]
    assert set(Cdp.objects.values_list("estado", flat=True)) == {"en_revision"}

    r = _accion(admin_client, "cdp", "en_sistema_financiero", [uno])
    assert _mensajes(r) == [("success", "Marcados: 1.")]
    assert Cdp.objects.get(pk=uno.pk).estado_expedicion == "en_sistema_financiero"

    r = _accion(admin_client, "cdp", "en_firma", [uno, otro])
    assert _mensajes(r) == [("success", "Marcados: 2.")]
    assert set(Cdp.objects.values_list("estado_expedicion", flat=True)) == {"en_firma"}


def test_rejecting_keeps_the_reason_and_a_refused_document_is_reported_beside_the_others(
    admin_client, proyecto_y_area
):
    pendiente = cdp_solicitado(*proyecto_y_area, "100")
    expedido = cdp_expedido(*proyecto_y_area, "200")
    r = _accion(admin_client, "cdp", "rechazar", [pendiente, expedido], motivo="Sin soporte")
    mensajes = _mensajes(r)
    assert ("success", "Rechazados: 1.") in mensajes
    assert [m for m in mensajes if m[0] == "error"] == [
        ("error", f"{expedido.numero}: {_rechazo(expedido)}")
    ]
    pendiente.refresh_from_db()
    assert (pendiente.estado, pendiente.motivo_rechazo) == ("rechazado", "Sin soporte")
    assert Cdp.objects.get(pk=expedido.pk).estado == "expedido"


def _rechazo(cdp: Cdp) -> str:
    """What the service says when asked to reject this CDP (the admin repeats it)."""
    try:
        services.rechazar(documento=cdp, motivo="x")
    except services.ErrorPresupuesto as exc:
        return exc.texto
    raise AssertionError("the service accepted the rejection")


def test_an_external_number_is_for_one_document_only(admin_client, proyecto_y_area):
    uno, otro = (cdp_solicitado(*proyecto_y_area, v) for v in ("100", "200"))
    r = _accion(admin_client, "cdp", "expedir", [uno, otro], numero_externo="55")
    assert _mensajes(r) == [("error", "Un número externo es para un solo documento.")]
    assert set(Cdp.objects.values_list("estado", flat=True)) == {"solicitado"}
    r = _accion(admin_client, "cdp", "expedir", [uno, otro])
    assert _mensajes(r) == [("success", "Expedidos: 2.")]


def test_requested_movements_are_applied_or_rejected_from_the_list(admin_client, proyecto_y_area):
    cdp = cdp_expedido(*proyecto_y_area, "1000")
    pedido = {"tipo": "adicion", "valor": "10", "descripcion": "+", "aplicar": False}
    aplicado = services.registrar_movimiento_cdp(cdp=cdp, **pedido)
    rechazado = services.registrar_movimiento_cdp(cdp=cdp, **pedido)
    r = _accion(admin_client, "movimientocdp", "aplicar", [aplicado])
    assert _mensajes(r) == [("success", "Aplicados: 1.")]
    r = _accion(admin_client, "movimientocdp", "rechazar", [rechazado], motivo="Duplicado")
    assert _mensajes(r) == [("success", "Rechazados: 1.")]
    estados = dict(MovimientoCdp.objects.values_list("pk", "estado"))
    assert estados == {aplicado.pk: "aplicado", rechazado.pk: "rechazado"}
    assert MovimientoCdp.objects.get(pk=rechazado.pk).motivo_rechazo == "Duplicado"
    assert Cdp.objects.get(pk=cdp.pk).valor_actual == 1010


@pytest.mark.parametrize(
    ("estado", "accion", "datos", "nuevo", "hecho"),
    [
        ("borrador", "enviar", {}, "en_revision", "Enviadas: 1."),
        ("en_revision", "aprobar", {}, "aprobada", "Aprobadas: 1."),
        ("en_revision", "devolver", {"motivo": "Ajustar"}, "borrador", "Devueltas: 1."),
        ("aprobada", "anular", {"motivo": "Ya no"}, "anulada", "Anuladas: 1."),
    ],
)
def test_paa_line_actions_move_the_line_through_the_service(
    admin_client, proyecto_y_area, estado, accion, datos, nuevo, hecho
):
    lin = linea(*proyecto_y_area, "900", estado=estado)
    r = _accion(admin_client, "lineapaa", accion, [lin], **datos)
    assert _mensajes(r) == [("success", hecho)]
    lin.refresh_from_db()
    assert lin.estado == nuevo
    if "motivo" in datos:
        assert datos["motivo"] in (lin.motivo_devolucion, lin.motivo_anulacion)


def test_closing_a_line_needs_it_in_execution(admin_client, proyecto_y_area):
    en_ejecucion = linea(*proyecto_y_area, "900")
    cdp_expedido(*proyecto_y_area, "100", linea_paa=en_ejecucion)
    aprobada = linea(*proyecto_y_area, "50")
    r = _accion(admin_client, "lineapaa", "cerrar", [en_ejecucion, aprobada])
    mensajes = _mensajes(r)
    assert ("success", "Cerradas: 1.") in mensajes
    assert [nivel for nivel, _ in mensajes].count("error") == 1
    estados = dict(LineaPaa.objects.values_list("pk", "estado"))
    assert estados == {en_ejecucion.pk: "ejecutada", aprobada.pk: "aprobada"}
