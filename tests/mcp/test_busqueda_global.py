"""busqueda_global: requests, current quality documents and CDP/RP, each with its visibility rule,
grouped by scope with links, at a fixed number of queries."""

from __future__ import annotations

import datetime
import re

import jsonschema
import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.calidad.models import Documento
from apps.presupuesto import services as presupuesto
from apps.solicitudes import services
from apps.solicitudes.models import Solicitud
from hub.herramientas.registro import registro
from tests.busqueda import CAMPOS_DOCUMENTO, CAMPOS_SOLICITUD, ESTADOS_SOLICITUD, vocabulario
from tests.calidad.factories import DocumentoFactory, ProcesoFactory
from tests.factories import AreaFactory, GroupFactory
from tests.mcp.factories import nuevo_token
from tests.mcp_cliente import error_herramienta, llamar, rpc, validador
from tests.presupuesto.factories import cdp_expedido, celda, rp_expedido
from tests.solicitudes.factories import persona, tipo_con_etapas

pytestmark = pytest.mark.django_db

FECHA_HORA = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
USAR = "mcp.asistente.usar"
PLANEACION = "presupuesto.planeacion.consultar"


def _buscar(client, cabeceras, **argumentos):
    return llamar(client, "busqueda_global", argumentos, **cabeceras)


_valida = validador("busqueda_global")


def _numeros(grupo: dict) -> set[str]:
    return {i.get("numero_radicado") or i.get("numero") for i in grupo["resultados"]}


@pytest.fixture
def mundo(clave):
    """Everything says "conectividad": two requests, quality documents, CDP/RP in two areas."""
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oaj = AreaFactory(sigla="OAJ", nombre="Oficina Asesora Jurídica")
    oci = AreaFactory(sigla="OCI", nombre="Oficina de Control Interno")
    revision, aprobacion = GroupFactory(name="Revisión G"), GroupFactory(name="Aprobación G")
    tipo = tipo_con_etapas(revision, aprobacion, codigo="soporte-ti", nombre="Soporte de TI")
    otro_tipo = tipo_con_etapas(revision, codigo="compras", nombre="Compras menores")

    duena = persona(
        username="duena", permisos=[USAR, "solicitudes.radicar", PLANEACION], areas=[oap]
    )
    vecino = persona(username="vecino", permisos=[USAR, "solicitudes.radicar"])
    revisor = persona(
        revision,
        username="revisor",
        permisos=[USAR, PLANEACION, "presupuesto.areas.todas"],
        areas=[oaj],
    )
    # As the demo's "Control interno" role: the audit scope, and every request to see in it.
    auditora = persona(
        username="auditora", permisos=[USAR, "solicitudes.auditoria.ver", "solicitudes.ver_todas"]
    )
    todo = persona(username="todo", permisos=[USAR, "solicitudes.ver_todas"])
    ajena = persona(username="ajena", permisos=[USAR, PLANEACION], areas=[oci])
    sin_presupuesto = persona(username="sinpres", permisos=[USAR], areas=[oap])

    propia = services.radicar(
        tipo=tipo, solicitante=duena, resumen="Soporte de conectividad\u200b para la sede norte"
    )
    del_vecino = services.radicar(
        tipo=otro_tipo, solicitante=vecino, resumen="Ampliar la conectividad rural"
    )
    services.avanzar(solicitud=del_vecino, actor=revisor)  # the last stage: aprobado
    services.radicar(tipo=tipo, solicitante=vecino, resumen="Cambio de impresora del piso 3")

    proceso = ProcesoFactory(sigla="GTI", nombre="Gestión de TI")
    guia = DocumentoFactory(
        codigo_publicado="GTI-GU-001",
        titulo="Guía de conectividad institucional",
        proceso=proceso,
        fecha_publicacion=datetime.date(2025, 2, 3),
    )
    DocumentoFactory(
        codigo_publicado="GTI-GU-099",
        titulo="Conectividad (borrador)",
        estado=Documento.Estado.BORRADOR,
        proceso=proceso,
    )
    DocumentoFactory(
        codigo_publicado="GTI-GU-000",
        titulo="Conectividad versión antigua",
        estado=Documento.Estado.OBSOLETO,
        proceso=proceso,
    )

    proyecto, _ = celda("50000", area=oap)
    presupuesto.asignar(proyecto=proyecto, area=oaj, valor="50000")
    cdp = cdp_expedido(proyecto, oap, "9000", objeto="Servicio de conectividad sede norte")
    rp = rp_expedido(cdp, "4000", beneficiario="Redes Andinas S.A.S.", objeto="Conectividad")
    cdp_juridica = cdp_expedido(proyecto, oaj, "1000", objeto="Conectividad del archivo jurídico")

    def como(usuario):
        return {**clave, "X-MCP-User-Token": nuevo_token(usuario)[1]}

    return {
        "tipo": tipo,
        "propia": propia,
        "del_vecino": del_vecino,
        "guia": guia,
        "cdp": cdp,
        "rp": rp,
        "cdp_juridica": cdp_juridica,
        "duena": como(duena),
        "revisor": como(revisor),
        "auditora": como(auditora),
        "todo": como(todo),
        "ajena": como(ajena),
        "sin_presupuesto": como(sin_presupuesto),
        "usuarios": {"duena": duena, "revisor": revisor},
    }


