"""The budget demo: every traffic-light colour, this month's PAA, signatures, idempotence."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.cuentas import demo as demo_cuentas
from apps.firmas.selectors import resumen_verificacion
from apps.presupuesto import demo, selectors, services
from apps.presupuesto.models import Cdp, LineaPaa, MovimientoRp, Rp
from hub.operacion.demo import ContextoDemo

pytestmark = pytest.mark.django_db


def cargar(escala: int = 1) -> ContextoDemo:
    ctx = ContextoDemo(escala=escala)
    demo_cuentas.cargar(ctx)
    demo.cargar(ctx)
    return ctx


@pytest.fixture
def ctx():
    return cargar()


def test_demo_areas_fall_in_each_traffic_light_colour(ctx):
    tablero = selectors.tablero(ctx.objetos["usuarios"]["completo"])
    colores = {f["sigla"]: f["semaforo"] for f in tablero["por_area"]}
    assert colores["OTI"] == "rojo"
    assert colores["OAP"] == "amarillo"
    assert {colores[s] for s in ("DG", "SAF", "GTH", "OAJ", "OCI")} == {"verde"}
    assert tablero["vigencia"] == timezone.localdate().year
    assert all(f["cantidad"] > 0 for f in tablero["lineas_paa"])  # every PAA status appears


def test_demo_has_paa_lines_in_every_month_and_this_one_for_planeacion(ctx):
    anio = timezone.localdate().year
    meses = set(LineaPaa.objects.filter(vigencia__anio=anio).values_list("mes_inicio", flat=True))
    assert {m.month for m in meses} == set(range(1, 13))
    este_mes = selectors.paa_mes(ctx.objetos["usuarios"]["planeacion"], timezone.localdate())
    assert este_mes["cantidad"] >= 2
    assert {a["sigla"] for a in este_mes["por_area"]} == {"OAP", "DG"}


def test_demo_output_points_at_visible_documents_and_signatures(ctx):
    planeacion = ctx.objetos["usuarios"]["planeacion"]
    ficha = selectors.ficha_cdp(planeacion, ctx.salida["cdp"])
    assert (ficha["estado"], ficha["area_sigla"], ficha["movimientos"]) == ("expedido", "OAP", 1)
    assert (
        selectors.ficha_cdp(planeacion, ctx.salida["cdp_externo"])["numero_cdp"]
        == ficha["numero_cdp"]
    )
    assert selectors.ficha_rp(planeacion, ctx.salida["rp"])["cdp"] == ctx.salida["cdp"]
    valida = resumen_verificacion(ctx.salida["firmas"]["valida"])
    assert (valida["valido"], valida["documento"]["tipo"], valida["total_firmas"]) == (
        True,
        "cdp",
        2,
    )
    assert valida["documento"]["numero_cdp"] == ctx.salida["cdp"]
    anulada = resumen_verificacion(ctx.salida["firmas"]["anulada"])
    assert (anulada["valido"], anulada["anulada"], anulada["documento"]["estado"]) == (
        False,
        True,
        "anulado",
    )


def test_demo_documents_cover_the_states(ctx):
    estados_cdp = set(Cdp.objects.values_list("estado", flat=True))
    assert estados_cdp >= {
        "solicitado",
        "en_revision",
        "devuelto",
        "rechazado",
        "expedido",
        "agotado",
        "anulado",
    }
    assert set(Rp.objects.values_list("estado", flat=True)) >= {"expedido", "ejecutado", "anulado"}


def test_every_demo_balance_is_consistent_including_the_bulk_ones(ctx):
    for cdp in Cdp.objects.all():
        assert services.recalcular_saldos(cdp) == {}, cdp.numero


def test_demo_runs_twice_without_duplicates_and_scale_adds_volume(ctx):
    antes = (Cdp.objects.count(), Rp.objects.count(), LineaPaa.objects.count())
    segunda = cargar()
    assert (Cdp.objects.count(), Rp.objects.count(), LineaPaa.objects.count()) == antes
    assert segunda.salida["cdp"] == ctx.salida["cdp"]
    assert segunda.salida["firmas"] == ctx.salida["firmas"]
    cargar(escala=3)
    assert Cdp.objects.count() == antes[0] + 2 * demo.CDP_POR_ESCALA
    assert MovimientoRp.objects.filter(rp__cdp__proyecto__codigo="2026-90").exists()
    colores = {
        f["sigla"]: f["semaforo"]
        for f in selectors.tablero(ctx.objetos["usuarios"]["completo"])["por_area"]
    }
    assert (colores["OTI"], colores["OAP"], colores["DG"]) == ("rojo", "amarillo", "verde")
