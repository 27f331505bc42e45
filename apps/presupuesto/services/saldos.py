"""Consistency of the stored balances: recomputed from the applied movements."""

from __future__ import annotations

from decimal import Decimal

from django.db import models, transaction
from django.db.models import Sum

from apps.presupuesto import estados
from apps.presupuesto.estados import EstadoMovimiento
from apps.presupuesto.models import Cdp, MovimientoCdp, MovimientoRp
from apps.presupuesto.models.base import CERO
from apps.presupuesto.services.cdp import CAMPOS_SALDO_CDP, CLASE_CDP
from apps.presupuesto.services.rp import CLASE_RP


def _sumas(qs: models.QuerySet, *campos: str) -> dict:
    filas = qs.filter(estado=EstadoMovimiento.APLICADO).values(*campos).annotate(t=Sum("valor"))
    return {tuple(f[c] for c in campos): f["t"] for f in filas}


def recalcular_saldos(cdp: Cdp, *, corregir: bool = False) -> dict[str, tuple[Decimal, Decimal]]:
    """Recompute a CDP's and its RPs' balances from movements; returns the differences.

    Each difference is `campo: (stored, expected)`; empty means consistent. With `corregir`
    the stored values are overwritten (under lock) with the expected ones.
    """
    with transaction.atomic():
        base = Cdp.objects.select_for_update() if corregir else Cdp.objects
        actual = base.get(pk=cdp.pk)
        rps_qs = actual.rps.select_for_update() if corregir else actual.rps.all()
        rps = list(rps_qs.order_by("pk"))
        mov_cdp = _sumas(MovimientoCdp.objects.filter(cdp=actual), "tipo")
        mov_rp = _sumas(MovimientoRp.objects.filter(rp__cdp=actual), "rp_id", "tipo")

        def suma(sumas: dict, *clave) -> Decimal:
            return sumas.get(clave, CERO)

        diferencias: dict[str, tuple[Decimal, Decimal]] = {}
        comprometido = CERO
        for rp in rps:
            esperado = {
                "valor_actual": rp.valor_inicial
                + suma(mov_rp, rp.pk, "adicion")
                - suma(mov_rp, rp.pk, "reduccion")
                - suma(mov_rp, rp.pk, "anulacion"),
                "obligado": suma(mov_rp, rp.pk, "obligacion"),
            }
            if rp.estado in estados.RP_COMPROMETEN:
                comprometido += esperado["valor_actual"]
            cambios = _comparar(rp, esperado, f"{rp.numero}.", diferencias)
            if corregir and cambios:
                CLASE_RP.cuadrar(rp)
                rp.save(update_fields=[*cambios, "estado", "actualizado_en"])
        valor_actual = (
            actual.valor_inicial
            + suma(mov_cdp, "adicion")
            - suma(mov_cdp, "reduccion")
            - suma(mov_cdp, "anulacion")
        )
        esperado_cdp = {
            "valor_actual": valor_actual,
            "comprometido": comprometido,
            "saldo": valor_actual - comprometido,
        }
        cambios = _comparar(actual, esperado_cdp, "cdp.", diferencias)
        if corregir and cambios:
            CLASE_CDP.cuadrar(actual)
            actual.save(update_fields=CAMPOS_SALDO_CDP)
    return diferencias


def _comparar(objeto, esperado: dict, prefijo: str, diferencias: dict) -> list[str]:
    cambios = []
    for campo, valor_esperado in esperado.items():
        guardado = getattr(objeto, campo)
        if guardado != valor_esperado:
            diferencias[prefijo + campo] = (guardado, valor_esperado)
            setattr(objeto, campo, valor_esperado)
            cambios.append(campo)
    return cambios
