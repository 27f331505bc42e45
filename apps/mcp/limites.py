"""The assistant's rate limits, all read from AjustesAsistente (docs/contrato.md, «Límites»).

Requests to the endpoint fail open when the cache is down (served, logged); confirmed writes and
failed verifications fail closed, as a tool error `SERVICIO_NO_DISPONIBLE` (inside tools/call the
three levels are not mixed).
"""

from __future__ import annotations

import logging

from django.http import HttpRequest

from apps.mcp.models import AjustesAsistente
from hub.cache.lote import Pedido, limite_conjeturado
from hub.herramientas.registro import ErrorHerramienta, Llamada
from hub.http.ip import red_de
from hub.http.limites import CacheNoDisponible, Regla, Uso, aplicar, clave_ip, contar

logger = logging.getLogger(__name__)

HORA = 3600


def _endpoint(usuario_id: int | None, integracion_id: str) -> tuple[str, str]:
    """The endpoint limit's group and key: the person, else the integration."""
    if usuario_id is not None:
        return "mcp-usuario", str(usuario_id)
    return "mcp-integracion", integracion_id


def aplicar_endpoint(
    request: HttpRequest,
    *,
    usuario_id: int | None,
    integracion_id: str,
    ajustes: AjustesAsistente,
) -> Uso | None:
    """60/min per identified user, 120/min per integration without user; 429 when exceeded."""
    grupo, valor = _endpoint(usuario_id, integracion_id)
    if usuario_id is not None:
        regla = Regla(grupo, lambda: ajustes.usuario_por_minuto, 60, lambda _r: valor)
    else:
        regla = Regla(grupo, lambda: ajustes.integracion_por_minuto, 60, lambda _r: valor)
    return aplicar(request, [regla], falla_cerrado=False)


def prever_endpoint(pedido: Pedido, *, usuario_id: int | None, integracion_id: str) -> None:
    """The endpoint's count in the request's batch, at the limit this process last used."""
    grupo, valor = _endpoint(usuario_id, integracion_id)
    pedido.contar(grupo, valor, limite_conjeturado(grupo), 60)


def aplicar_rechazo(request: HttpRequest, ajustes: AjustesAsistente) -> Uso | None:
    """Requests refused for their credentials count per IP: guessing secrets gets 429 soon."""
    regla = Regla("mcp-rechazo", lambda: ajustes.integracion_por_minuto, 60, clave_ip)
    return aplicar(request, [regla], falla_cerrado=False)


def _no_disponible() -> ErrorHerramienta:
    return ErrorHerramienta(
        "SERVICIO_NO_DISPONIBLE",
        "No es posible completar la operación en este momento. Intente de nuevo más tarde.",
    )


def contar_escritura(llamada: Llamada) -> None:
    """One confirmed write for the person; RATE_LIMIT past the per-minute limit (fails closed)."""
    limite = llamada.ajustes.escrituras_por_minuto
    try:
        uso = contar(
            grupo="mcp-escrituras",
            clave=str(llamada.usuario.pk),
            limite=limite,
            ventana=60,
        )
    except CacheNoDisponible:
        logger.error("cache no disponible: escritura confirmada rechazada (falla cerrado)")
        raise _no_disponible() from None
    if uso.excedido:
        raise ErrorHerramienta(
            "RATE_LIMIT",
            f"Demasiadas escrituras confirmadas: el límite es {limite} por minuto. "
            f"Espere {uso.reintentar_en} segundos.",
            reintentar_en=uso.reintentar_en,
        )


def _clave_verificacion(llamada: Llamada) -> str:
    return f"{llamada.identidad.integracion_id}:{red_de(llamada.ip)}"


def verificacion_bloqueada(llamada: Llamada) -> None:
    """DEMASIADOS_INTENTOS once the failed verifications of this integration + IP hit the limit."""
    limite = llamada.ajustes.verificaciones_fallidas_por_hora
    try:
        uso = contar(
            grupo="mcp-verificacion",
            clave=_clave_verificacion(llamada),
            limite=limite,
            ventana=HORA,
            incrementar=False,
        )
    except CacheNoDisponible:
        logger.error("cache no disponible: verificación rechazada (falla cerrado)")
        raise _no_disponible() from None
    if uso.usados >= limite:
        raise ErrorHerramienta(
            "DEMASIADOS_INTENTOS",
            "Demasiadas verificaciones fallidas desde esta integración. "
            f"Intente de nuevo en {uso.reintentar_en} segundos.",
            reintentar_en=uso.reintentar_en,
        )


def anotar_verificacion_fallida(llamada: Llamada) -> None:
    """Count one failed verification (only failures count)."""
    try:
        contar(
            grupo="mcp-verificacion",
            clave=_clave_verificacion(llamada),
            limite=llamada.ajustes.verificaciones_fallidas_por_hora,
            ventana=HORA,
        )
    except CacheNoDisponible:
        logger.error("cache no disponible: verificación fallida sin contar (falla cerrado)")
        raise _no_disponible() from None
