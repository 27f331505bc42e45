"""/solicitudes/: the list that finds requests with buscar_solicitudes' filters and scopes;
who sees what, each filter, paging, both sortings, bad input, and the same ids as the tool."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.solicitudes import services
from tests.factories import UserFactory
from tests.mcp_cliente import llamar, validador
from tests.solicitudes.factories import dos_tipos_con_radicados, fechar, persona

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
RUTA = "/solicitudes/"


@pytest.fixture
def escenario():
    """Two types; the owner files three requests and keeps a draft, someone else files one;
    filed on 1, 10 and 20 March (the other person's on 15 March)."""
    e = dos_tipos_con_radicados("LS", resumen_banco="Certificado banco")
    for nombre, dia in [("banco", "01"), ("embajada", "10"), ("viaje", "20"), ("ajena", "15")]:
        fechar(e[nombre], f"2026-03-{dia}")
    return e


def _ver(client, usuario, **parametros):
    client.force_login(usuario)
    return client.get(RUTA, parametros)


def _ids(respuesta) -> list[int]:
    return [s.pk for s in respuesta.context["pagina"].filas]


def _errores(respuesta) -> dict[str, list[str]]:
    return {c.nombre: c.errores for c in respuesta.context["campos"] if c.errores}


# --- who sees what ----------------------------------------------------------------------------


def test_an_anonymous_person_is_sent_to_sign_in(client):
    r = client.get(RUTA)
    assert r.status_code == 302
    assert r.headers["Location"] == "/cuentas/login/?next=/solicitudes/"


def test_the_owner_sees_what_they_filed_and_their_draft_newest_first(client, escenario):
    e = escenario
    r = _ver(client, e["dueno"])
    assert r.status_code == 200
    assert _ids(r) == [e["viaje"].pk, e["embajada"].pk, e["banco"].pk, e["borrador"].pk]
    assert e["viaje"].numero_radicado in r.content.decode()
    assert r.context["pagina"].total == 4


def test_a_colleague_with_ver_todas_sees_everything_filed_but_not_others_drafts(client, escenario):
    e = escenario
    colega = persona(permisos=["solicitudes.ver_todas", USAR])
    r = _ver(client, colega, alcance="todas")
    assert r.status_code == 200
    assert _ids(r) == [e["viaje"].pk, e["ajena"].pk, e["embajada"].pk, e["banco"].pk]
    assert _ids(_ver(client, colega, alcance="mias")) == []  # they filed nothing


def test_a_holder_of_ver_todas_sees_everything_by_default_and_the_page_says_so(client, escenario):
    e = escenario
    colega = persona(permisos=["solicitudes.ver_todas"])
    r = _ver(client, colega)
    assert r.status_code == 200
    assert _ids(r) == [e["viaje"].pk, e["ajena"].pk, e["embajada"].pk, e["banco"].pk]
    assert "Se muestran: <strong>todas las que usted puede ver</strong>." in r.content.decode()
    (alcance,) = [c for c in r.context["campos"] if c.nombre == "alcance"]
    assert alcance.opciones[0][0] == "todas"  # the select shows the scope in use
    assert r.context["lectura"].filtros_activos == 0  # the filters stay folded
    # A number from the inbox is found without touching the filters.
    r = _ver(client, colega, q=e["ajena"].numero_radicado)
    assert _ids(r) == [e["ajena"].pk]


def test_the_owner_without_ver_todas_keeps_their_filings_and_is_told_where_tasks_are(
    client, escenario
):
    r = _ver(client, escenario["dueno"], q="inexistente")
    cuerpo = r.content.decode()
    assert r.status_code == 200
    assert "Se muestran: <strong>las radicadas por usted</strong>." in cuerpo
    assert "No hay solicitudes con esos criterios entre las radicadas por usted." in cuerpo
    assert 'href="/solicitudes/tareas">Mis tareas</a>' in cuerpo


def test_an_outsider_sees_nothing_and_cannot_ask_for_all(client, escenario):
    extrano = UserFactory()
    assert _ids(_ver(client, extrano)) == []
    r = _ver(client, extrano, alcance="todas")
    assert r.status_code == 400
    assert _errores(r) == {
        "alcance": [
            "Usted no tiene permiso para ver todas las solicitudes; "
            "elija «Las radicadas por usted»."
        ]
    }
    assert r.context["pagina"] is None
    assert escenario["ajena"].numero_radicado not in r.content.decode()


def test_only_a_holder_of_ver_todas_is_offered_all(client, escenario):
    r = _ver(client, escenario["dueno"])
    (alcance,) = [c for c in r.context["campos"] if c.nombre == "alcance"]
    assert alcance.opciones == [("mias", "Las radicadas por usted")]
    r = _ver(client, persona(permisos=["solicitudes.ver_todas"]))
    (alcance,) = [c for c in r.context["campos"] if c.nombre == "alcance"]
    assert [v for v, _ in alcance.opciones] == ["todas", "mias"]


# --- search and filters -----------------------------------------------------------------------


def test_q_finds_every_word_without_accents_in_summary_number_or_type(client, escenario):
    e = escenario
    assert _ids(_ver(client, e["dueno"], q="medellin")) == [e["viaje"].pk]
    assert _ids(_ver(client, e["dueno"], q="CERTIFICADO embajada")) == [e["embajada"].pk]
    assert _ids(_ver(client, e["dueno"], q=e["banco"].numero_radicado)) == [e["banco"].pk]
    assert _ids(_ver(client, e["dueno"], q="desplazamientos")) == [e["viaje"].pk]


def test_the_state_filter(client, escenario):
    e = escenario
    assert _ids(_ver(client, e["dueno"], estado="borrador")) == [e["borrador"].pk]
    assert _ids(_ver(client, e["dueno"], estado="en_tramite")) == []


def test_the_type_filter_takes_the_code_offered_in_its_select(client, escenario):
    e = escenario
    r = _ver(client, e["dueno"], tipo="via-ls")
    assert _ids(r) == [e["viaje"].pk]
    (tipo,) = [c for c in r.context["campos"] if c.nombre == "tipo"]
    assert ("via-ls", "Viáticos y desplazamientos LS") in tipo.opciones
    assert tipo.tipo == "opciones"


def test_the_filing_dates_include_both_days(client, escenario):
    e = escenario
    r = _ver(client, e["dueno"], desde="2026-03-10", hasta="2026-03-20")
    assert _ids(r) == [e["viaje"].pk, e["embajada"].pk]
    assert _ids(_ver(client, e["dueno"], hasta="2026-03-01")) == [e["banco"].pk]


def test_both_sortings_in_both_directions(client, escenario):
    e = escenario
    antiguas = _ids(_ver(client, e["dueno"], orden="antiguas"))
    assert antiguas == [e["banco"].pk, e["embajada"].pk, e["viaje"].pk, e["borrador"].pk]
    por_numero = sorted([e["banco"], e["embajada"], e["viaje"]], key=lambda s: s.numero_radicado)
    assert _ids(_ver(client, e["dueno"], orden="numero")) == [
        *(s.pk for s in por_numero),
        e["borrador"].pk,
    ]
    assert _ids(_ver(client, e["dueno"], orden="-numero")) == [
        *(s.pk for s in reversed(por_numero)),
        e["borrador"].pk,
    ]


def test_paging_keeps_the_filters_and_a_page_out_of_range_shows_the_last(client, escenario):
    e = escenario
    for i in range(22):
        services.radicar(tipo=e["certificado"], solicitante=e["dueno"], resumen=f"Lote {i}")
    r = _ver(client, e["dueno"], q="lote", orden="numero")
    pagina = r.context["pagina"]
    assert (pagina.total, pagina.numero, pagina.paginas, len(pagina.filas)) == (22, 1, 2, 20)
    assert pagina.siguiente == "?q=lote&orden=numero&pagina=2"
    assert pagina.anterior is None
    segunda = _ver(client, e["dueno"], q="lote", orden="numero", pagina="2").context["pagina"]
    assert len(segunda.filas) == 2 and segunda.anterior == "?q=lote&orden=numero&pagina=1"
    assert not {s.pk for s in segunda.filas} & {s.pk for s in pagina.filas}
    lejos = _ver(client, e["dueno"], q="lote", orden="numero", pagina="99")
    assert lejos.status_code == 200
    assert lejos.context["pagina"].numero == 2
    assert _ids(lejos) == [s.pk for s in segunda.filas]
    enorme = _ver(client, e["dueno"], q="lote", orden="numero", pagina="9" * 40)
    assert enorme.status_code == 200 and enorme.context["pagina"].numero == 2
    for raro in ("abc", "0", "-3", "-" + "9" * 40, "1.5"):
        r = _ver(client, e["dueno"], q="lote", pagina=raro)
        assert r.status_code == 200 and r.context["pagina"].numero == 1


# --- bad input --------------------------------------------------------------------------------


def test_a_bad_date_is_a_form_error_beside_its_field(client, escenario):
    r = _ver(client, escenario["dueno"], desde="2026-02-30")
    assert r.status_code == 400
    assert _errores(r) == {
        "desde": ["Escriba una fecha válida como AAAA-MM-DD, por ejemplo 2026-03-01."]
    }
    assert r.context["pagina"] is None
    assert "Corrija los datos de la búsqueda" in r.content.decode()


def test_hasta_before_desde_is_an_error_on_hasta(client, escenario):
    r = _ver(client, escenario["dueno"], desde="2026-03-20", hasta="2026-03-01")
    assert r.status_code == 400
    assert _errores(r) == {"hasta": ["Debe ser igual o posterior a desde."]}


def test_an_unknown_state_is_an_error_and_an_unknown_sort_falls_back_with_a_notice(
    client, escenario
):
    r = _ver(client, escenario["dueno"], estado="perdido")
    assert r.status_code == 400 and list(_errores(r)) == ["estado"]
    for malo in ({"tipo": "\x00"}, {"desde": "\x00"}, {"alcance": "\x00"}, {"q": "viaje\x00"}):
        r = _ver(client, escenario["dueno"], **malo)
        assert r.status_code == 400 and list(_errores(r)) == [next(iter(malo))]
    r = _ver(client, escenario["dueno"], orden="color")
    assert r.status_code == 200
    assert r.context["errores"] == [
        "No se reconoce el orden pedido; se muestra «Más recientes primero»."
    ]
    assert r.context["pagina"].total == 4


# --- the same as the tool, at a fixed number of queries ---------------------------------------


@pytest.mark.parametrize(
    "parametros",
    [
        {},
        {"q": "certificado"},
        {"estado": "radicado", "desde": "2026-03-05"},
        {"tipo": "cert-ls", "alcance": "todas"},
    ],
)
def test_the_page_and_buscar_solicitudes_give_the_same_ids(client, como, escenario, parametros):
    colega = persona(permisos=["solicitudes.ver_todas", "solicitudes.radicar", USAR])
    services.radicar(tipo=escenario["certificado"], solicitante=colega, resumen="Certificado mío")
    argumentos = {("texto" if k == "q" else k): v for k, v in parametros.items()}
    # The page's default scope for a holder of ver_todas is todas; the tool's stays mias.
    argumentos.setdefault("alcance", "todas")
    datos = validador("buscar_solicitudes")(
        llamar(client, "buscar_solicitudes", {**argumentos, "limite": 20}, **como(colega))
    )
    herramienta = [i["id_solicitud"] for i in datos["solicitudes"]]
    pagina = _ver(client, colega, **parametros)
    assert _ids(pagina) == herramienta
    assert pagina.context["pagina"].total == datos["total"]
    assert herramienta  # the comparison is not between two empty lists


def _consultas(client, usuario, **parametros) -> int:
    client.force_login(usuario)
    client.get(RUTA, parametros)  # the session and the brand warm up
    with CaptureQueriesContext(connection) as capturadas:
        assert client.get(RUTA, parametros).status_code == 200
    return len(capturadas)


def test_the_number_of_queries_does_not_grow_with_the_rows(
    client, escenario, django_assert_num_queries
):
    e = escenario
    parametros = {"q": "lote", "alcance": "todas", "orden": "numero"}
    colega = persona(permisos=["solicitudes.ver_todas"])
    services.radicar(tipo=e["certificado"], solicitante=e["otra"], resumen="Lote uno")
    pocas = _consultas(client, colega, **parametros)
    for i in range(30):
        services.radicar(tipo=e["certificado"], solicitante=e["otra"], resumen=f"Lote {i}")
    for pagina in ("1", "2"):
        with django_assert_num_queries(pocas):
            assert client.get(RUTA, {**parametros, "pagina": pagina}).status_code == 200
