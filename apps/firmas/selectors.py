"""Reads of signatures: the public verification summary."""

from __future__ import annotations

import uuid
import zoneinfo
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

from apps.firmas.models import TOKEN_IMPOSIBLE, Firma
from hub.busqueda.texto import limpiar, recortar
from hub.cache.versionado import (
    claves_versionado,
    guardar_versionado,
    invalidar_versionado,
    leer_versionado,
)

LARGO_OBJETO = 120


def token_de(texto: str) -> uuid.UUID:
    """The UUID written in `texto`, or a value no signature has (same lookup either way)."""
    try:
        return uuid.UUID(texto)
    except (ValueError, TypeError, AttributeError):
        return TOKEN_IMPOSIBLE


def _documento_de(firma: Firma) -> models.Model | None:
    """The signed object, read with the model's own `consulta_firma()` queryset when it has one."""
    modelo = firma.content_type.model_class()
    if modelo is None:
        return None
    consulta = getattr(modelo, "consulta_firma", None)
    qs = consulta() if callable(consulta) else modelo._base_manager.all()
    return next(iter(qs.filter(pk=firma.object_id)[:1]), None)


def resumen_documento(documento: models.Model) -> dict[str, Any]:
    """`resumen_firma()` with people's text cleaned and the object shortened."""
    resumen = {}
    for campo, valor in dict(documento.resumen_firma()).items():
        if campo == "objeto" and isinstance(valor, str):
            valor = recortar(valor, LARGO_OBJETO)
        elif isinstance(valor, str):
            valor = limpiar(valor)
        resumen[str(campo)] = valor
    return resumen


def hora_local(instante) -> str:
    """`YYYY-MM-DD HH:MM:SS` in the server's local time (America/Bogota)."""
    zona = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    return timezone.localtime(instante, zona).strftime("%Y-%m-%d %H:%M:%S")


def _verificacion(token: str) -> tuple[Firma, dict[str, Any]] | None:
    """The signature and the `data` of the verification endpoint (three queries)."""
    firma = Firma.objects.select_related("content_type").filter(token=token_de(token)).first()
    if firma is None:
        return None
    documento = _documento_de(firma)
    if documento is None:  # the signed document no longer exists: nothing left to vouch for
        return None
    vigentes = Firma.objects.filter(
        content_type_id=firma.content_type_id, object_id=firma.object_id, anulada=False
    ).count()
    return firma, {
        "valido": not firma.anulada,
        "anulada": firma.anulada,
        "firmante": limpiar(firma.firmante),
        "rol": limpiar(firma.rol),
        "firmado_en": hora_local(firma.firmado_en),
        "documento": resumen_documento(documento),
        "total_firmas": vigentes,
    }


def resumen_verificacion(token: str) -> dict[str, Any] | None:
    """The `data` of the verification endpoint, or None when no signature has that code.

    Three queries whatever the data: the signature (with its type), the document, one COUNT.
    """
    encontrada = _verificacion(token)
    return encontrada[1] if encontrada else None


def verificacion_para_personas(token: str) -> dict[str, Any] | None:
    """What the human page shows: the endpoint's data plus, for an annulled signature, when it
    was annulled and the reason if whoever annulled it marked it publishable."""
    encontrada = _verificacion(token)
    if encontrada is None:
        return None
    firma, datos = encontrada
    if firma.anulada:
        datos["anulada_en"] = hora_local(firma.anulada_en) if firma.anulada_en else None
        datos["motivo_anulacion"] = (
            limpiar(firma.motivo_anulacion) if firma.motivo_publico else None
        )
    return datos


# The public verification is read far more often than a signature or its document changes: its
# answer is cached per code, under one generation that any change to a signature or to a signed
# document replaces (apps/firmas/apps.py connects the signals; services that write with update()
# call `olvidar_verificaciones`). Unknown codes are not cached: each still costs its lookup.
GENERACION_VERIFICACION = "firmas:verificacion:gen"
TTL_VERIFICACION = 3600


def _llave_verificacion(token: uuid.UUID) -> str:
    return f"firmas:verificacion:{token}"


def llaves_verificacion(texto: str) -> list[str]:
    """The cache keys `verificacion(texto)` reads (for the request's batch, hub.cache.lote)."""
    token = token_de(texto)
    if token == TOKEN_IMPOSIBLE:
        return []
    return claves_versionado(_llave_verificacion(token), GENERACION_VERIFICACION)


def verificacion(texto: str) -> dict[str, Any] | None:
    """`resumen_verificacion`, from the shared cache when the signature has not changed."""
    token = token_de(texto)
    if token == TOKEN_IMPOSIBLE:
        return resumen_verificacion(texto)
    llave = _llave_verificacion(token)
    guardada, generacion = leer_versionado(llave, generacion_en=GENERACION_VERIFICACION)
    if guardada is not None:
        return guardada
    datos = resumen_verificacion(texto)
    if datos is not None:
        guardar_versionado(llave, datos, generacion, TTL_VERIFICACION)
    return datos


def olvidar_verificaciones() -> None:
    """Every cached verification stops counting, on every host (now and after the commit)."""
    invalidar_versionado(GENERACION_VERIFICACION, es_generacion=True)
    transaction.on_commit(lambda: invalidar_versionado(GENERACION_VERIFICACION, es_generacion=True))