# --- the answer ------------------------------------------------------------------------------


def test_the_owner_finds_her_request_the_current_document_and_her_areas_cdp_rp(client, mundo):
    r = _buscar(client, mundo["duena"], texto="conectividad")
    datos = _valida(r)
    assert set(datos) == {"texto", "ambitos", "alcance", "solicitudes", "documentos", "presupuesto"}
    assert datos["texto"] == "conectividad"
    assert datos["ambitos"] == ["solicitudes", "documentos", "presupuesto"]
    assert datos["alcance"] == "mias"

    solicitudes = datos["solicitudes"]
    propia = mundo["propia"]
    assert (solicitudes["disponible"], solicitudes["total"], solicitudes["mostrados"]) == (
        True,
        1,
        1,
    )
    [item] = solicitudes["resultados"]
    assert set(item) == CAMPOS_SOLICITUD
    assert item["numero_radicado"] == propia.numero_radicado
    assert item["id_solicitud"] == propia.pk
    assert item["enlace"] == f"/solicitudes/{propia.pk}"
    assert item["tipo"] == "Soporte de TI"
    assert item["estado"] == "radicado"
    assert item["etapa_actual"] == "Etapa 1 de Soporte de TI"
    assert item["resumen"] == "Soporte de conectividad para la sede norte"  # cleaned
    assert FECHA_HORA.match(item["fecha_radicacion"])
    assert FECHA_HORA.match(item["fecha_actualizacion"])

    documentos = datos["documentos"]
    guia = mundo["guia"]
    assert (documentos["total"], documentos["mostrados"]) == (1, 1)
    [doc] = documentos["resultados"]
    assert set(doc) == CAMPOS_DOCUMENTO
    assert doc["codigo_publicado"] == "GTI-GU-001"
    assert doc["estado"] == "publicado"
    assert doc["fecha_publicacion"] == "2025-02-03"
    assert doc["enlace"] == f"/calidad/documentos/{guia.uid}"

    presupuesto_ = datos["presupuesto"]
    assert presupuesto_["disponible"] is True
    assert presupuesto_["total"] == 2
    por_tipo = {i["tipo"]: i for i in presupuesto_["resultados"]}
    assert por_tipo["cdp"]["numero"] == mundo["cdp"].numero
    assert por_tipo["cdp"]["enlace"] == f"/presupuesto/cdp/{mundo['cdp'].pk}"
    assert por_tipo["cdp"]["area"] == "OAP"
    assert por_tipo["rp"]["numero"] == mundo["rp"].numero
    assert por_tipo["rp"]["enlace"] == f"/presupuesto/rp/{mundo['rp'].pk}"
    assert por_tipo["rp"]["beneficiario"] == "Redes Andinas S.A.S."
    assert "documento_beneficiario" not in por_tipo["rp"]

    resumen = r.resultado["content"][0]["text"]
    assert propia.numero_radicado in resumen
    assert "GTI-GU-001" in resumen
    assert mundo["cdp"].numero in resumen


def test_search_ignores_accents_and_case_in_every_scope(client, mundo):
    datos = _valida(_buscar(client, mundo["duena"], texto="CONÉCTIVIDAD"))
    assert (
        datos["solicitudes"]["total"],
        datos["documentos"]["total"],
        datos["presupuesto"]["total"],
    ) == (1, 1, 2)


