"""The budget admin: every page renders, creation and state changes go through the services."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.presupuesto.models import Cdp, LineaPaa, MovimientoCdp, Rp
from tests.admin_listas import Columna, columna
from tests.factories import AreaFactory
from tests.presupuesto.factories import cdp_expedido, cdp_solicitado, celda, linea, rp_expedido

pytestmark = pytest.mark.django_db


@pytest.fixture
def datos():
    proyecto, area = celda("5000")
    lin = linea(proyecto, area, "900")
    cdp = cdp_expedido(proyecto, area, "1000", numero_externo="2326")
    rp = rp_expedido(cdp, "400")
    from apps.presupuesto import services

    services.registrar_movimiento_cdp(cdp=cdp, tipo="adicion", valor="10", descripcion="+")
    services.registrar_movimiento_rp(rp=rp, tipo="obligacion", valor="5", descripcion="Pago")
    return {
        "proyecto": proyecto,
        "area": area,
        "linea": lin,
        "cdp": cdp,
        "rp": rp,
        "vigencia": proyecto.vigencia,
        "movimiento_cdp": cdp.movimientos.get(),
        "movimiento_rp": rp.movimientos.get(),
    }


MODELOS = ["vigencia", "proyecto", "lineapaa", "cdp", "rp", "movimientocdp", "movimientorp"]


@pytest.mark.parametrize("modelo", MODELOS)
def test_changelist_and_add_pages_render(admin_client, datos, modelo):
    assert admin_client.get(reverse(f"admin:presupuesto_{modelo}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:presupuesto_{modelo}_add")).status_code == 200


@pytest.mark.parametrize(
    ("modelo", "clave"),
    [
        ("proyecto", "proyecto"),
        ("lineapaa", "linea"),
        ("cdp", "cdp"),
        ("rp", "rp"),
        ("movimientocdp", "movimiento_cdp"),
        ("movimientorp", "movimiento_rp"),
        ("vigencia", "vigencia"),
    ],
)
def test_change_pages_render_with_read_only_balances(admin_client, datos, modelo, clave):
    respuesta = admin_client.get(
        reverse(f"admin:presupuesto_{modelo}_change", args=[datos[clave].pk])
    )
    assert respuesta.status_code == 200


@pytest.mark.parametrize("modelo", ["cdp", "lineapaa"])
def test_the_area_column_shows_the_acronym_and_sorts_by_it(admin_client, modelo):
    proyecto, oti = celda("5000", area=AreaFactory(sigla="OTI"))
    _, oap = celda("5000", area=AreaFactory(sigla="OAP"), proyecto=proyecto)
    for area in (oti, oap):
        linea(proyecto, area, "900")
        cdp_expedido(proyecto, area, "100")
    url = reverse(f"admin:presupuesto_{modelo}_changelist")
    assert columna(admin_client, url, "area_sigla") == Columna(
        "Área", ["OAP", "OTI"], ["OTI", "OAP"]
    )


def _documentos(cuantos: int) -> None:
    """`cuantos` expedited CDP, each of its own project and area, with one RP and one PAA line
    each."""
    for _ in range(cuantos):
        proyecto, area = celda("5000")
        rp_expedido(cdp_expedido(proyecto, area, "100"), "10")
        linea(proyecto, area, "900")


def _consultas(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as capturadas:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in capturadas.captured_queries]


@pytest.mark.parametrize("modelo", ["cdp", "rp", "lineapaa"])
def test_the_document_list_costs_the_same_queries_with_more_rows(admin_client, modelo):
    url = reverse(f"admin:presupuesto_{modelo}_changelist")
    _documentos(1)
    _consultas(admin_client, url)  # the first admin page also reads the brand into the cache
    pocas = len(_consultas(admin_client, url))
    _documentos(4)
    assert len(_consultas(admin_client, url)) == pocas


@pytest.mark.parametrize(
    ("modelo", "leidas", "unidas"),
    [
        # The year joins only to sort (newest year first); the area is the «área» column.
        ("cdp", {"presupuesto_cdp", "cuentas_area"}, {"presupuesto_vigencia", "cuentas_area"}),
        # The CDP is the «cdp» column (its number).
        ("rp", {"presupuesto_rp", "presupuesto_cdp"}, {"presupuesto_vigencia", "presupuesto_cdp"}),
        # The year also names each row (the checkbox's label); the area is its column.
        (
            "lineapaa",
            {"presupuesto_lineapaa", "presupuesto_vigencia", "cuentas_area"},
            {"presupuesto_vigencia", "cuentas_area"},
        ),
    ],
)
def test_the_document_list_joins_only_what_its_columns_and_order_need(
    admin_client, modelo, leidas, unidas
):
    _documentos(2)
    url = reverse(f"admin:presupuesto_{modelo}_changelist")
    (filas,) = [
        q
        for q in _consultas(admin_client, url)
        if q.startswith("SELECT") and f' FROM "presupuesto_{modelo}" ' in q and "ORDER BY" in q
    ]
    columnas = filas[: filas.index(" FROM ")]
    assert set(re.findall(r'"(\w+)"\."\w+"', columnas)) == leidas
    assert set(re.findall(r'JOIN "(\w+)"', filas)) == unidas


def test_cdp_change_page_shows_balances_but_offers_no_input_for_them(admin_client, datos):
    html = admin_client.get(
        reverse("admin:presupuesto_cdp_change", args=[datos["cdp"].pk])
    ).content.decode()
    assert 'name="saldo"' not in html and 'name="comprometido"' not in html
    assert "610" in html  # saldo 1010 - 400


def test_changelist_search_ignores_accents_and_finds_external_numbers(admin_client, datos):
    url = reverse("admin:presupuesto_cdp_changelist")
    assert datos["cdp"].numero in admin_client.get(url, {"q": "2326"}).content.decode()
    assert datos["cdp"].numero not in admin_client.get(url, {"q": "9999"}).content.decode()
    lineas = reverse("admin:presupuesto_lineapaa_changelist")
    assert admin_client.get(lineas, {"mes": "2026-03", "estado": "aprobada"}).status_code == 200


def test_adding_a_cdp_uses_the_service(admin_client, datos):
    respuesta = admin_client.post(
        reverse("admin:presupuesto_cdp_add"),
        {
            "proyecto": datos["proyecto"].pk,
            "area": datos["area"].pk,
            "objeto": "Compra de equipos",
            "valor_inicial": "500",
            "numero_radicado": "SOL-2026-000001",
            "dependencia": "",
        },
    )
    assert respuesta.status_code == 302
    nuevo = Cdp.objects.get(objeto="Compra de equipos")
    assert (nuevo.numero, nuevo.estado, nuevo.saldo, nuevo.numero_radicado) == (
        "CDP-2026-00002",
        "solicitado",
        Decimal("500.00"),
        "SOL-2026-000001",
    )


def test_adding_a_cdp_beyond_the_assignment_shows_the_error_and_stores_nothing(admin_client, datos):
    respuesta = admin_client.post(
        reverse("admin:presupuesto_cdp_add"),
        {
            "proyecto": datos["proyecto"].pk,
            "area": datos["area"].pk,
            "objeto": "Demasiado",
            "valor_inicial": "4000",
        },
    )
    assert respuesta.status_code == 200
    assert "Supera lo disponible" in respuesta.content.decode()
    assert not Cdp.objects.filter(objeto="Demasiado").exists()
    from apps.presupuesto.models import Vigencia

    assert Vigencia.objects.get().consecutivo_cdp == 1  # the dry run left no trace


def test_adding_a_movement_applies_it_through_the_service(admin_client, datos):
    respuesta = admin_client.post(
        reverse("admin:presupuesto_movimientocdp_add"),
        {
            "cdp": datos["cdp"].pk,
            "tipo": "reduccion",
            "valor": "100",
            "descripcion": "Menor valor",
            "aplicar": "on",
        },
    )
    assert respuesta.status_code == 302
    assert Cdp.objects.get(pk=datos["cdp"].pk).valor_actual == Decimal("910.00")
    assert MovimientoCdp.objects.filter(cdp=datos["cdp"]).count() == 2


def test_a_movement_below_commitments_is_refused_in_the_form(admin_client, datos):
    respuesta = admin_client.post(
        reverse("admin:presupuesto_movimientocdp_add"),
        {"cdp": datos["cdp"].pk, "tipo": "reduccion", "valor": "700", "descripcion": "x"},
    )
    assert respuesta.status_code == 200
    assert "por debajo de lo comprometido" in respuesta.content.decode()
    assert Cdp.objects.get(pk=datos["cdp"].pk).valor_actual == Decimal("1010.00")


def test_actions_move_states_with_reason_and_external_number(admin_client, datos):
    pendiente = cdp_solicitado(datos["proyecto"], datos["area"], "100")
    devuelto = cdp_solicitado(datos["proyecto"], datos["area"], "50")
    url = reverse("admin:presupuesto_cdp_changelist")
    admin_client.post(
        url,
        {"action": "expedir", "_selected_action": [pendiente.pk], "numero_externo": "777"},
    )
    admin_client.post(
        url,
        {"action": "devolver", "_selected_action": [devuelto.pk], "motivo": "Falta el anexo"},
    )
    pendiente, devuelto = Cdp.objects.get(pk=pendiente.pk), Cdp.objects.get(pk=devuelto.pk)
    assert (pendiente.estado, pendiente.numero_externo) == ("expedido", "777")
    assert (devuelto.estado, devuelto.motivo_devolucion) == ("devuelto", "Falta el anexo")


def test_an_action_refused_by_the_rules_reports_it_and_changes_nothing(admin_client, datos):
    respuesta = admin_client.post(
        reverse("admin:presupuesto_cdp_changelist"),
        {"action": "anular", "_selected_action": [datos["cdp"].pk], "motivo": "x"},
        follow=True,
    )
    assert "RP en trámite o expedidos" in respuesta.content.decode()
    assert Cdp.objects.get(pk=datos["cdp"].pk).estado == "expedido"


def test_budget_documents_cannot_be_deleted_from_the_admin(admin_client, datos):
    for modelo, obj in (("cdp", datos["cdp"]), ("rp", datos["rp"]), ("lineapaa", datos["linea"])):
        url = reverse(f"admin:presupuesto_{modelo}_delete", args=[obj.pk])
        assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Rp.objects.filter(pk=datos["rp"].pk).exists()
    assert LineaPaa.objects.filter(pk=datos["linea"].pk).exists()


def test_project_assignments_over_the_ceiling_are_refused(admin_client, datos):
    from tests.factories import AreaFactory

    otra = AreaFactory()
    proyecto = datos["proyecto"]
    asignacion = proyecto.asignaciones.get()
    url = reverse("admin:presupuesto_proyecto_change", args=[proyecto.pk])
    base = {
        "vigencia": proyecto.vigencia_id,
        "codigo": proyecto.codigo,
        "nombre": proyecto.nombre,
        "activo": "on",
        "asignaciones-TOTAL_FORMS": "2",
        "asignaciones-INITIAL_FORMS": "1",
        "asignaciones-0-id": asignacion.pk,
        "asignaciones-0-proyecto": proyecto.pk,
        "asignaciones-0-area": datos["area"].pk,
        "asignaciones-0-valor": "5000",
        "asignaciones-1-proyecto": proyecto.pk,
        "asignaciones-1-area": otra.pk,
        "asignaciones-1-valor": "9999999",
        "actividades-TOTAL_FORMS": "0",
        "actividades-INITIAL_FORMS": "0",
    }
    respuesta = admin_client.post(url, base)
    assert respuesta.status_code == 200
    assert "superan el tope" in respuesta.content.decode()
    assert re.search(r"tope de la vigencia \(\$ [\d.]+,\d\d\)", respuesta.content.decode())
    base["asignaciones-1-valor"] = "100"
    base["asignaciones-0-valor"] = "900"  # below the 1010 certified
    respuesta = admin_client.post(url, base)
    assert respuesta.status_code == 200
    assert "certificado en CDP" in respuesta.content.decode()
    base["asignaciones-0-valor"] = "5000"
    assert admin_client.post(url, base).status_code == 302
    assert proyecto.asignaciones.count() == 2
