"""The client's IP address: X-Forwarded-For is believed only from the trusted proxies' addresses.

Also imported by hub/settings.py and gunicorn.conf.py to read HUB_PROXIES_CONFIABLES, so that
Django and gunicorn trust exactly the same proxies: keep this module free of heavy imports.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from django.http import HttpRequest

Direccion = ipaddress.IPv4Address | ipaddress.IPv6Address
Red = ipaddress.IPv4Network | ipaddress.IPv6Network

_NINGUNA = ipaddress.IPv4Address("0.0.0.0")  # noqa: S104 - "no usable address", never bound


def redes_confiables(texto: str) -> tuple[Red, ...]:
    """The proxies of `127.0.0.1,10.0.0.0/8,::1`; ValueError naming the first bad item (in
    Spanish: it stops the start, hub/settings.py and gunicorn.conf.py)."""
    redes: list[Red] = []
    for item in (parte.strip() for parte in texto.split(",")):
        if not item:
            continue
        if item.isdigit():
            raise ValueError(
                f"{item!r} es un número: escriba las direcciones o redes de los proxies "
                "(por ejemplo 127.0.0.1,10.0.0.0/8), no cuántos son."
            )
        try:
            red = ipaddress.ip_network(item)
        except ValueError:
            try:
                sugerida = ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(
                    f"{item!r} no es una dirección IP ni una red (por ejemplo 127.0.0.1 o "
                    "10.0.0.0/8)."
                ) from None
            raise ValueError(f"{item!r} tiene bits de host: ¿quiso decir {sugerida}?") from None
        if red.prefixlen == 0:
            raise ValueError(
                f"{item!r} haría confiar en cualquier cliente que escriba su propia dirección."
            )
        redes.append(red)
    return tuple(redes)


def direccion(texto: str) -> Direccion | None:
    """The address written in REMOTE_ADDR or an X-Forwarded-For hop, or None if it is not one.

    Ports and brackets as load balancers write them are dropped ("203.0.113.7:51234",
    "[2001:db8::1]:443"), and an IPv4-mapped IPv6 address (::ffff:1.2.3.4, what a dual-stack
    socket reports) is the IPv4 address it carries.
    """
    texto = texto.strip()
    if texto.startswith("["):
        texto = texto[1:].partition("]")[0]
    elif texto.count(":") == 1:
        texto = texto.partition(":")[0]
    try:
        valor = ipaddress.ip_address(texto.partition("%")[0])  # no zone id: it is not stored
    except ValueError:
        return None
    if isinstance(valor, ipaddress.IPv6Address) and valor.ipv4_mapped is not None:
        return valor.ipv4_mapped
    return valor


def _confiable(valor: Direccion, redes: Iterable[Red]) -> bool:
    return any(valor in red for red in redes)


def de_proxy_confiable(request: HttpRequest) -> bool:
    """Whether the peer is a trusted proxy (or a unix socket, as for X-Forwarded-For)."""
    redes = settings.HUB_PROXIES_CONFIABLES
    if not redes:
        return False
    remoto = direccion(request.META.get("REMOTE_ADDR", ""))
    return remoto is None or _confiable(remoto, redes)


def olvidar_esquema_ajeno(request: HttpRequest) -> None:
    """Drop X-Forwarded-Proto unless a trusted proxy sent it: SECURE_PROXY_SSL_HEADER would
    otherwise let a direct client pass plain HTTP as HTTPS (no redirect, secure-only checks)."""
    if "HTTP_X_FORWARDED_PROTO" in request.META and not de_proxy_confiable(request):
        del request.META["HTTP_X_FORWARDED_PROTO"]


def red_de(ip: str) -> str:
    """The address a limit counts: IPv4 as is, an IPv4-mapped address as IPv4, IPv6 by /64.

    One IPv6 host usually holds a whole /64: counting single addresses would let it walk past
    every per-IP limit.
    """
    valor = ipaddress.ip_address(ip)
    if isinstance(valor, ipaddress.IPv6Address):
        if valor.ipv4_mapped is not None:
            return str(valor.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{valor}/64", strict=False))
    return str(valor)


def decidir(request: HttpRequest) -> str:
    """Decide the client's address once, as the request comes in (hub.http.middleware), and keep it
    on the request: `request.ip_cliente`, and `request.red_cliente` as per-IP limits count it
    (`red_de`). Later code reads them there; returns the address."""
    request.ip_cliente = ip = ip_cliente(request)
    request.red_cliente = red_de(ip)
    return ip


def ip_cliente(request: HttpRequest) -> str:
    """The socket address; when it is a trusted proxy, the right-most X-Forwarded-For hop that is
    not a trusted address (each proxy appends the address it saw; a client can write anything at
    the left). A hop that is not an address stops the walk at the last address read."""
    decidida = getattr(request, "ip_cliente", None)
    if decidida is not None:
        return decidida
    redes = settings.HUB_PROXIES_CONFIABLES
    remoto = direccion(request.META.get("REMOTE_ADDR", ""))
    ip = remoto or _NINGUNA
    # No peer address: a unix socket (HUB_BIND=unix:...), which only this host can reach; the
    # proxy in front writes the hops, and gunicorn trusts such a peer too.
    if redes and (remoto is None or _confiable(remoto, redes)):
        saltos = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        for salto in reversed(saltos):
            if not salto.strip():
                continue
            anterior = direccion(salto)
            if anterior is None:
                break
            ip = anterior
            if not _confiable(ip, redes):
                break
    return str(ip)
