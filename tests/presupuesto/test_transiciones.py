"""The state machine of PAA lines, CDP and RP: allowed moves, refused moves, their side effects."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from apps.presupuesto import services
from apps.presupuesto.estados import (
    DESCRIPCION_CDP,
    DESCRIPCION_LINEA,
    DESCRIPCION_RP,
    EstadoCdp,
    EstadoLinea,
    EstadoRp,
)
from apps.presupuesto.models import Cdp, LineaPaa
from apps.presupuesto.services import ErrorPresupuesto
from tests.presupuesto.factories import (
    cdp_expedido,
    cdp_solicitado,
    celda,
    linea,
    rp_solicitado,
)

pytestmark = pytest.mark.django_db


def test_expedido_exists_with_its_visible_label():
    assert EstadoCdp.EXPEDIDO.value == "expedido"
    assert EstadoCdp.EXPEDIDO.label == "Expedido"
    assert EstadoRp.EXPEDIDO.label == "Expedido"
    assert EstadoLinea.APROBADA.value == "aprobada"


@pytest.mark.parametrize(
    ("choices", "descripciones"),
    [(EstadoCdp, DESCRIPCION_CDP), (EstadoRp, DESCRIPCION_RP), (EstadoLinea, DESCRIPCION_LINEA)],
)
def test_every_state_has_a_spanish_sentence(choices, descripciones):
    assert set(descripciones) == set(choices.values)
    for texto in descripciones.values():
        assert texto.endswith(".") and len(texto) > 20


def test_cdp_full_review_flow_with_return_and_correction():
    proyecto, area = celda("5000")
    cdp = cdp_solicitado(proyecto, area, "1000", numero_radicado="RAD-2026-000123")
    assert (cdp.estado, cdp.estado_expedicion) == ("solicitado", None)
    cdp = services.revisar(documento=cdp)
    cdp = services.marcar_expedicion(documento=cdp, estado_expedicion="en_sistema_financiero")
    assert (cdp.estado, cdp.estado_expedicion) == ("en_revision", "en_sistema_financiero")
    cdp = services.devolver(documento=cdp, motivo="Falta el estudio previo")
    assert (cdp.estado, cdp.motivo_devolucion, cdp.estado_expedicion) == (
        "devuelto",
        "Falta el estudio previo",
        None,
    )
    cdp = services.reenviar(documento=cdp, valor="900", objeto="Objeto corregido")
    assert (cdp.estado, cdp.valor_inicial, cdp.valor_actual, cdp.saldo, cdp.objeto) == (
        "solicitado",
        Decimal("900.00"),
        Decimal("900.00"),
        Decimal("900.00"),
        "Objeto corregido",
    )
    cdp = services.expedir_cdp(
        cdp=services.revisar(documento=cdp),
        numero_externo=" 2326 ",
        fecha_expedicion=datetime.date(2026, 2, 3),
    )
    assert (cdp.estado, cdp.numero_externo, cdp.fecha_expedicion) == (
        "expedido",
        "2326",
        datetime.date(2026, 2, 3),
    )


def test_rejected_cdp_is_final():
    proyecto, area = celda("5000")
    cdp = services.rechazar(documento=cdp_solicitado(proyecto, area), motivo="Sin justificación")
    assert (cdp.estado, cdp.motivo_rechazo) == ("rechazado", "Sin justificación")
    for accion in (
        lambda: services.revisar(documento=cdp),
        lambda: services.expedir_cdp(cdp=cdp),
        lambda: services.reenviar(documento=cdp),
        lambda: services.devolver(documento=cdp, motivo="x"),
    ):
        with pytest.raises(ErrorPresupuesto) as error:
            accion()
        assert error.value.codigo == "transicion_invalida"
    assert Cdp.objects.get(pk=cdp.pk).estado == "rechazado"


@pytest.mark.parametrize(
    "accion",
    [
        lambda cdp: services.revisar(documento=cdp),
        lambda cdp: services.devolver(documento=cdp, motivo="x"),
        lambda cdp: services.rechazar(documento=cdp, motivo="x"),
        lambda cdp: services.reenviar(documento=cdp),
        lambda cdp: services.expedir_cdp(cdp=cdp),
        lambda cdp: services.marcar_expedicion(documento=cdp, estado_expedicion="en_firma"),
    ],
)
def test_an_expedited_cdp_refuses_review_moves(accion):
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area)
    with pytest.raises(ErrorPresupuesto) as error:
        accion(cdp)
    assert error.value.codigo == "transicion_invalida"
    assert Cdp.objects.get(pk=cdp.pk).estado == "expedido"


def test_a_requested_cdp_cannot_be_annulled_or_moved():
    proyecto, area = celda("5000")
    cdp = cdp_solicitado(proyecto, area)
    with pytest.raises(ErrorPresupuesto):
        services.anular_cdp(cdp=cdp, motivo="x")
    with pytest.raises(ErrorPresupuesto):
        services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor="1", descripcion="x")
    assert Cdp.objects.get(pk=cdp.pk).estado == "solicitado"


def test_return_and_reject_need_a_reason():
    proyecto, area = celda("5000")
    cdp = cdp_solicitado(proyecto, area)
    with pytest.raises(ErrorPresupuesto) as error:
        services.devolver(documento=cdp, motivo="   \u200b ")
    assert "motivo" in error.value.message_dict


def test_rp_review_flow_and_refusals():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    rp = rp_solicitado(cdp, "300", fecha_inicio=datetime.date(2026, 3, 1))
    rp = services.devolver(documento=services.revisar(documento=rp), motivo="Falta la póliza")
    rp = services.reenviar(documento=rp, valor="350")
    assert (rp.estado, rp.valor_inicial) == ("solicitado", Decimal("350.00"))
    rp = services.expedir_rp(rp=rp, numero_externo="rp-77")
    assert (rp.estado, rp.numero_externo) == ("expedido", "RP-77")
    with pytest.raises(ErrorPresupuesto):
        services.expedir_rp(rp=rp)
    with pytest.raises(ErrorPresupuesto):
        services.rechazar(documento=rp, motivo="x")
    rechazado = services.rechazar(documento=rp_solicitado(cdp, "10"), motivo="No procede")
    with pytest.raises(ErrorPresupuesto):
        services.registrar_movimiento_rp(
            rp=rechazado, tipo="obligacion", valor="1", descripcion="x"
        )


def test_rp_dates_must_be_ordered():
    proyecto, area = celda("5000")
    cdp = cdp_expedido(proyecto, area, "1000")
    with pytest.raises(ErrorPresupuesto) as error:
        rp_solicitado(
            cdp, fecha_inicio=datetime.date(2026, 5, 1), fecha_fin=datetime.date(2026, 4, 30)
        )
    assert "fecha_fin" in error.value.message_dict


def test_external_number_is_unique_within_the_vigencia():
    proyecto, area = celda("5000")
    cdp_expedido(proyecto, area, "10", numero_externo="500")
    otro = cdp_solicitado(proyecto, area, "10")
    with pytest.raises(ErrorPresupuesto) as error:
        services.expedir_cdp(cdp=otro, numero_externo="500")
    assert error.value.codigo == "numero_duplicado"
    assert Cdp.objects.get(pk=otro.pk).estado == "solicitado"


def test_rp_on_a_non_expedited_cdp_is_refused():
    proyecto, area = celda("5000")
    cdp = cdp_solicitado(proyecto, area, "1000")
    with pytest.raises(ErrorPresupuesto) as error:
        rp_solicitado(cdp, "10")
    assert error.value.codigo == "saldo_insuficiente"


def test_paa_line_flow_and_execution_follows_its_first_cdp():
    proyecto, area = celda("5000")
    nueva = linea(proyecto, area, "800", estado="borrador")
    assert nueva.numero == 1
    with pytest.raises(ErrorPresupuesto):
        services.aprobar_linea(linea=nueva)
    nueva = services.enviar_linea(linea=nueva)
    nueva = services.devolver_linea(linea=nueva, motivo="Ajustar el valor")
    assert (nueva.estado, nueva.motivo_devolucion) == ("borrador", "Ajustar el valor")
    nueva = services.aprobar_linea(linea=services.enviar_linea(linea=nueva))
    assert nueva.estado == "aprobada"
    cdp = services.solicitar_cdp(linea_paa=nueva, objeto="CDP de la línea", valor="500")
    assert (cdp.proyecto_id, cdp.area_id) == (proyecto.pk, area.pk)
    with pytest.raises(ErrorPresupuesto):
        services.anular_linea(linea=nueva, motivo="x")
    services.expedir_cdp(cdp=cdp)
    assert LineaPaa.objects.get(pk=nueva.pk).estado == "en_ejecucion"
    assert services.cerrar_linea(linea=nueva).estado == "ejecutada"


def test_cdp_needs_an_approved_line():
    proyecto, area = celda("5000")
    borrador = linea(proyecto, area, estado="en_revision")
    with pytest.raises(ErrorPresupuesto) as error:
        services.solicitar_cdp(linea_paa=borrador, objeto="x", valor="1")
    assert "linea_paa" in error.value.message_dict
    assert Cdp.objects.count() == 0


def test_line_month_is_stored_as_the_first_day_and_must_be_in_the_vigencia():
    proyecto, area = celda("5000")
    nueva = services.crear_linea_paa(
        proyecto=proyecto,
        area=area,
        objeto="Compra de equipos",
        valor_estimado="10",
        mes_inicio=datetime.date(2026, 7, 19),
    )
    assert nueva.mes_inicio == datetime.date(2026, 7, 1)
    with pytest.raises(ErrorPresupuesto) as error:
        services.crear_linea_paa(
            proyecto=proyecto,
            area=area,
            objeto="x",
            valor_estimado="10",
            mes_inicio=datetime.date(2027, 1, 1),
        )
    assert "mes_inicio" in error.value.message_dict


def test_only_one_vigencia_is_active():
    from apps.presupuesto.models import Vigencia

    primera = services.crear_vigencia(anio=2025, tope="100", activa=True)
    segunda = services.crear_vigencia(anio=2026, tope="100", activa=True)
    assert list(Vigencia.objects.filter(activa=True)) == [segunda]
    services.activar_vigencia(vigencia=primera)
    assert Vigencia.objects.activa() == primera


def test_database_refuses_two_active_vigencias():
    from django.db import IntegrityError

    from apps.presupuesto.models import Vigencia

    Vigencia.objects.create(anio=2025, activa=True)
    with pytest.raises(IntegrityError):
        Vigencia.objects.create(anio=2026, activa=True)


def test_assignments_never_exceed_the_ceiling_nor_drop_below_certified():
    from tests.factories import AreaFactory

    proyecto, area = celda("600", tope="1000")
    with pytest.raises(ErrorPresupuesto) as error:
        services.asignar(proyecto=proyecto, area=AreaFactory(), valor="400.01")
    assert error.value.codigo == "tope_excedido"
    cdp_expedido(proyecto, area, "500")
    with pytest.raises(ErrorPresupuesto) as error:
        services.asignar(proyecto=proyecto, area=area, valor="499.99")
    assert error.value.codigo == "saldo_insuficiente"
    assert services.asignar(proyecto=proyecto, area=area, valor="500").valor == Decimal("500.00")


def test_a_resent_request_over_what_is_available_is_refused_and_stays_returned():
    proyecto, area = celda("1000")
    cdp = cdp_expedido(proyecto, area, "700")
    pedido = services.devolver(documento=cdp_solicitado(proyecto, area, "100"), motivo="Ajuste")
    rp = services.devolver(documento=rp_solicitado(cdp, "100"), motivo="Ajuste")
    for documento, valor, mensaje in [
        (pedido, "300.01", "Supera lo disponible del área en el proyecto (300.00)."),
        (rp, "700.01", "Supera el saldo del CDP CDP-2026-00001 (700.00)."),
    ]:
        with pytest.raises(ErrorPresupuesto) as error:
            services.reenviar(documento=documento, valor=valor)
        assert (error.value.codigo, error.value.texto) == ("saldo_insuficiente", mensaje)
        documento.refresh_from_db()
        assert (documento.estado, documento.valor_actual) == ("devuelto", Decimal("100.00"))