def test_a_request_number_finds_that_request(client, mundo):
    numero = mundo["propia"].numero_radicado
    datos = _valida(_buscar(client, mundo["duena"], texto=numero.lower()))
    assert _numeros(datos["solicitudes"]) == {numero}


def test_nothing_found_is_an_empty_group_not_an_error(client, mundo):
    datos = _valida(_buscar(client, mundo["duena"], texto="zzzz inexistente"))
    for ambito in ("solicitudes", "documentos", "presupuesto"):
        assert datos[ambito] == {
            "disponible": True,
            "total": 0,
            "mostrados": 0,
            "resultados": [],
        }


def test_only_the_chosen_scopes_are_searched_and_returned(client, mundo):
    datos = _valida(_buscar(client, mundo["duena"], texto="conectividad", ambitos=["documentos"]))
    assert datos["ambitos"] == ["documentos"]
    assert "solicitudes" not in datos and "presupuesto" not in datos
    datos = _valida(
        _buscar(
            client, mundo["duena"], texto="conectividad", ambitos=["presupuesto", "solicitudes"]
        )
    )
    assert datos["ambitos"] == ["solicitudes", "presupuesto"]  # canonical order
    assert "documentos" not in datos


# --- visibility, scope by scope ----------------------------------------------------------------


def test_mias_is_what_the_person_filed_even_for_those_who_may_see_more(client, mundo):
    propia = mundo["propia"].numero_radicado
    vistas = {
        quien: _numeros(_valida(_buscar(client, mundo[quien], texto="conectividad"))["solicitudes"])
        for quien in ("duena", "revisor", "todo", "ajena", "auditora")
    }
    assert vistas["duena"] == {propia}
    # The reviewer has the first one in his role's inbox and acted on the second, and `todo`
    # may see every request: neither filed any, so neither has requests of their own.
    assert vistas["revisor"] == set()
    assert vistas["todo"] == set()
    assert vistas["ajena"] == set()
    assert vistas["auditora"] == set()  # audit permission is for alcance=todas only


def test_mias_means_the_same_here_and_in_buscar_solicitudes(client, mundo):
    duena = mundo["usuarios"]["duena"]
    services.radicar(tipo=mundo["tipo"], solicitante=duena, resumen="Conectividad del piso 2")
    for quien in ("duena", "todo"):
        global_ = _valida(_buscar(client, mundo[quien], texto="conectividad"))["solicitudes"]
        filtradas = llamar(
            client, "buscar_solicitudes", {"texto": "conectividad"}, **mundo[quien]
        ).resultado["structuredContent"]
        assert global_["total"] == filtradas["total"], quien
        assert _numeros(global_) == {s["numero_radicado"] for s in filtradas["solicitudes"]}
    descripciones = {h.nombre: h.descripcion for h in registro}
    assert "radicó" in descripciones["busqueda_global"]
    assert "radicó" in descripciones["buscar_solicitudes"]


def test_alcance_todas_needs_the_audit_permission(client, mundo):
    propia, ajena = mundo["propia"].numero_radicado, mundo["del_vecino"].numero_radicado
    datos = _valida(_buscar(client, mundo["auditora"], texto="conectividad", alcance="todas"))
    assert datos["alcance"] == "todas"
    assert _numeros(datos["solicitudes"]) == {propia, ajena}
    for quien in ("duena", "revisor", "todo", "ajena"):
        r = _buscar(client, mundo[quien], texto="conectividad", alcance="todas")
        assert "alcance=mias" in error_herramienta(r, "SIN_PERMISO")["mensaje"]


def test_an_auditor_who_may_not_see_every_request_finds_only_those_she_can_open(
    client, clave, mundo
):
    # Without solicitudes.ver_todas she sees what she takes part in: here the common inbox of
    # her role holds the owner's request, not the neighbour's (already approved).
    revision = Group.objects.get(name="Revisión G")
    auditora = persona(
        revision, username="solo_auditoria", permisos=[USAR, "solicitudes.auditoria.ver"]
    )
    cabeceras = {**clave, "X-MCP-User-Token": nuevo_token(auditora)[1]}
    datos = _valida(_buscar(client, cabeceras, texto="conectividad", alcance="todas"))
    assert datos["alcance"] == "todas"
    assert _numeros(datos["solicitudes"]) == {mundo["propia"].numero_radicado}
    assert datos["solicitudes"]["total"] == 1
    client.force_login(auditora)
    assert client.get(mundo["propia"].enlace).status_code == 200
    assert client.get(mundo["del_vecino"].enlace).status_code == 404


