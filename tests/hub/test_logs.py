"""Structured logs: one JSON object per line, a request id on every line of a request (echoed in
X-Request-ID and kept in the audit row), one access line per request, never a query string."""

from __future__ import annotations

import csv
import io
import json
import logging
import re

import pytest
from django.urls import include, path

from apps.mcp.models import RegistroAuditoria
from hub import urls as raiz
from hub.http.ip import redes_confiables
from hub.observabilidad.logs import FormatoJSON, FormatoTexto, request_id_actual
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

HEX32 = re.compile(r"^[0-9a-f]{32}$")
CAMPOS_ACCESO = {
    "time",
    "level",
    "logger",
    "message",
    "request_id",
    "method",
    "path",
    "ip",
    "status",
    "duration_ms",
}


def _vista_que_registra(request):
    from django.http import JsonResponse

    logging.getLogger("apps.prueba").warning("dentro de la vista", extra={"herramienta": "eco"})
    return JsonResponse({"id": request_id_actual()})


def _vista_que_falla(request):
    raise RuntimeError("falla de prueba")


urlpatterns = [
    path("prueba-logs/registra", _vista_que_registra),
    path("prueba-logs/falla", _vista_que_falla),
    path("", include(raiz)),
]
handler404 = raiz.handler404
handler500 = raiz.handler500


class Lineas(logging.Handler):
    """Formats every record with the production formatter, as a log shipper would read them."""

    def __init__(self, formato: logging.Formatter):
        super().__init__(logging.DEBUG)
        self.setFormatter(formato)
        self.lineas: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lineas.append(self.format(record))

    def objetos(self) -> list[dict]:
        salida = []
        for linea in self.lineas:
            assert "\n" not in linea  # one object per line, whatever the message holds
            salida.append(json.loads(linea))
        return salida


@pytest.fixture
def lineas():
    manejador = Lineas(FormatoJSON())
    raiz_log = logging.getLogger()
    nivel = raiz_log.level
    raiz_log.addHandler(manejador)
    raiz_log.setLevel(logging.INFO)
    yield manejador
    raiz_log.removeHandler(manejador)
    raiz_log.setLevel(nivel)


def _acceso(objetos: list[dict]) -> list[dict]:
    return [o for o in objetos if o["logger"] == "hub.acceso"]


def test_each_request_gets_a_fresh_id_echoed_in_the_header(client):
    primera = client.get("/auth/api/v1/ping")
    segunda = client.get("/auth/api/v1/ping")
    assert HEX32.match(primera["X-Request-ID"])
    assert HEX32.match(segunda["X-Request-ID"])
    assert primera["X-Request-ID"] != segunda["X-Request-ID"]


def test_every_line_of_a_request_carries_its_id_and_one_access_line_closes_it(client, lineas):
    r = client.get("/prueba-logs/registra?token=sgimcp_secreto&x=1", REMOTE_ADDR="203.0.113.9")
    assert r.status_code == 200
    rid = r["X-Request-ID"]
    assert r.json() == {"id": rid}
    objetos = lineas.objetos()
    vista = [o for o in objetos if o["logger"] == "apps.prueba"]
    assert vista == [
        {
            "time": vista[0]["time"],
            "level": "WARNING",
            "logger": "apps.prueba",
            "message": "dentro de la vista",
            "request_id": rid,
            "method": "GET",
            "path": "/prueba-logs/registra",
            "ip": "203.0.113.9",
            "herramienta": "eco",
        }
    ]
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$", vista[0]["time"])
    (acceso,) = _acceso(objetos)
    assert set(acceso) == CAMPOS_ACCESO
    assert acceso["level"] == "INFO"
    assert acceso["message"] == "GET /prueba-logs/registra 200"
    assert (acceso["request_id"], acceso["status"], acceso["ip"]) == (rid, 200, "203.0.113.9")
    assert isinstance(acceso["duration_ms"], int | float) and acceso["duration_ms"] >= 0
    assert all("sgimcp_secreto" not in linea for linea in lineas.lineas)
    assert all("token=" not in linea for linea in lineas.lineas)


