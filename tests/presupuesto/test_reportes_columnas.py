"""Report definitions: chosen columns and sort order, and the builder link that carries a ficha."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.presupuesto import reportes
from apps.presupuesto.reportes import FichaInvalida
from tests.factories import AreaFactory, UserFactory
from tests.presupuesto.factories import cdp_expedido, celda

pytestmark = pytest.mark.django_db


@pytest.fixture
def todas():
    oap = AreaFactory(sigla="OAP")
    proyecto, _ = celda("10000", area=oap)
    for valor in ("300", "100", "200"):
        cdp_expedido(proyecto, oap, valor, objeto=f"Objeto {valor}")
    return UserFactory(permisos=["presupuesto.areas.todas"])


def test_columns_limit_and_order_the_sample(todas):
    vista = reportes.preparar(
        todas, {"fuente": "cdp", "columnas": ["valor_actual", "numero"], "orden": ["-valor_actual"]}
    )
    assert [c["campo"] for c in vista["columnas"]] == ["valor_actual", "numero"]
    assert [list(f) for f in vista["muestra"]] == [["valor_actual", "numero"]] * 3
    assert [f["valor_actual"] for f in vista["muestra"]] == [
        Decimal("300.00"),
        Decimal("200.00"),
        Decimal("100.00"),
    ]
    assert vista["ficha"]["columnas"] == ["valor_actual", "numero"]
    assert vista["ficha"]["orden"] == ["-valor_actual"]


def test_ascending_order_and_default_order(todas):
    asc = reportes.preparar(todas, {"fuente": "cdp", "orden": ["valor_actual"]})
    assert [f["valor_actual"] for f in asc["muestra"]] == [
        Decimal("100.00"),
        Decimal("200.00"),
        Decimal("300.00"),
    ]
    defecto = reportes.preparar(todas, {"fuente": "cdp"})
    assert [f["numero"] for f in defecto["muestra"]] == [
        "CDP-2026-00001",
        "CDP-2026-00002",
        "CDP-2026-00003",
    ]
    assert "columnas" not in defecto["ficha"] and "orden" not in defecto["ficha"]


@pytest.mark.parametrize(
    ("ficha", "ruta"),
    [
        ({"fuente": "cdp", "columnas": []}, "ficha.columnas"),
        ({"fuente": "cdp", "columnas": "numero"}, "ficha.columnas"),
        ({"fuente": "cdp", "columnas": ["numero"] * 14}, "ficha.columnas"),
        ({"fuente": "cdp", "columnas": ["numero", "numero"]}, "ficha.columnas.1"),
        ({"fuente": "cdp", "columnas": ["beneficiario"]}, "ficha.columnas.0"),
        ({"fuente": "cdp", "columnas": [3]}, "ficha.columnas.0"),
        ({"fuente": "cdp", "orden": []}, "ficha.orden"),
        ({"fuente": "cdp", "orden": ["numero", "saldo", "area", "estado"]}, "ficha.orden"),
        ({"fuente": "cdp", "orden": ["-clave"]}, "ficha.orden.0"),
        ({"fuente": "cdp", "orden": ["numero", "-numero"]}, "ficha.orden.1"),
        ({"fuente": "cdp", "orden": [None]}, "ficha.orden.0"),
    ],
)
def test_invalid_columns_or_order_name_the_path(todas, ficha, ruta):
    with pytest.raises(FichaInvalida) as error:
        reportes.preparar(todas, ficha)
    assert ruta in error.value.campos


def test_the_builder_link_round_trips_the_normalized_ficha(todas):
    ficha = reportes.validar_ficha(
        {
            "fuente": "rp",
            "titulo": "Pagos de Ñoño",
            "filtros": [{"campo": "valor_actual", "op": "entre", "valor": [0.1, "2000.55"]}],
            "orden": ["-valor_actual"],
        }
    )
    enlace = reportes.enlace_constructor(ficha.como_dict())
    assert enlace.startswith("/presupuesto/reportes/constructor?ficha=")
    codigo = enlace.split("=", 1)[1]
    assert "=" not in codigo
    assert reportes.ficha_de_enlace(codigo).como_dict() == ficha.como_dict()
    assert reportes.ficha_canonica(ficha.como_dict()).startswith(
        b'{"filtros":[{"campo":"valor_actual"'
    )
    assert b'"valor":[0.1,2000.55]' in reportes.ficha_canonica(ficha.como_dict())


@pytest.mark.parametrize("codigo", ["%%%", "bm8", "eyJmdWVudGUiOiJ4In0"])
def test_a_broken_or_invalid_link_is_refused(codigo):
    with pytest.raises(FichaInvalida):
        reportes.ficha_de_enlace(codigo)