def test_alcance_todas_is_refused_even_when_requests_are_not_searched(client, mundo):
    r = _buscar(
        client, mundo["duena"], texto="conectividad", alcance="todas", ambitos=["documentos"]
    )
    error_herramienta(r, "SIN_PERMISO")


def test_a_draft_is_found_only_by_its_author(client, mundo):
    borrador = services.crear_borrador(
        tipo=mundo["tipo"],
        solicitante=mundo["usuarios"]["duena"],
        resumen="Borrador sobre conectividad satelital",
    )
    propia = _valida(_buscar(client, mundo["duena"], texto="satelital"))["solicitudes"]
    [item] = propia["resultados"]
    assert item["numero_radicado"] is None
    assert item["id_solicitud"] == borrador.pk
    assert item["estado"] == "borrador"
    assert item["enlace"] == f"/solicitudes/{borrador.pk}"
    assert FECHA_HORA.match(item["fecha_radicacion"])  # when it was created
    todas = _valida(_buscar(client, mundo["auditora"], texto="satelital", alcance="todas"))
    assert todas["solicitudes"]["total"] == 0
    assert _valida(_buscar(client, mundo["todo"], texto="satelital"))["solicitudes"]["total"] == 0


def test_documents_are_the_current_published_ones_for_everyone(client, mundo):
    for quien in ("duena", "ajena", "auditora", "sin_presupuesto"):
        datos = _valida(_buscar(client, mundo[quien], texto="conectividad"))
        assert [d["codigo_publicado"] for d in datos["documentos"]["resultados"]] == ["GTI-GU-001"]


def test_budget_owner_colleague_with_all_areas_and_outsider(client, mundo):
    cdp, rp, juridica = mundo["cdp"].numero, mundo["rp"].numero, mundo["cdp_juridica"].numero
    vistas = {
        quien: _valida(_buscar(client, mundo[quien], texto="conectividad"))["presupuesto"]
        for quien in ("duena", "revisor", "ajena")
    }
    assert _numeros(vistas["duena"]) == {cdp, rp}
    assert _numeros(vistas["revisor"]) == {cdp, rp, juridica}  # presupuesto.areas.todas
    assert vistas["ajena"]["total"] == 0  # another area


def test_without_the_budget_permission_the_scope_is_unavailable(client, mundo):
    r = _buscar(client, mundo["sin_presupuesto"], texto="conectividad")
    datos = _valida(r)
    assert datos["presupuesto"] == {
        "disponible": False,
        "total": 0,
        "mostrados": 0,
        "resultados": [],
    }
    assert "Presupuesto: sin permiso" in r.resultado["content"][0]["text"]


# --- filters -----------------------------------------------------------------------------------


def test_request_filters_estado_tipo_and_dates(client, mundo):
    propia, ajena = mundo["propia"].numero_radicado, mundo["del_vecino"].numero_radicado
    auditora = mundo["auditora"]

    def numeros(**filtros):
        datos = _valida(_buscar(client, auditora, texto="conectividad", alcance="todas", **filtros))
        # Filters never touch the other scopes.
        assert datos["documentos"]["total"] == 1
        return _numeros(datos["solicitudes"])

    assert numeros(estado="aprobado") == {ajena}
    assert numeros(estado="radicado") == {propia}
    assert numeros(estado="anulado") == set()
    assert numeros(tipo="soporte-ti") == {propia}
    assert numeros(tipo="compras") == {ajena}
    Solicitud.objects.filter(pk=mundo["del_vecino"].pk).update(
        fecha_radicacion=timezone.make_aware(datetime.datetime(2025, 1, 15, 10, 0))
    )
    hoy = timezone.localdate()
    assert numeros(desde="2025-01-15", hasta="2025-01-15") == {ajena}
    assert numeros(hasta="2025-01-14") == set()
    assert numeros(desde=hoy.isoformat()) == {propia}
    assert numeros(desde="2025-01-01", hasta=hoy.isoformat()) == {propia, ajena}