def test_lines_outside_a_request_have_no_request_fields(lineas):
    logging.getLogger("apps.prueba").info("tarea programada")
    (objeto,) = lineas.objetos()
    assert set(objeto) == {"time", "level", "logger", "message"}
    assert request_id_actual() == ""


def test_a_server_error_is_logged_with_its_traceback_and_an_error_access_line(client, lineas):
    client.raise_request_exception = False
    r = client.get("/prueba-logs/falla?clave=sgiapi_secreta")
    assert r.status_code == 500
    objetos = lineas.objetos()
    (acceso,) = _acceso(objetos)
    assert (acceso["level"], acceso["status"]) == ("ERROR", 500)
    errores = [o for o in objetos if "exception" in o]
    assert errores and all(o["request_id"] == r["X-Request-ID"] for o in errores)
    assert "RuntimeError: falla de prueba" in errores[0]["exception"]
    # Django attaches the request to its error record: its repr (with the query) stays out.
    assert all("sgiapi_secreta" not in linea for linea in lineas.lineas)


def test_an_api_envelope_error_is_one_access_line_with_its_status(client, lineas):
    r = client.get("/auth/api/v1/no-existe")
    assert r.status_code == 404
    (acceso,) = _acceso(lineas.objetos())
    assert (acceso["status"], acceso["path"]) == (404, "/auth/api/v1/no-existe")


PROXY = "10.0.0.1"


@pytest.fixture
def proxy(settings):
    """Requests come through a trusted proxy at 10.0.0.1 (REMOTE_ADDR of the test client)."""
    settings.HUB_PROXIES_CONFIABLES = redes_confiables(PROXY)
    return {"REMOTE_ADDR": PROXY}


@pytest.mark.parametrize("por_proxy", [False, True], ids=["direct", "through a trusted proxy"])
def test_an_incoming_request_id_never_replaces_ours(client, request, por_proxy):
    extra = request.getfixturevalue("proxy") if por_proxy else {}
    r = client.get(
        "/auth/api/v1/ping", headers={"X-Request-ID": "abcdef0123456789abcdef0123456789"}, **extra
    )
    assert HEX32.match(r["X-Request-ID"])
    assert r["X-Request-ID"] != "abcdef0123456789abcdef0123456789"


@pytest.mark.parametrize(
    "entrante",
    ["0f8fe2f4b1c74e4f9d1a2b3c4d5e6f70", "6e5c2b9e-3f43-4c3f-9b1e-0d4c1d9e2a7b", "lb-1:abc.123"],
)
def test_a_safe_incoming_request_id_is_logged_beside_ours(client, lineas, proxy, entrante):
    r = client.get("/prueba-logs/registra", headers={"X-Request-ID": entrante}, **proxy)
    for objeto in lineas.objetos():
        assert objeto["request_id"] == r["X-Request-ID"]
        assert objeto["request_id_recibido"] == entrante


@pytest.mark.parametrize(
    "entrante",
    [
        "corto",
        "a" * 65,
        "con espacio 123",
        "linea\nnueva-1234",
        "sgimcp_" + "A" * 38,  # a credential sent by mistake must not reach the logs
        '"><script>x</script>',
        "-empieza-con-guion",
    ],
    ids=["short", "long", "space", "newline", "credential", "markup", "leading dash"],
)
def test_an_unsafe_incoming_request_id_is_not_kept(client, lineas, proxy, entrante):
    r = client.get("/prueba-logs/registra", headers={"X-Request-ID": entrante}, **proxy)
    assert HEX32.match(r["X-Request-ID"])
    objetos = lineas.objetos()
    assert objetos and all("request_id_recibido" not in o for o in objetos)
    assert all(entrante not in linea for linea in lineas.lineas)


def _llamada_auditada(client, extra=None, **cabeceras):
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    credenciales = {"X-MCP-Api-Key": nueva_clave()[1], "X-MCP-User-Token": nuevo_token(persona)[1]}
    cuerpo = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}}}
    r = client.post(
        "/mcp/api/mcp",
        data=json.dumps(cuerpo),
        content_type="application/json",
        headers={**credenciales, **cabeceras},
        **(extra or {}),
    )
    assert r.status_code == 200
    return r


