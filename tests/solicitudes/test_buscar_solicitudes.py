"""buscar_solicitudes: the caller's filed requests (or all they may see with ver_todas),
filtered by text, state, type and dates, newest first, at a fixed number of queries."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.solicitudes import services
from hub.herramientas.registro import registro
from tests.busqueda import CAMPOS_SOLICITUD
from tests.factories import UserFactory, dar_permisos
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.solicitudes.factories import dos_tipos_con_radicados, fechar, persona

pytestmark = pytest.mark.django_db

USAR = "mcp.asistente.usar"
FECHA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")


@pytest.fixture
def escenario():
    """Two types; the owner files three requests and a draft, someone else files one."""
    return dos_tipos_con_radicados("BS", resumen_banco="Certificado\u200b para el banco\u202e")


def _buscar(client, cabeceras, **argumentos):
    return llamar(client, "buscar_solicitudes", argumentos, **cabeceras)


_valida = validador("buscar_solicitudes")


def _numeros(datos) -> list:
    return [i["numero_radicado"] for i in datos["solicitudes"]]


# --- identity and permission ------------------------------------------------------------------


def test_with_the_api_key_alone_it_is_sin_identidad(client, clave, escenario):
    error_herramienta(_buscar(client, clave), "SIN_IDENTIDAD")


def test_a_person_without_request_permissions_gets_sin_permiso(client, como):
    error_herramienta(_buscar(client, como(UserFactory(permisos=[USAR]))), "SIN_PERMISO")


@pytest.mark.parametrize(
    "permiso", ["solicitudes.bandeja.ver", "solicitudes.radicar", "solicitudes.ver_todas"]
)
def test_any_of_the_three_request_permissions_is_enough(client, como, escenario, permiso):
    datos = _valida(_buscar(client, como(UserFactory(permisos=[USAR, permiso]))))
    assert datos == {"alcance": "mias", "total": 0, "mostradas": 0, "solicitudes": []}


def test_the_tool_is_listed_read_only_with_its_schemas(client, como, escenario):
    herramientas = {
        t["name"]: t
        for t in rpc(client, "tools/list", **como(escenario["dueno"])).resultado["tools"]
    }
    h = herramientas["buscar_solicitudes"]
    assert h["annotations"]["readOnlyHint"] is True
    assert h["annotations"]["destructiveHint"] is False
    assert h["outputSchema"] == registro.obtener("buscar_solicitudes").esquema_salida
    propiedades = h["inputSchema"]["properties"]
    assert propiedades["limite"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 30,
        "description": "Cuántas solicitudes mostrar.",
        "default": 10,
    }
    assert propiedades["alcance"]["enum"] == ["mias", "todas"]
    assert propiedades["alcance"]["default"] == "mias"
    assert len(propiedades["estado"]["enum"]) == 8
    assert propiedades["texto"]["maxLength"] == 120
    assert propiedades["tipo"]["maxLength"] == 80
    assert "required" not in h["inputSchema"]


# --- the three sides of visibility ---------------------------------------------------------------


def test_by_default_the_owner_gets_what_they_filed_newest_first(client, como, escenario):
    r = _buscar(client, como(escenario["dueno"]))
    datos = _valida(r)
    assert datos["alcance"] == "mias"
    assert datos["total"] == 4 and datos["mostradas"] == 4
    # Newest filing first; the draft (no filing date) last.
    assert _numeros(datos) == [
        escenario["viaje"].numero_radicado,
        escenario["embajada"].numero_radicado,
        escenario["banco"].numero_radicado,
        None,
    ]
    assert escenario["ajena"].numero_radicado not in _numeros(datos)
    texto = r.resultado["content"][0]["text"]
    assert "4 solicitud(es) radicadas por usted" in texto
    assert escenario["viaje"].numero_radicado in texto


def test_every_listed_field_has_its_type(client, como, escenario):
    datos = _valida(_buscar(client, como(escenario["dueno"]), texto="banco"))
    [item] = datos["solicitudes"]
    banco = escenario["banco"]
    assert set(item) == CAMPOS_SOLICITUD
    assert item == {
        "numero_radicado": banco.numero_radicado,
        "id_solicitud": banco.pk,
        "enlace": f"/solicitudes/{banco.pk}",
        "url": f"{settings.HUB_URL_PUBLICA}/solicitudes/{banco.pk}",
        "tipo": "Certificado laboral BS",
        "estado": "radicado",
        "etapa_actual": "Etapa 1 de Certificado laboral BS",
        "resumen": "Certificado para el banco",  # invisible characters removed
        "fecha_radicacion": timezone.localtime(banco.fecha_radicacion).strftime("%Y-%m-%d %H:%M"),
        "fecha_actualizacion": item["fecha_actualizacion"],
    }
    assert isinstance(item["id_solicitud"], int)
    assert FECHA.match(item["fecha_actualizacion"])
    assert isinstance(datos["total"], int) and isinstance(datos["mostradas"], int)


def test_the_owners_draft_has_no_number_and_says_so(client, como, escenario):
    datos = _valida(_buscar(client, como(escenario["dueno"]), estado="borrador"))
    [item] = datos["solicitudes"]
    assert item["numero_radicado"] is None
    assert item["id_solicitud"] == escenario["borrador"].pk
    assert item["etapa_actual"] == "Borrador (sin radicar)"
    assert FECHA.match(item["fecha_radicacion"])


def test_mias_does_not_include_requests_the_person_only_takes_part_in(client, como, escenario):
    revisora = persona(escenario["revision"], permisos=["solicitudes.bandeja.ver", USAR])
    services.comentar(solicitud=escenario["ajena"], autor=revisora, texto="Lo reviso")
    datos = _valida(_buscar(client, como(revisora)))
    assert datos["total"] == 0


def test_a_colleague_with_ver_todas_sees_everything_filed_with_todas(client, como, escenario):
    supervisora = UserFactory(permisos=[USAR, "solicitudes.ver_todas"])
    datos = _valida(_buscar(client, como(supervisora), alcance="todas"))
    assert datos["alcance"] == "todas"
    assert datos["total"] == 4  # three of the owner, one of the other person
    assert set(_numeros(datos)) == {
        escenario[k].numero_radicado for k in ("banco", "embajada", "viaje", "ajena")
    }
    assert None not in _numeros(datos)  # other people's drafts stay private


def test_a_colleague_with_ver_todas_and_mias_gets_only_their_own(client, como, escenario):
    supervisora = UserFactory(permisos=[USAR, "solicitudes.ver_todas"])
    assert _valida(_buscar(client, como(supervisora)))["total"] == 0


def test_an_outsider_sees_nothing_of_others_and_todas_is_sin_permiso(client, como, escenario):
    extrano = UserFactory(permisos=[USAR, "solicitudes.radicar", "solicitudes.bandeja.ver"])
    assert _valida(_buscar(client, como(extrano), texto="certificado"))["total"] == 0
    error = error_herramienta(_buscar(client, como(extrano), alcance="todas"), "SIN_PERMISO")
    assert "ver_todas" in error["mensaje"]


# --- filters ------------------------------------------------------------------------------------


def test_texto_matches_the_number_exactly_or_in_part(client, como, escenario):
    cabeceras = como(escenario["dueno"])
    numero = escenario["embajada"].numero_radicado
    assert _numeros(_valida(_buscar(client, cabeceras, texto=numero))) == [numero]
    assert _numeros(_valida(_buscar(client, cabeceras, texto=numero.lower()))) == [numero]
    parcial = _valida(_buscar(client, cabeceras, texto=numero[:8]))
    assert numero in _numeros(parcial)


def test_texto_matches_words_of_the_summary_without_accents_or_case(client, como, escenario):
    cabeceras = como(escenario["dueno"])
    datos = _valida(_buscar(client, cabeceras, texto="MEDELLIN viaje"))
    assert _numeros(datos) == [escenario["viaje"].numero_radicado]
    assert _valida(_buscar(client, cabeceras, texto="inexistente"))["total"] == 0


def test_an_empty_or_invisible_texto_does_not_filter(client, como, escenario):
    cabeceras = como(escenario["dueno"])
    assert _valida(_buscar(client, cabeceras, texto=""))["total"] == 4
    assert _valida(_buscar(client, cabeceras, texto="\u200b\u202e"))["total"] == 4


def test_estado_filters_by_state(client, como, escenario):
    services.anular(solicitud=escenario["viaje"], actor=escenario["dueno"], motivo="Ya no viajo")
    cabeceras = como(escenario["dueno"])
    datos = _valida(_buscar(client, cabeceras, estado="anulado"))
    assert _numeros(datos) == [escenario["viaje"].numero_radicado]
    assert datos["solicitudes"][0]["estado"] == "anulado"
    assert _valida(_buscar(client, cabeceras, estado="radicado"))["total"] == 2


def test_tipo_matches_the_code_or_part_of_the_name(client, como, escenario):
    cabeceras = como(escenario["dueno"])
    assert _numeros(_valida(_buscar(client, cabeceras, tipo="via-bs"))) == [
        escenario["viaje"].numero_radicado
    ]
    por_nombre = _valida(_buscar(client, cabeceras, tipo="viaticos"))
    assert _numeros(por_nombre) == [escenario["viaje"].numero_radicado]
    assert _valida(_buscar(client, cabeceras, tipo="CERTIFICADO"))["total"] == 3
    assert _valida(_buscar(client, cabeceras, tipo="no existe"))["total"] == 0


def test_desde_and_hasta_are_local_filing_days_both_included(client, como, escenario):
    fechar(escenario["banco"], "2026-01-10")
    fechar(escenario["embajada"], "2026-02-10")
    fechar(escenario["viaje"], "2026-03-10")
    cabeceras = como(escenario["dueno"])
    datos = _valida(_buscar(client, cabeceras, desde="2026-02-10", hasta="2026-03-09"))
    assert _numeros(datos) == [escenario["embajada"].numero_radicado]
    assert _valida(_buscar(client, cabeceras, desde="2026-02-11"))["total"] == 1
    assert _valida(_buscar(client, cabeceras, hasta="2026-01-10"))["total"] == 1
    mismo_dia = _valida(_buscar(client, cabeceras, desde="2026-03-10", hasta="2026-03-10"))
    assert _numeros(mismo_dia) == [escenario["viaje"].numero_radicado]


def test_desde_after_hasta_is_datos_invalidos(client, como, escenario):
    r = _buscar(client, como(escenario["dueno"]), desde="2026-03-02", hasta="2026-03-01")
    assert set(error_herramienta(r, "DATOS_INVALIDOS")["campos"]) == {"hasta"}


def test_filters_combine(client, como, escenario):
    cabeceras = como(escenario["dueno"])
    datos = _valida(
        _buscar(client, cabeceras, texto="certificado", tipo="cert-bs", estado="radicado")
    )
    assert set(_numeros(datos)) == {
        escenario["banco"].numero_radicado,
        escenario["embajada"].numero_radicado,
    }


# --- limite and argument bounds -----------------------------------------------------------------


def test_limite_defaults_to_ten_and_the_total_counts_everything(client, como, escenario):
    for i in range(8):
        services.radicar(
            tipo=escenario["viaticos"], solicitante=escenario["dueno"], resumen=f"Viaje número {i}"
        )
    r = _buscar(client, como(escenario["dueno"]))
    datos = _valida(r)
    assert datos["total"] == 12 and datos["mostradas"] == 10
    assert "se muestran las 10 más recientes" in r.resultado["content"][0]["text"]


@pytest.mark.parametrize("limite", [1, 30])
def test_limite_accepts_its_bounds(client, como, escenario, limite):
    datos = _valida(_buscar(client, como(escenario["dueno"]), limite=limite))
    assert datos["mostradas"] == min(limite, 4)
    assert datos["total"] == 4


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        ({"limite": 0}, "limite"),
        ({"limite": 31}, "limite"),
        ({"texto": "x" * 121}, "texto"),
        ({"tipo": "x" * 81}, "tipo"),
        ({"estado": "cerrado"}, "estado"),
        ({"alcance": "algunas"}, "alcance"),
        ({"desde": "2026-02-30"}, "desde"),
        ({"hasta": "ayer"}, "hasta"),
        ({"usuario": "otra"}, "usuario"),
    ],
)
def test_out_of_bounds_arguments_are_datos_invalidos(client, como, escenario, argumentos, campo):
    r = _buscar(client, como(escenario["dueno"]), **argumentos)
    assert campo in error_herramienta(r, "DATOS_INVALIDOS")["campos"]


def test_texto_and_tipo_accept_their_maximum_length(client, como, escenario):
    cabeceras = como(escenario["dueno"])
    assert _valida(_buscar(client, cabeceras, texto="x" * 120))["total"] == 0
    assert _valida(_buscar(client, cabeceras, tipo="x" * 80))["total"] == 0


# --- cost ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("alcance", ["mias", "todas"])
def test_the_cost_does_not_grow_with_the_data(
    client, como, escenario, django_assert_num_queries, alcance
):
    dueno = escenario["dueno"]
    dar_permisos(dueno, "solicitudes.ver_todas")
    cabeceras = como(dueno)
    argumentos = {"alcance": alcance, "texto": "certificado", "tipo": "cert", "limite": 30}
    _buscar(client, cabeceras, **argumentos)
    with CaptureQueriesContext(connection) as antes:
        primero = _valida(_buscar(client, cabeceras, **argumentos))
    for i in range(6):
        services.radicar(
            tipo=escenario["certificado"], solicitante=dueno, resumen=f"Certificado extra {i}"
        )
    with django_assert_num_queries(len(antes.captured_queries)):
        despues = _valida(_buscar(client, cabeceras, **argumentos))
    assert despues["mostradas"] == primero["mostradas"] + 6
