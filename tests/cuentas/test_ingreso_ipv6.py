"""Sign-in throttling counts addresses as every per-IP limit does (hub.http.limites.clave_ip):
IPv6 by /64, and an IPv4 written as IPv6 (::ffff:a.b.c.d) as that IPv4 (issue 13 item 3)."""

from __future__ import annotations

import pytest

from apps.cuentas import intentos
from tests.cuentas.ingreso import CONTRASENA, IP, fallar, ingresar

pytestmark = pytest.mark.django_db

RED = "2001:db8:1:2::"  # one /64: a single IPv6 host usually holds all of it
OTRA_RED = "2001:db8:1:3::1"
MAPEADA = f"::ffff:{IP}"


def test_thirty_failures_from_one_ipv6_64_block_every_address_of_it(client, camila):
    for n in range(intentos.POR_DIRECCION):
        # A new address of the same /64 and a new account name each time.
        fallar(client, 1, usuario=f"persona{n}", ip=f"{RED}{n + 1:x}")
    r = ingresar(client, "camila", CONTRASENA, ip=f"{RED}ffff")
    assert r.status_code == 429
    assert 1 <= int(r["Retry-After"]) <= intentos.VENTANA
    assert "Demasiados intentos de ingreso" in r.content.decode()
    assert ingresar(client, "camila", CONTRASENA, ip=OTRA_RED).status_code == 302


def test_ten_failures_for_an_account_across_one_ipv6_64_block_it(client, camila):
    for n in range(intentos.POR_CUENTA):
        fallar(client, 1, ip=f"{RED}{n + 1:x}")
    r = ingresar(client, "camila", CONTRASENA, ip=f"{RED}abcd")
    assert r.status_code == 429 and "Retry-After" in r


def test_an_ipv4_written_as_ipv6_shares_the_count_of_that_ipv4(client, camila):
    fallar(client, intentos.POR_CUENTA // 2, ip=MAPEADA)
    fallar(client, intentos.POR_CUENTA - intentos.POR_CUENTA // 2, ip=IP)
    assert ingresar(client, "camila", CONTRASENA, ip=IP).status_code == 429
    assert ingresar(client, "camila", CONTRASENA, ip=MAPEADA).status_code == 429


def test_password_reset_requests_count_by_ipv6_64(client):
    for n in range(intentos.OLVIDOS_POR_HORA):
        r = client.post(
            "/cuentas/clave/olvido/", {"email": "x@entidad.gov.co"}, REMOTE_ADDR=f"{RED}{n + 1:x}"
        )
        assert r.status_code == 302
    r = client.post("/cuentas/clave/olvido/", {"email": "x@entidad.gov.co"}, REMOTE_ADDR=f"{RED}99")
    assert r.status_code == 429 and "Retry-After" in r
