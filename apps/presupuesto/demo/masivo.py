"""The `--escala` volume: bulk-inserted PAA lines, CDP, RP and obligations, all consistent."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.presupuesto import services
from apps.presupuesto.demo.documentos import (
    BENEFICIARIOS_MASIVOS,
    CDP_POR_ESCALA,
    OBJETOS_MASIVOS,
)
from apps.presupuesto.demo.planeacion import (
    AREAS_MASIVAS,
    ASIGNACION_MASIVA,
    PROYECTO_MASIVO,
    M,
)
from apps.presupuesto.estados import EstadoCdp, EstadoLinea, EstadoRp
from apps.presupuesto.models import Asignacion, Cdp, LineaPaa, MovimientoRp, Proyecto, Rp
from hub.operacion.demo import ContextoDemo


def cargar_masivo(ctx: ContextoDemo, vigencia, areas) -> int:
    """20 CDP (with lines, most with an RP) per unit of escala, bulk-inserted; returns how many."""
    codigo, nombre = PROYECTO_MASIVO
    proyecto, _ = Proyecto.objects.get_or_create(
        vigencia=vigencia, codigo=codigo, defaults={"nombre": nombre}
    )
    for sigla in AREAS_MASIVAS:
        objetivo = ASIGNACION_MASIVA * ctx.escala
        actual = Asignacion.objects.filter(proyecto=proyecto, area=areas[sigla]).first()
        if actual is None or actual.valor < objetivo:
            services.asignar(proyecto=proyecto, area=areas[sigla], valor=objetivo)
    faltan = CDP_POR_ESCALA * ctx.escala - Cdp.objects.filter(proyecto=proyecto).count()
    creados = 0
    azar = random.Random(f"presupuesto:{faltan}:{ctx.escala}")  # noqa: S311 - demo data
    while faltan > 0:
        lote = min(faltan, 2000)
        _lote_masivo(vigencia, proyecto, [areas[s] for s in AREAS_MASIVAS], lote, azar)
        faltan -= lote
        creados += lote
    return creados


@transaction.atomic
def _lote_masivo(vigencia, proyecto, areas, cantidad: int, azar: random.Random) -> None:
    hoy = timezone.localdate()
    primera_linea = services.reservar_consecutivos(
        vigencia=vigencia, campo="consecutivo_linea", cantidad=cantidad
    )
    primer_cdp = services.reservar_consecutivos(
        vigencia=vigencia, campo="consecutivo_cdp", cantidad=cantidad
    )
    lineas, cdps = [], []
    for i in range(cantidad):
        area = areas[i % len(areas)]
        objeto = f"{OBJETOS_MASIVOS[i % len(OBJETOS_MASIVOS)]} ({area.sigla})"
        # Each CDP takes at most half of its share of the area's bulk assignment.
        valor = Decimal(azar.randint(5, 50)) * M
        mes = datetime.date(vigencia.anio, azar.randint(1, hoy.month), 1)
        lineas.append(
            LineaPaa(
                vigencia=vigencia,
                numero=primera_linea + i,
                objeto=objeto,
                area=area,
                proyecto=proyecto,
                valor_estimado=valor,
                mes_inicio=mes,
                estado=EstadoLinea.EN_EJECUCION,
            )
        )
    LineaPaa.objects.crear_en_bloque(lineas)
    for i, linea in enumerate(lineas):
        cdps.append(
            Cdp(
                vigencia=vigencia,
                numero=f"CDP-{vigencia.anio}-{primer_cdp + i:05d}",
                numero_externo=str(100000 + primer_cdp + i),
                linea_paa=linea,
                proyecto=proyecto,
                area=linea.area,
                objeto=linea.objeto,
                valor_inicial=linea.valor_estimado,
                valor_actual=linea.valor_estimado,
                saldo=linea.valor_estimado,
                estado=EstadoCdp.EXPEDIDO,
                fecha_expedicion=max(linea.mes_inicio, datetime.date(vigencia.anio, 1, 15)),
            )
        )
    Cdp.objects.crear_en_bloque(cdps)
    rps = []
    con_rp = [c for i, c in enumerate(cdps) if i % 4 != 3]
    primer_rp = services.reservar_consecutivos(
        vigencia=vigencia, campo="consecutivo_rp", cantidad=len(con_rp)
    )
    for i, cdp in enumerate(con_rp):
        valor = (cdp.valor_actual * Decimal(azar.choice([30, 50, 80, 100])) / 100).quantize(
            Decimal("0.01")
        )
        obligado = (valor * Decimal(azar.choice([0, 25, 50, 100])) / 100).quantize(Decimal("0.01"))
        cdp.comprometido = valor
        cdp.saldo = cdp.valor_actual - valor
        cdp.estado = EstadoCdp.AGOTADO if cdp.saldo == 0 else EstadoCdp.EXPEDIDO
        rps.append(
            Rp(
                vigencia=vigencia,
                numero=f"RP-{vigencia.anio}-{primer_rp + i:05d}",
                numero_externo=str(500000 + primer_rp + i),
                cdp=cdp,
                beneficiario=BENEFICIARIOS_MASIVOS[i % len(BENEFICIARIOS_MASIVOS)],
                objeto=cdp.objeto,
                valor_inicial=valor,
                valor_actual=valor,
                obligado=obligado,
                estado=EstadoRp.EJECUTADO if obligado == valor else EstadoRp.EXPEDIDO,
                fecha_expedicion=cdp.fecha_expedicion,
                fecha_inicio=cdp.fecha_expedicion,
                fecha_fin=datetime.date(vigencia.anio, 12, 31),
            )
        )
    Rp.objects.crear_en_bloque(rps)
    # Obligations are movements: the bulk RPs carry them as one applied obligation each.
    MovimientoRp.objects.bulk_create(
        [
            MovimientoRp(
                rp=rp,
                numero=1,
                tipo="obligacion",
                valor=rp.obligado,
                fecha=rp.fecha_expedicion,
                descripcion="Obligación de la cuenta de cobro del periodo.",
                estado="aplicado",
            )
            for rp in rps
            if rp.obligado > 0
        ],
        batch_size=2000,
    )
    Cdp.objects.bulk_update(con_rp, ["comprometido", "saldo", "estado"], batch_size=2000)
