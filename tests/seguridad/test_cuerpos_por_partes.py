"""Broken chunked bodies against the production server (gunicorn.conf.py, one sync worker), sent
over raw sockets: a malformed chunk, a body cut off mid-chunk and then closed, or one left hanging
open, is a 400 (the envelope on every API path, the assistant's included; a plain 400 on a page),
never a 500, and the log holds no traceback. Anyone can send these without credentials."""

from __future__ import annotations

import json
import re
import runpy
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.procesos import RAIZ, Gunicorn, entorno_migrado, gunicorn_conf

pytestmark = pytest.mark.procesos

MCP = "/mcp/api/mcp"
CONTACTO = "/notificaciones/api/public/v1/contacto"
PING = "/auth/api/v1/ping"
LOGIN = "/cuentas/login/"
RUTAS_API = [MCP, CONTACTO, PING]
# The hub waits this long for the next bytes of a chunked body (HUB_ESPERA_CUERPO); gunicorn's
# own timeout (30 s, gunicorn.conf.py) would kill the worker and answer its bare 500.
ESPERA = 1
# The client gives up well before gunicorn's timeout: an answer after that would be gunicorn's.
PACIENCIA = 20


@pytest.fixture(scope="module")
def servidor(tmp_path_factory) -> Iterator[Gunicorn]:
    carpeta = tmp_path_factory.mktemp("por_partes")
    env = entorno_migrado(carpeta)
    with gunicorn_conf(
        env, carpeta, pids=False, WEB_CONCURRENCY="1", HUB_ESPERA_CUERPO=str(ESPERA)
    ) as gunicorn:
        yield gunicorn


@dataclass(frozen=True)
class Respuesta:
    estado: int
    cabeceras: dict[str, str]
    cuerpo: bytes

    def json(self) -> dict:
        return json.loads(self.cuerpo)


def _leer_respuesta(conexion: socket.socket) -> Respuesta:
    """The whole answer (gunicorn closes the connection after it), de-chunked if it came so."""
    datos = b""
    while parte := conexion.recv(65536):
        datos += parte
    cabeza, _, cuerpo = datos.partition(b"\r\n\r\n")
    linea, *lineas = cabeza.decode("latin-1").split("\r\n")
    cabeceras = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lineas)}
    if cabeceras.get("transfer-encoding") == "chunked":
        plano = b""
        while True:
            tamano, _, resto = cuerpo.partition(b"\r\n")
            n = int(tamano, 16)
            if n == 0:
                break
            plano, cuerpo = plano + resto[:n], resto[n + 2 :]
        cuerpo = plano
    return Respuesta(estado=int(linea.split()[1]), cabeceras=cabeceras, cuerpo=cuerpo)


def _enviar(servidor: Gunicorn, ruta: str, cuerpo: bytes, *, cerrar: bool) -> Respuesta:
    """POST `ruta` with Transfer-Encoding: chunked and these raw body bytes; `cerrar` ends the
    sending side (the client is done) instead of leaving the connection open and silent."""
    with socket.create_connection(("127.0.0.1", servidor.puerto), timeout=PACIENCIA) as conexion:
        conexion.sendall(
            f"POST {ruta} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
            + cuerpo
        )
        if cerrar:
            conexion.shutdown(socket.SHUT_WR)
        return _leer_respuesta(conexion)


@pytest.fixture
def sin_trazas(servidor):
    """After the test: no traceback, no worker killed, no 5xx among the lines it caused."""
    desde = servidor.log.stat().st_size
    yield desde  # a test may read its own lines too
    log = servidor.lineas_nuevas(desde)
    assert "Traceback" not in log, log
    assert "WORKER TIMEOUT" not in log, log
    assert not re.search(r'HTTP/1\.[01]" 5\d\d |\s5\d\d$', log, re.MULTILINE), log
    # The hub's own access line says 400 (the answer came from the hub, not from gunicorn).
    assert re.search(r" 400$", log, re.MULTILINE), log


def _es_sobre_400(r: Respuesta) -> None:
    assert r.estado == 400, r
    assert r.cabeceras["content-type"] == "application/json"
    cuerpo = r.json()
    assert cuerpo["success"] is False
    assert cuerpo["error"]["code"] == "SOLICITUD_INVALIDA"
    assert "por partes" in cuerpo["error"]["detalle"]
    assert cuerpo["message"] == cuerpo["error"]["detalle"]


MALFORMADOS = {
    "tamano_zz": b"zz\r\nabc\r\n0\r\n\r\n",
    "sin_fin_de_trozo": b"3\r\nabcXY0\r\n\r\n",
    "extension_invalida": b"3;=\r\nabc\r\n0\r\n\r\n",
}