def test_the_audit_row_keeps_the_request_id_of_its_call(client):
    r = _llamada_auditada(client)
    fila = RegistroAuditoria.objects.get()
    assert fila.request_id == r["X-Request-ID"]
    assert HEX32.match(fila.request_id)


@pytest.mark.parametrize("por_proxy", [False, True], ids=["direct", "through a trusted proxy"])
def test_the_audit_row_keeps_a_received_request_id_beside_ours(client, request, por_proxy):
    extra = request.getfixturevalue("proxy") if por_proxy else {}
    entrante = "6e5c2b9e-3f43-4c3f-9b1e-0d4c1d9e2a7b"
    r = _llamada_auditada(client, extra=extra, **{"X-Request-ID": entrante})
    fila = RegistroAuditoria.objects.get()
    assert (fila.request_id, fila.request_id_recibido) == (r["X-Request-ID"], entrante)
    assert HEX32.match(fila.request_id)


def test_the_admin_finds_an_audit_row_by_the_received_request_id(client, admin_client):
    _llamada_auditada(client, **{"X-Request-ID": "nginx-4f1c2a9b7e"})
    fila = RegistroAuditoria.objects.get()
    lista = admin_client.get("/admin/mcp/registroauditoria/?q=nginx-4f1c2a9b7e").content.decode()
    assert f"/admin/mcp/registroauditoria/{fila.pk}/change/" in lista
    detalle = admin_client.get(f"/admin/mcp/registroauditoria/{fila.pk}/change/").content.decode()
    assert "nginx-4f1c2a9b7e" in detalle


def test_the_admin_shows_finds_and_exports_the_request_id(client, admin_client):
    r = _llamada_auditada(client)
    rid = r["X-Request-ID"]
    fila = RegistroAuditoria.objects.get()
    detalle = admin_client.get(f"/admin/mcp/registroauditoria/{fila.pk}/change/").content.decode()
    assert "Id de petición" in detalle and rid in detalle
    assert 'name="request_id"' not in detalle  # read-only, not an input
    lista = admin_client.get(f"/admin/mcp/registroauditoria/?q={rid}").content.decode()
    assert f"/admin/mcp/registroauditoria/{fila.pk}/change/" in lista
    otra = admin_client.get("/admin/mcp/registroauditoria/?q=" + "0" * 32).content.decode()
    assert f"/admin/mcp/registroauditoria/{fila.pk}/change/" not in otra
    exportado = admin_client.post(
        "/admin/mcp/registroauditoria/", {"action": "exportar_csv", "_selected_action": [fila.pk]}
    )
    filas = list(csv.reader(io.StringIO(b"".join(exportado.streaming_content).decode())))
    # New columns go at the end (the OAuth client's, issue 25): the two ids stay side by side.
    i = filas[0].index("request_id")
    assert filas[0][i : i + 2] == ["request_id", "request_id_recibido"]
    assert filas[1][i : i + 2] == [rid, ""]


def test_extras_that_are_not_json_are_written_as_text():
    linea = logging.LogRecord("apps.prueba", logging.INFO, __file__, 1, "hola %s", ("a",), None)
    linea.monto = __import__("decimal").Decimal("1.50")
    linea.objeto = object()
    objeto = json.loads(FormatoJSON().format(linea))
    assert objeto["message"] == "hola a"
    assert objeto["monto"] == "1.50"
    assert objeto["objeto"].startswith("<object object")


def test_the_text_format_shows_the_request_id_for_people(client):
    manejador = Lineas(FormatoTexto())
    acceso = logging.getLogger("hub.acceso")
    acceso.addHandler(manejador)
    try:
        r = client.get("/auth/api/v1/ping")
    finally:
        acceso.removeHandler(manejador)
    (linea,) = manejador.lineas
    assert linea.endswith(f" INFO hub.acceso [{r['X-Request-ID']}] GET /auth/api/v1/ping 200")
