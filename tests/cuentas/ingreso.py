"""Signing in through the form in tests: the addresses used and the right or wrong attempts."""

from __future__ import annotations

from tests.factories import CONTRASENA

LOGIN = "/cuentas/login/"
ADMIN = "/admin/login/"
IP = "203.0.113.7"
OTRA_IP = "198.51.100.20"

__all__ = ["ADMIN", "CONTRASENA", "IP", "LOGIN", "OTRA_IP", "fallar", "ingresar"]


def ingresar(client, usuario: str, contrasena: str, ruta: str = LOGIN, ip: str = IP):
    """One sign-in attempt from `ip`, through the people's form or the admin's."""
    return client.post(ruta, {"username": usuario, "password": contrasena}, REMOTE_ADDR=ip)


def fallar(client, veces: int, usuario: str = "camila", ruta: str = LOGIN, ip: str = IP) -> None:
    """`veces` wrong passwords, each answered with the form again (200), not yet refused."""
    for _ in range(veces):
        assert ingresar(client, usuario, "equivocada", ruta, ip).status_code == 200