@pytest.mark.parametrize("ruta", RUTAS_API)
@pytest.mark.parametrize("caso", MALFORMADOS)
def test_a_malformed_chunked_body_is_a_400_envelope_on_every_api_path(
    servidor, sin_trazas, ruta, caso
):
    _es_sobre_400(_enviar(servidor, ruta, MALFORMADOS[caso], cerrar=False))


@pytest.mark.parametrize("ruta", RUTAS_API)
def test_a_body_cut_off_mid_chunk_is_a_400_envelope_when_the_client_closes(
    servidor, sin_trazas, ruta
):
    _es_sobre_400(_enviar(servidor, ruta, b'10\r\n{"jsonrpc":', cerrar=True))
    assert "cuerpo por partes ilegible: NoMoreData" in servidor.lineas_nuevas(sin_trazas)


@pytest.mark.parametrize("ruta", [MCP, CONTACTO])
def test_a_body_cut_off_mid_chunk_and_left_open_is_a_400_envelope_after_the_wait(
    servidor, sin_trazas, ruta
):
    _es_sobre_400(_enviar(servidor, ruta, b'40\r\n{"jsonrpc":', cerrar=False))
    assert "cuerpo por partes ilegible: TimeoutError" in servidor.lineas_nuevas(sin_trazas)


def test_a_body_dripped_a_byte_at_a_time_is_a_400_envelope_before_the_client_is_done(
    servidor, sin_trazas
):
    """One byte every 0.2 s keeps each read alive: the wait bounds the whole body, not each read
    (else the client, not the hub, decides when the worker is free again, up to gunicorn's kill)."""
    respondido = threading.Event()
    goteo_terminado = threading.Event()
    with socket.create_connection(("127.0.0.1", servidor.puerto), timeout=PACIENCIA) as conexion:
        conexion.sendall(
            f"POST {MCP} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n1000\r\n".encode()
        )

        def gotear() -> None:
            try:
                for _ in range(int(PACIENCIA / 0.2)):
                    if respondido.wait(0.2):
                        return
                    conexion.sendall(b"a")
            except OSError:  # the server closed: it has answered
                return
            goteo_terminado.set()

        hilo = threading.Thread(target=gotear)
        hilo.start()
        try:
            r = _leer_respuesta(conexion)
        finally:
            respondido.set()
            hilo.join()
    assert not goteo_terminado.is_set()  # answered while the client was still sending
    _es_sobre_400(r)
    assert "cuerpo por partes ilegible: TimeoutError" in servidor.lineas_nuevas(sin_trazas)


@pytest.mark.parametrize(
    ("cuerpo", "cerrar"),
    [(MALFORMADOS["tamano_zz"], False), (b"10\r\nusuario=", True), (b"10\r\nusuario=", False)],
    ids=["malformado", "cortado_y_cerrado", "cortado_y_abierto"],
)
def test_a_broken_chunked_body_on_a_page_is_a_plain_400(servidor, sin_trazas, cuerpo, cerrar):
    r = _enviar(servidor, LOGIN, cuerpo, cerrar=cerrar)
    assert r.estado == 400
    assert r.cabeceras["content-type"] == "text/plain; charset=utf-8"
    assert "por partes" in r.cuerpo.decode()


def test_the_worker_keeps_serving_after_broken_bodies(servidor, sin_trazas):
    _enviar(servidor, MCP, MALFORMADOS["tamano_zz"], cerrar=False)
    _enviar(servidor, MCP, b"10\r\nabc", cerrar=True)
    mensaje = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"}).encode()
    sano = b"%x\r\n%s\r\n0\r\n\r\n" % (len(mensaje), mensaje)
    r = _enviar(servidor, MCP, sano, cerrar=False)
    # The framing is fine: from here on it is the assistant's business (no credential: 401).
    assert r.estado == 401
    assert r.json()["error"]["code"] in {"NO_AUTENTICADO", "API_KEY_INVALIDA"}


def test_the_hub_stops_waiting_for_a_body_before_gunicorn_kills_the_worker(settings, monkeypatch):
    monkeypatch.delenv("HUB_PROXIES_CONFIABLES", raising=False)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    gunicorn = runpy.run_path(str(RAIZ / "gunicorn.conf.py"))
    assert settings.HUB_ESPERA_CUERPO == 20  # the default of hub/settings.py
    assert gunicorn["timeout"] > settings.HUB_ESPERA_CUERPO