def test_the_limit_is_per_scope_and_the_total_stays(client, mundo):
    duena = mundo["usuarios"]["duena"]
    for i in range(4):
        services.radicar(tipo=mundo["tipo"], solicitante=duena, resumen=f"Conectividad extra {i}")
    datos = _valida(_buscar(client, mundo["duena"], texto="conectividad", limite=2))
    assert (datos["solicitudes"]["total"], datos["solicitudes"]["mostrados"]) == (5, 2)
    assert len(datos["solicitudes"]["resultados"]) == 2
    assert (datos["presupuesto"]["total"], datos["presupuesto"]["mostrados"]) == (2, 2)
    assert (
        _valida(_buscar(client, mundo["duena"], texto="conectividad"))["solicitudes"]["mostrados"]
        == 5
    )
    uno = _valida(_buscar(client, mundo["duena"], texto="conectividad", limite=1))
    assert [uno[a]["mostrados"] for a in ("solicitudes", "documentos", "presupuesto")] == [1, 1, 1]


# --- arguments ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        ({"texto": "a"}, "texto"),
        ({"texto": "a" * 121}, "texto"),
        ({"texto": "\u200b\u200b"}, "texto"),
        ({"texto": "--"}, "texto"),
        ({}, "texto"),
        ({"texto": "red", "ambitos": []}, "ambitos"),
        ({"texto": "red", "ambitos": ["documentos", "documentos"]}, "ambitos"),
        ({"texto": "red", "ambitos": ["archivos"]}, "ambitos"),
        ({"texto": "red", "ambitos": "documentos"}, "ambitos"),
        ({"texto": "red", "ambitos": {"documentos": 1}}, "ambitos"),
        ({"texto": "red", "ambitos": [1]}, "ambitos"),
        ({"texto": "red", "tipo": "t" * 61}, "tipo"),
        ({"texto": "red", "estado": "cerrado"}, "estado"),
        ({"texto": "red", "desde": "2026-02-30"}, "desde"),
        ({"texto": "red", "hasta": "15/01/2026"}, "hasta"),
        ({"texto": "red", "desde": "2026-02-02", "hasta": "2026-02-01"}, "hasta"),
        ({"texto": "red", "alcance": "propias"}, "alcance"),
        ({"texto": "red", "limite": 0}, "limite"),
        ({"texto": "red", "limite": 11}, "limite"),
        ({"texto": "red", "pagina": 2}, "pagina"),
    ],
)
def test_invalid_arguments_are_datos_invalidos(client, mundo, argumentos, campo):
    datos = error_herramienta(_buscar(client, mundo["duena"], **argumentos), "DATOS_INVALIDOS")
    assert campo in datos["campos"]


@pytest.mark.parametrize(
    "argumentos",
    [
        {"texto": "ab"},
        {"texto": "a" * 120},
        {"texto": "red", "tipo": "t" * 60},
        {"texto": "red", "limite": 1},
        {"texto": "red", "limite": 10},
        {"texto": "red", "desde": "2026-02-01", "hasta": "2026-02-01"},
        {"texto": "red", "ambitos": ["solicitudes", "documentos", "presupuesto"]},
    ],
)
def test_the_bounds_themselves_are_accepted(client, mundo, argumentos):
    _valida(_buscar(client, mundo["duena"], **argumentos))


def test_schema_and_validation_agree(client, mundo):
    esquema = registro.obtener("busqueda_global").esquema_entrada
    validador = jsonschema.Draft202012Validator(esquema, format_checker=jsonschema.FormatChecker())
    casos = [
        {"texto": "red"},
        {"texto": "r"},
        {"texto": "red", "ambitos": ["documentos", "documentos"]},
        {"texto": "red", "ambitos": []},
        {"texto": "red", "ambitos": ["presupuesto"]},
        {"texto": "red", "ambitos": ["otro"]},
        {"texto": "red", "estado": "en_tramite"},
        {"texto": "red", "estado": "cerrado"},
        {"texto": "red", "desde": "2026-02-30"},
        {"texto": "red", "hasta": "2026-02-28"},
        {"texto": "red", "limite": 11},
        {"texto": "red", "alcance": "mias"},
        {"texto": "red", "extra": 1},
    ]
    for argumentos in casos:
        r = _buscar(client, mundo["duena"], **argumentos)
        assert (not r.resultado["isError"]) == validador.is_valid(argumentos), argumentos


