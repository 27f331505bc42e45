"""Absolute links: `HUB_URL_PUBLICA` + the relative `enlace` of a page of this service.

Every tool result item that carries `enlace` also carries `url` (docs/decisiones/asistente.md), so a
desktop assistant can make it clickable. The tool registry adds both the field and its schema
here, in one place, so no tool can forget one of them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

ENLACE = "enlace"
URL = "url"


def absoluta(enlace: str) -> str:
    """The public address of a relative path of this service."""
    return settings.HUB_URL_PUBLICA + enlace


def con_url(datos: Any) -> Any:
    """The same data where every object with a relative `enlace` has `url` right after it."""
    if isinstance(datos, list):
        return [con_url(v) for v in datos]
    if not isinstance(datos, dict):
        return datos
    resultado: dict[str, Any] = {}
    for clave, valor in datos.items():
        if clave == URL and isinstance(datos.get(ENLACE), str):
            continue  # recomputed below, beside its enlace
        resultado[clave] = con_url(valor)
        if clave == ENLACE and isinstance(valor, str) and valor.startswith("/"):
            resultado[URL] = absoluta(valor)
    return resultado


def _esquema_url(enlace: dict[str, Any]) -> dict[str, Any]:
    tipo = enlace.get("type")
    nulo = isinstance(tipo, list) and "null" in tipo
    return {
        "type": ["string", "null"] if nulo else "string",
        "format": "uri",
        "description": "Dirección completa de la página (HUB_URL_PUBLICA + enlace).",
    }


def esquema_con_url(esquema: Any) -> Any:
    """A JSON Schema where every object that declares `enlace` also declares `url`."""
    if isinstance(esquema, list):
        return [esquema_con_url(v) for v in esquema]
    if not isinstance(esquema, dict):
        return esquema
    resultado = {clave: esquema_con_url(valor) for clave, valor in esquema.items()}
    propiedades = resultado.get("properties")
    if isinstance(propiedades, dict) and isinstance(propiedades.get(ENLACE), dict):
        nuevas: dict[str, Any] = {}
        for nombre, valor in propiedades.items():
            nuevas[nombre] = valor
            if nombre == ENLACE:
                nuevas[URL] = _esquema_url(valor)
        resultado["properties"] = nuevas
        requeridos = resultado.get("required")
        if isinstance(requeridos, list) and ENLACE in requeridos and URL not in requeridos:
            resultado["required"] = [*requeridos, URL]
    return resultado
