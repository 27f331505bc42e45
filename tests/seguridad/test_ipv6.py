"""Every per-IP limit counts an IPv6 client by its /64 network (one host usually holds a whole
/64) and an IPv4-mapped address as the IPv4 address it carries."""

from __future__ import annotations

import pytest

from apps.cuentas.models import Area
from apps.firmas.api import MENSAJE_VALIDA
from hub.herramientas.registro import registro
from hub.http.ip import red_de
from hub.models import Limites
from tests.factories import AreaFactory
from tests.firmas.factories import firmar
from tests.marca.factories import URL_MARCA
from tests.mcp.factories import nueva_clave
from tests.mcp.herramientas_prueba import HERRAMIENTAS_PRUEBA
from tests.mcp_cliente import ajustar, llamar, rpc

pytestmark = pytest.mark.django_db


@pytest.fixture
def firma(monkeypatch):
    """A valid signature of a signable stand-in document."""
    monkeypatch.setattr(Area, "resumen_firma", lambda self: {"tipo": "cdp"}, raising=False)
    return firmar(AreaFactory())


@pytest.fixture
def clave_con_verificada():
    """An integration key, and the test tool of class verificada made public."""
    for h in HERRAMIENTAS_PRUEBA:
        registro.registrar(h)
    ajustar(herramientas_publicas=["prueba_verificada"], verificaciones_fallidas_por_hora=1)
    yield {"X-MCP-Api-Key": nueva_clave()[1]}
    for h in HERRAMIENTAS_PRUEBA:
        registro.quitar(h.nombre)


MISMA_RED = ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe")
OTRA_RED = "2001:db8:1:3::1"


@pytest.mark.parametrize(
    ("ip", "contada"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::", "2001:db8:1:2::/64"),
    ],
)
def test_the_address_a_limit_counts(ip, contada):
    assert red_de(ip) == contada


def _limites(**valores) -> None:
    Limites.objects.update_or_create(pk=1, defaults=valores)
    Limites.olvidar()


def test_the_global_limit_groups_a_64_and_maps_ipv4(client):
    _limites(global_por_minuto=1)
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR=MISMA_RED[0]).status_code == 200
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR=MISMA_RED[1]).status_code == 429
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR=OTRA_RED).status_code == 200
    assert client.get("/auth/api/v1/ping", REMOTE_ADDR="198.51.100.4").status_code == 200
    mapeada = client.get("/auth/api/v1/ping", REMOTE_ADDR="::ffff:198.51.100.4")
    assert mapeada.status_code == 429


def test_the_brand_limit_groups_a_64(client):
    _limites(marca_por_minuto=1)
    assert client.get(URL_MARCA, REMOTE_ADDR=MISMA_RED[0]).status_code == 200
    assert client.get(URL_MARCA, REMOTE_ADDR=MISMA_RED[1]).status_code == 429
    assert client.get(URL_MARCA, REMOTE_ADDR=OTRA_RED).status_code == 200


def test_the_verification_limit_groups_a_64(client, firma):
    _limites(verificacion_por_minuto=1)
    ruta = f"/presupuesto/api/v1/firmas/verificar/{firma.token}"
    assert client.get(ruta, REMOTE_ADDR=MISMA_RED[0]).json()["message"] == MENSAJE_VALIDA
    assert client.get(ruta, REMOTE_ADDR=MISMA_RED[1]).status_code == 429
    assert client.get(ruta, REMOTE_ADDR=OTRA_RED).status_code == 200


def test_refused_assistant_credentials_count_per_64(client):
    ajustar(integracion_por_minuto=1)
    malas = {"X-MCP-Api-Key": "sgikey_no-es-una-clave"}
    assert rpc(client, "ping", REMOTE_ADDR=MISMA_RED[0], **malas).status == 401
    assert rpc(client, "ping", REMOTE_ADDR=MISMA_RED[1], **malas).status == 429
    assert rpc(client, "ping", REMOTE_ADDR=OTRA_RED, **malas).status == 401


def test_failed_verifications_count_per_integration_and_64(client, clave_con_verificada):
    def verificar(dato: str, ip: str):
        cabeceras = {"REMOTE_ADDR": ip, **clave_con_verificada}
        return llamar(client, "prueba_verificada", {"clave": dato}, **cabeceras)

    assert verificar("mala", MISMA_RED[0]).estructura["codigo"] == "NO_ENCONTRADO"
    assert verificar("buena", MISMA_RED[1]).estructura["codigo"] == "DEMASIADOS_INTENTOS"
    assert verificar("buena", OTRA_RED).estructura == {"encontrado": True}
