"""/presupuesto/cdp/, rp/ and paa/: lists that find, with the budget tools' visibility, word
search and area filter; who sees what, each filter, paging, sortings, bad input, and the same
documents as busqueda_global."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.presupuesto.models import Cdp, LineaPaa
from tests.factories import AreaFactory, UserFactory
from tests.mcp_cliente import llamar, validador
from tests.presupuesto.factories import asignacion, cdp_expedido, celda, linea, rp_expedido

pytestmark = pytest.mark.django_db

CONSULTAR = "presupuesto.planeacion.consultar"
USAR = "mcp.asistente.usar"


def _fechar(modelo, fila, dia: str) -> None:
    modelo.objects.filter(pk=fila.pk).update(fecha_expedicion=datetime.date.fromisoformat(dia))


@pytest.fixture
def mundo():
    """Three CDP in OAP (one with an RP), one in OAJ; PAA lines in both; four people."""
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oaj = AreaFactory(sigla="OAJ", nombre="Oficina Asesora Jurídica")
    proyecto, _ = celda("100000", area=oap)
    asignacion(proyecto, oaj, "100000")
    anio = proyecto.vigencia.anio
    uno = cdp_expedido(proyecto, oap, "1000", objeto="Apoyo jurídico a la planeación")
    dos = cdp_expedido(proyecto, oap, "2000", objeto="Viáticos a Cartagena")
    tres = cdp_expedido(proyecto, oap, "3000", objeto="Papelería y útiles")
    ajeno = cdp_expedido(proyecto, oaj, "4000", objeto="Viáticos a Cartagena jurídica")
    _fechar(Cdp, uno, f"{anio}-02-01")
    _fechar(Cdp, dos, f"{anio}-03-01")
    _fechar(Cdp, tres, f"{anio}-01-15")
    _fechar(Cdp, ajeno, f"{anio}-02-10")
    rp = rp_expedido(dos, "500", beneficiario="María Fernanda Ruiz")
    rp_ajeno = rp_expedido(ajeno, "600", beneficiario="Juan Pérez")
    lineas = [
        linea(proyecto, oap, "700", mes=datetime.date(anio, 5, 1), objeto="Servicios de aseo"),
        linea(proyecto, oap, "800", mes=datetime.date(anio, 2, 1), objeto="Viáticos a Cartagena"),
        linea(proyecto, oaj, "900", mes=datetime.date(anio, 3, 1), objeto="Asesoría jurídica"),
    ]
    return {
        "anio": anio,
        "cdps": [uno, dos, tres],
        "ajeno": ajeno,
        "rp": rp,
        "rp_ajeno": rp_ajeno,
        "lineas": lineas,
        "duena": UserFactory(areas=[oap], permisos=[CONSULTAR, USAR]),
        "colega": UserFactory(areas=[oaj], permisos=[CONSULTAR, "presupuesto.areas.todas", USAR]),
        "ajena": UserFactory(areas=[oaj], permisos=[CONSULTAR]),
        "sin_permiso": UserFactory(areas=[oap]),
    }


def _ver(client, usuario, lista: str, **parametros):
    client.force_login(usuario)
    return client.get(f"/presupuesto/{lista}/", parametros)


def _ids(respuesta) -> list[int]:
    return [f.pk for f in respuesta.context["pagina"].filas]


def _errores(respuesta) -> dict[str, list[str]]:
    return {c.nombre: c.errores for c in respuesta.context["campos"] if c.errores}


# --- who sees what ----------------------------------------------------------------------------


@pytest.mark.parametrize("lista", ["cdp", "rp", "paa"])
def test_an_anonymous_person_is_sent_to_sign_in(client, lista):
    r = client.get(f"/presupuesto/{lista}/")
    assert r.status_code == 302
    assert r.headers["Location"] == f"/cuentas/login/?next=/presupuesto/{lista}/"


def test_the_owner_sees_her_areas_cdp_by_number_newest_first(client, mundo):
    uno, dos, tres = mundo["cdps"]
    r = _ver(client, mundo["duena"], "cdp")
    assert r.status_code == 200
    assert _ids(r) == [tres.pk, dos.pk, uno.pk]
    html = r.content.decode()
    assert tres.numero in html and mundo["ajeno"].numero not in html
    assert '<span class="cifra">$ 3.000,00</span>' in html


def test_a_colleague_with_areas_todas_sees_every_area(client, mundo):
    r = _ver(client, mundo["colega"], "cdp")
    assert set(_ids(r)) == {c.pk for c in [*mundo["cdps"], mundo["ajeno"]]}
    assert set(_ids(_ver(client, mundo["colega"], "rp"))) == {mundo["rp"].pk, mundo["rp_ajeno"].pk}
    assert len(_ids(_ver(client, mundo["colega"], "paa"))) == 3


def test_an_outsider_sees_only_her_area_and_someone_without_the_permission_nothing(client, mundo):
    assert _ids(_ver(client, mundo["ajena"], "cdp")) == [mundo["ajeno"].pk]
    assert _ids(_ver(client, mundo["ajena"], "rp")) == [mundo["rp_ajeno"].pk]
    assert _ids(_ver(client, mundo["ajena"], "paa")) == [mundo["lineas"][2].pk]
    for lista in ("cdp", "rp", "paa"):
        r = _ver(client, mundo["sin_permiso"], lista)
        assert r.status_code == 200 and _ids(r) == []


def test_the_area_select_offers_only_the_visible_areas(client, mundo):
    (area,) = [
        c for c in _ver(client, mundo["ajena"], "cdp").context["campos"] if c.nombre == "area"
    ]
    assert area.opciones == [("OAJ", "OAJ · Oficina Asesora Jurídica")]
    assert area.tipo == "opciones" and area.vacio == "Todas"


# --- search and filters -----------------------------------------------------------------------


def test_q_searches_number_and_object_without_accents(client, mundo):
    uno, dos, _ = mundo["cdps"]
    assert _ids(_ver(client, mundo["duena"], "cdp", q="viaticos cartagena")) == [dos.pk]
    assert _ids(_ver(client, mundo["duena"], "cdp", q=uno.numero)) == [uno.pk]
    assert _ids(_ver(client, mundo["duena"], "rp", q="maria ruiz")) == [mundo["rp"].pk]
    assert _ids(_ver(client, mundo["duena"], "paa", q="cartagena")) == [mundo["lineas"][1].pk]


def test_the_state_area_and_date_filters(client, mundo):
    uno, dos, _ = mundo["cdps"]
    colega = mundo["colega"]
    assert _ids(_ver(client, colega, "cdp", area="OAJ")) == [mundo["ajeno"].pk]
    assert _ids(_ver(client, colega, "cdp", estado="solicitado")) == []
    assert len(_ids(_ver(client, colega, "cdp", estado="expedido"))) == 4
    anio = mundo["anio"]
    r = _ver(client, mundo["duena"], "cdp", desde=f"{anio}-02-01", hasta=f"{anio}-03-01")
    assert _ids(r) == [dos.pk, uno.pk]
    r = _ver(client, mundo["duena"], "paa", desde=f"{anio}-04-01")
    assert _ids(r) == [mundo["lineas"][0].pk]
    assert _ids(_ver(client, colega, "paa", estado="aprobada", area="OAP")) == [
        mundo["lineas"][0].pk,
        mundo["lineas"][1].pk,
    ]


def test_both_sortings_in_both_directions(client, mundo):
    uno, dos, tres = mundo["cdps"]
    duena = mundo["duena"]
    assert _ids(_ver(client, duena, "cdp", orden="numero")) == [uno.pk, dos.pk, tres.pk]
    assert _ids(_ver(client, duena, "cdp", orden="recientes")) == [dos.pk, uno.pk, tres.pk]
    assert _ids(_ver(client, duena, "cdp", orden="antiguas")) == [tres.pk, uno.pk, dos.pk]
    aseo, viaticos, _ = mundo["lineas"]
    assert _ids(_ver(client, duena, "paa", orden="recientes")) == [aseo.pk, viaticos.pk]
    assert _ids(_ver(client, duena, "paa", orden="antiguas")) == [viaticos.pk, aseo.pk]
    assert _ids(_ver(client, duena, "paa")) == sorted(
        [aseo.pk, viaticos.pk], key=lambda pk: LineaPaa.objects.get(pk=pk).numero
    )


def test_paging_and_a_page_out_of_range(client, mundo):
    proyecto = mundo["cdps"][0].proyecto
    area = mundo["cdps"][0].area
    for i in range(21):
        cdp_expedido(proyecto, area, "10", objeto=f"Lote de prueba {i}")
    r = _ver(client, mundo["duena"], "cdp", q="lote", orden="numero")
    pagina = r.context["pagina"]
    assert (pagina.total, pagina.paginas, len(pagina.filas)) == (21, 2, 20)
    assert pagina.siguiente == "?q=lote&orden=numero&pagina=2"
    lejos = _ver(client, mundo["duena"], "cdp", q="lote", orden="numero", pagina="7")
    assert lejos.status_code == 200
    assert lejos.context["pagina"].numero == 2 and len(lejos.context["pagina"].filas) == 1


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("lista", ["cdp", "rp", "paa"])
def test_bad_dates_and_states_are_form_errors_and_an_unknown_sort_falls_back(client, mundo, lista):
    duena = mundo["duena"]
    r = _ver(client, duena, lista, desde="ayer")
    assert r.status_code == 400 and list(_errores(r)) == ["desde"]
    r = _ver(client, duena, lista, desde="2026-03-02", hasta="2026-03-01")
    assert r.status_code == 400
    assert _errores(r) == {"hasta": ["Debe ser igual o posterior a desde."]}
    r = _ver(client, duena, lista, estado="cualquiera")
    assert r.status_code == 400 and list(_errores(r)) == ["estado"]
    for malo in ({"q": "viaje\x00"}, {"area": "\x00"}, {"q": "x" * 121}):
        r = _ver(client, duena, lista, **malo)
        assert r.status_code == 400 and list(_errores(r)) == [next(iter(malo))]
    r = _ver(client, duena, lista, orden="valor")
    assert r.status_code == 200 and len(r.context["errores"]) == 1
    assert "Corrija" not in r.content.decode()


def test_an_area_the_person_cannot_see_is_an_error_beside_the_field(client, mundo):
    r = _ver(client, mundo["duena"], "cdp", area="OAJ")
    assert r.status_code == 400
    assert _errores(r) == {"area": ["Ningún área visible coincide con «OAJ»."]}
    assert mundo["ajeno"].numero not in r.content.decode()


# --- the same as the tool, at a fixed number of queries ---------------------------------------


@pytest.mark.parametrize("texto", ["cartagena", "viaticos", "apoyo"])
def test_the_pages_and_busqueda_global_find_the_same_documents(client, como, mundo, texto):
    for persona in ("duena", "colega"):
        usuario = mundo[persona]
        datos = validador("busqueda_global")(
            llamar(
                client,
                "busqueda_global",
                {"texto": texto, "ambitos": ["presupuesto"], "limite": 10},
                **como(usuario),
            )
        )["presupuesto"]
        herramienta = {(i["tipo"], i["enlace"]) for i in datos["resultados"]}
        paginas = {
            (lista, f.enlace)
            for lista in ("cdp", "rp")
            for f in _ver(client, usuario, lista, q=texto).context["pagina"].filas
        }
        assert paginas == herramienta
        assert datos["total"] == len(paginas)


@pytest.mark.parametrize("lista", ["cdp", "rp", "paa"])
def test_the_number_of_queries_does_not_grow_with_the_rows(
    client, mundo, lista, django_assert_num_queries
):
    colega = mundo["colega"]
    parametros = {"q": "lote", "orden": "recientes", "area": "OAP"}

    def contar() -> int:
        client.force_login(colega)
        client.get(f"/presupuesto/{lista}/", parametros)
        with CaptureQueriesContext(connection) as capturadas:
            assert client.get(f"/presupuesto/{lista}/", parametros).status_code == 200
        return len(capturadas)

    uno = mundo["cdps"][0]
    cdp = cdp_expedido(uno.proyecto, uno.area, "10", objeto="Lote inicial")
    rp_expedido(cdp, "1", objeto="Lote inicial")
    linea(uno.proyecto, uno.area, "1", objeto="Lote inicial")
    pocas = contar()
    for i in range(25):
        cdp = cdp_expedido(uno.proyecto, uno.area, "10", objeto=f"Lote {i}")
        rp_expedido(cdp, "1", objeto=f"Lote {i}")
        linea(uno.proyecto, uno.area, "1", objeto=f"Lote {i}")
    with django_assert_num_queries(pocas):
        assert client.get(f"/presupuesto/{lista}/", parametros).status_code == 200


def test_the_paa_page_of_a_month_and_resumen_ejecutivo_agree(client, como, mundo):
    anio = mundo["anio"]
    for persona, mes in (("duena", 5), ("duena", 2), ("duena", 3), ("colega", 3)):
        usuario = mundo[persona]
        datos = validador("resumen_ejecutivo")(
            llamar(
                client,
                "resumen_ejecutivo",
                {"ambito": "paa_mes", "mes": f"{anio}-{mes:02d}"},
                **como(usuario),
            )
        )
        ultimo = (datetime.date(anio, mes + 1, 1) - datetime.timedelta(days=1)).isoformat()
        r = _ver(client, usuario, "paa", desde=f"{anio}-{mes:02d}-01", hasta=ultimo)
        assert r.context["pagina"].total == datos["cantidad"] == len(datos["mayores"])
        assert {f.enlace for f in r.context["pagina"].filas} == {
            m["enlace"] for m in datos["mayores"]
        }
