"""Writes on signatures: sign a document, annul a signature (never delete it)."""

from __future__ import annotations

import datetime
import re

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.utils import timezone

from apps.firmas.models import Firma
from apps.firmas.selectors import olvidar_verificaciones
from hub.busqueda.texto import limpiar

# What a reason to publish must not contain: e-mail addresses, and runs of six or more digits
# (identity documents, phone numbers), dots and spaces between them included.
_DATO_PERSONAL = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+|\d(?:[\d .-]*\d){5,}")


class FirmaInvalida(ValueError):
    """The signature cannot be made or changed as asked."""


def _texto(valor: str | None, campo: str, maximo: int) -> str:
    limpio = " ".join(limpiar(valor).split())
    if not limpio:
        raise FirmaInvalida(f"{campo} es obligatorio.")
    if len(limpio) > maximo:
        raise FirmaInvalida(f"{campo} admite como máximo {maximo} caracteres.")
    return limpio


def firmar(
    *,
    documento: models.Model,
    firmante: str,
    rol: str,
    usuario: AbstractBaseUser | None = None,
    firmado_en: datetime.datetime | None = None,
) -> Firma:
    """Sign a saved document that offers `resumen_firma()`; returns the signature with its token."""
    if not callable(getattr(documento, "resumen_firma", None)):
        raise FirmaInvalida(f"{type(documento).__name__} no se puede firmar (sin resumen_firma).")
    if documento.pk is None:
        raise FirmaInvalida("Solo se firma un documento guardado.")
    if firmado_en is not None and timezone.is_naive(firmado_en):
        raise FirmaInvalida("La fecha de firma debe llevar zona horaria.")
    with transaction.atomic():
        return Firma.objects.create(
            content_type=ContentType.objects.get_for_model(documento),
            object_id=documento.pk,
            firmante=_texto(firmante, "El nombre de quien firma", 200),
            rol=_texto(rol, "El rol", 150),
            usuario=usuario,
            firmado_en=firmado_en or timezone.now(),
        )


def _motivo(motivo: str, publico: bool) -> str:
    razon = _texto(motivo, "El motivo de la anulación", 2000)
    if publico and _DATO_PERSONAL.search(razon):
        raise FirmaInvalida(
            "El motivo parece tener datos personales (un correo o un número de documento o de "
            "teléfono): quítelos o no lo publique."
        )
    return razon


def anular(*, firma: Firma, motivo: str, motivo_publico: bool = False) -> Firma:
    """Annul a signature with a reason; annulling it again keeps the first date and reason.

    `motivo_publico`: whoever annuls declares the reason free of personal data, and the public
    verification shows it (a reason that still looks personal is refused).
    """
    razon = _motivo(motivo, motivo_publico)
    campos = ["anulada", "anulada_en", "motivo_anulacion", "motivo_publico"]
    with transaction.atomic():
        actual = Firma.objects.select_for_update().get(pk=firma.pk)
        if not actual.anulada:
            actual.anulada = True
            actual.anulada_en = timezone.now()
            actual.motivo_anulacion = razon
            actual.motivo_publico = motivo_publico
            actual.save(update_fields=campos)
    firma.refresh_from_db(fields=campos)
    return actual


def anular_firmas_de(*, documento: models.Model, motivo: str, motivo_publico: bool = False) -> int:
    """Annul every current signature of a document (e.g. the process was rejected and restarted)."""
    razon = _motivo(motivo, motivo_publico)
    with transaction.atomic():
        anuladas = (
            Firma.objects.de(documento)
            .vigentes()
            .update(
                anulada=True,
                anulada_en=timezone.now(),
                motivo_anulacion=razon,
                motivo_publico=motivo_publico,
            )
        )
        olvidar_verificaciones()  # an update() sends no signal
        return anuladas
