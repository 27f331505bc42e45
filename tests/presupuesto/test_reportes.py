"""Report definitions: only catalogued fields and operators, visible rows, a short preview."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.presupuesto import reportes
from apps.presupuesto.reportes import FichaInvalida
from tests.factories import AreaFactory, UserFactory
from tests.presupuesto.factories import cdp_expedido, celda, linea, rp_expedido

pytestmark = pytest.mark.django_db


@pytest.fixture
def datos():
    oap = AreaFactory(sigla="OAP")
    oti = AreaFactory(sigla="OTI")
    proyecto, _ = celda("10000", area=oap)
    celda("10000", area=oti, proyecto=proyecto)
    for valor in ("100", "200", "300"):
        cdp = cdp_expedido(proyecto, oap, valor, objeto=f"Consultoría de planeación {valor}")
        rp_expedido(cdp, valor)
    cdp_expedido(proyecto, oti, "5000", objeto="Licencias")
    linea(proyecto, oap, "50")
    return {
        "oap_user": UserFactory(areas=[oap]),
        "todas": UserFactory(permisos=["presupuesto.areas.todas"]),
    }


def test_preview_counts_visible_rows_and_samples_a_few(datos):
    ficha = {
        "fuente": "cdp",
        "titulo": "CDP grandes",
        "filtros": [{"campo": "valor_actual", "op": "gte", "valor": 200}],
        "formato": "csv",
    }
    todas = reportes.preparar(datos["todas"], ficha)
    assert todas["total_filas"] == 3
    assert todas["ficha"] == {
        "fuente": "cdp",
        "titulo": "CDP grandes",
        "formato": "csv",
        "filtros": [{"campo": "valor_actual", "op": "gte", "valor": Decimal("200")}],
    }
    propia = reportes.preparar(datos["oap_user"], ficha)
    assert propia["total_filas"] == 2
    assert {f["area"] for f in propia["muestra"]} == {"OAP"}
    assert set(propia["muestra"][0]) == set(reportes.FUENTES["cdp"].campos)


def test_text_filters_ignore_case_and_accents(datos):
    ficha = {
        "fuente": "cdp",
        "filtros": [
            {"campo": "objeto", "op": "contiene", "valor": "CONSULTORIA planeación"},
            {"campo": "area", "op": "eq", "valor": "oap"},
            {"campo": "estado", "op": "en", "valor": ["expedido", "agotado"]},
        ],
    }
    assert reportes.preparar(datos["todas"], ficha)["total_filas"] == 3


def test_between_and_not_equal(datos):
    ficha = {
        "fuente": "rp",
        "filtros": [
            {"campo": "valor_actual", "op": "entre", "valor": [100, 250]},
            {"campo": "numero", "op": "ne", "valor": "RP-2026-00001"},
        ],
    }
    assert reportes.preparar(datos["todas"], ficha)["total_filas"] == 1


def test_paa_source(datos):
    resultado = reportes.preparar(datos["oap_user"], {"fuente": "paa"})
    assert resultado["total_filas"] == 1
    assert resultado["ficha"]["titulo"] == "Líneas del Plan Anual de Adquisiciones (PAA)"
    assert resultado["muestra"][0]["mes_inicio"] == "2026-03-01"


@pytest.mark.parametrize(
    ("ficha", "ruta"),
    [
        ("no", "ficha"),
        ({"fuente": "nomina"}, "ficha.fuente"),
        ({"fuente": "cdp", "formato": "pdf"}, "ficha.formato"),
        ({"fuente": "cdp", "titulo": "x"}, "ficha.titulo"),
        ({"fuente": "cdp", "extra": 1}, "ficha.extra"),
        ({"fuente": "cdp", "filtros": "x"}, "ficha.filtros"),
        ({"fuente": "cdp", "filtros": [{"campo": "password"}]}, "ficha.filtros.0.campo"),
        (
            {"fuente": "rp", "filtros": [{"campo": "documento_beneficiario", "valor": "1"}]},
            "ficha.filtros.0.campo",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "saldo", "op": "contiene", "valor": 1}]},
            "ficha.filtros.0.op",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "saldo", "op": "gt", "valor": "mucho"}]},
            "ficha.filtros.0.valor",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "estado", "valor": "pagado"}]},
            "ficha.filtros.0.valor",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "saldo", "op": "entre", "valor": [1]}]},
            "ficha.filtros.0.valor",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "fecha_expedicion", "valor": "ayer"}]},
            "ficha.filtros.0.valor",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "vigencia", "valor": "99999999999"}]},
            "ficha.filtros.0.valor",
        ),
        (
            {"fuente": "cdp", "filtros": [{"campo": "area", "op": "eq", "valor": {"$ne": 1}}]},
            "ficha.filtros.0.valor",
        ),
    ],
)
def test_invalid_definitions_name_the_offending_path(datos, ficha, ruta):
    with pytest.raises(FichaInvalida) as error:
        reportes.preparar(datos["todas"], ficha)
    assert ruta in error.value.campos


def test_preview_costs_two_queries_whatever_the_volume(datos, django_assert_num_queries):
    from apps.cuentas.models import User

    usuario = User.objects.get(pk=datos["oap_user"].pk)
    usuario.has_perm("x")  # fill the permission cache first
    with django_assert_num_queries(2):
        reportes.preparar(usuario, {"fuente": "rp"})
