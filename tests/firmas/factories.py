"""Signatures through the service, as the budget app makes them."""

from __future__ import annotations

import datetime

from apps.firmas import services
from apps.firmas.models import Firma

INSTANTE = datetime.datetime(2025, 3, 4, 15, 6, 7, tzinfo=datetime.UTC)  # 10:06:07 in Bogotá


def firmar(documento, *, firmante="María Fernanda López Rincón", rol="Ordenador del gasto", **kw):
    return services.firmar(
        documento=documento,
        firmante=firmante,
        rol=rol,
        firmado_en=kw.pop("firmado_en", INSTANTE),
        **kw,
    )


def firma_anulada(documento, *, motivo="El proceso fue rechazado y reiniciado.", **kw) -> Firma:
    firma = firmar(documento, **kw)
    return services.anular(firma=firma, motivo=motivo)