def test_the_schema_in_tools_list_states_the_arguments(client, mundo):
    herramientas = {
        t["name"]: t for t in rpc(client, "tools/list", **mundo["duena"]).resultado["tools"]
    }
    esquema = herramientas["busqueda_global"]["inputSchema"]
    propiedades = esquema["properties"]
    assert esquema["required"] == ["texto"]
    assert (propiedades["texto"]["minLength"], propiedades["texto"]["maxLength"]) == (2, 120)
    assert propiedades["ambitos"]["type"] == "array"
    assert propiedades["ambitos"]["uniqueItems"] is True
    assert propiedades["ambitos"]["minItems"] == 1
    assert propiedades["ambitos"]["items"]["enum"] == ["solicitudes", "documentos", "presupuesto"]
    assert propiedades["tipo"]["maxLength"] == 60
    assert propiedades["estado"]["enum"] == ESTADOS_SOLICITUD
    assert propiedades["desde"]["format"] == propiedades["hasta"]["format"] == "date"
    assert propiedades["alcance"]["enum"] == ["mias", "todas"]
    assert propiedades["alcance"]["default"] == "mias"
    assert (propiedades["limite"]["minimum"], propiedades["limite"]["maximum"]) == (1, 10)
    assert propiedades["limite"]["default"] == 5


# --- access and cost ---------------------------------------------------------------------------


def test_the_api_key_alone_gets_sin_identidad(client, clave, mundo):
    error_herramienta(_buscar(client, clave, texto="conectividad"), "SIN_IDENTIDAD")


def test_any_identified_person_may_search(client, como_limitado, mundo):
    datos = _valida(_buscar(client, como_limitado, texto="conectividad"))
    assert datos["solicitudes"]["total"] == 0
    assert datos["documentos"]["total"] == 1
    assert datos["presupuesto"]["disponible"] is False


def _mas_datos(mundo) -> None:
    """Ten more matches in every scope, visible to the owner."""
    duena = mundo["usuarios"]["duena"]
    proceso = ProcesoFactory(sigla="MAS", nombre="Más procesos")
    proyecto = mundo["cdp"].proyecto
    for i in range(10):
        services.radicar(tipo=mundo["tipo"], solicitante=duena, resumen=f"Conectividad lote {i}")
        DocumentoFactory(
            codigo_publicado=f"MAS-GU-{i:03d}", titulo=f"Conectividad {i}", proceso=proceso
        )
        cdp_expedido(proyecto, mundo["cdp"].area, "100", objeto=f"Conectividad adicional {i}")


@pytest.mark.parametrize("quien", ["duena", "auditora"])
def test_the_number_of_queries_does_not_grow_with_the_data(
    client, mundo, quien, django_assert_num_queries
):
    cabeceras = mundo[quien]
    argumentos = {"texto": "conectividad"}
    if quien == "auditora":
        argumentos["alcance"] = "todas"
    _buscar(client, cabeceras, **argumentos)  # the credentials' first use is written once
    with CaptureQueriesContext(connection) as antes:
        pequeno = _valida(_buscar(client, cabeceras, **argumentos))
    _mas_datos(mundo)
    with django_assert_num_queries(len(antes.captured_queries)):
        grande = _valida(_buscar(client, cabeceras, **argumentos))
    assert grande["solicitudes"]["total"] == pequeno["solicitudes"]["total"] + 10
    assert grande["documentos"]["total"] == pequeno["documentos"]["total"] + 10


def test_the_query_count_of_the_owners_full_search(client, mundo, django_assert_num_queries):
    _buscar(client, mundo["duena"], texto="conectividad")
    # Audit 1; requests (filed by her): the count with the page in one statement on PostgreSQL,
    # the count with the page's ids and then the page elsewhere; documents: one (first rows with
    # their count); budget: one for CDP and one for RP (credentials and permissions come from the
    # cache); on PostgreSQL the words are first looked up in the vocabulary, once for the four
    # text filters.
    solicitudes = 1 if connection.vendor == "postgresql" else 2
    with django_assert_num_queries(1 + solicitudes + 1 + 2 + vocabulario(1)):
        _buscar(client, mundo["duena"], texto="conectividad")
    with django_assert_num_queries(1 + solicitudes + 1 + vocabulario(1)):
        _buscar(client, mundo["duena"], texto="conectividad", ambitos=["solicitudes", "documentos"])
