"""Dashboard figures folded in Python into cells: on PostgreSQL from the figures kept on write
(`models/cifras.py`), elsewhere from GROUP BY queries over the visible rows.

A fixed number of queries per call, whatever the volume; the folding runs over the groups,
never over the rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.db import connections
from django.db.models import Count, QuerySet, Sum

from apps.cuentas.models import Area
from apps.presupuesto import estados
from apps.presupuesto.estados import EstadoLinea
from apps.presupuesto.models import Asignacion, Cdp, Cifra, LineaPaa, Rp, Vigencia
from apps.presupuesto.models.base import CERO

# Traffic light of availability: share of the assignment not yet certified in CDPs.
UMBRAL_VERDE = Decimal("30")  # 30 % or more still available
UMBRAL_AMARILLO = Decimal("10")  # from 10 % up to 30 %; below 10 % (or nothing assigned): rojo
CENTAVO = Decimal("0.01")


def suma(valor: Decimal | None) -> Decimal:
    """An aggregated amount with exactly two decimals (0.00 for an empty group).

    SQLite returns SUM over decimals as a float with 15 significant digits (200000.100000000);
    quantizing gives back the stored cents on every database.
    """
    return (valor or CERO).quantize(CENTAVO, rounding=ROUND_HALF_UP)


def porcentaje(parte: Decimal, total: Decimal) -> Decimal:
    """parte / total as a percentage with 2 decimals (0 when nothing is assigned)."""
    if not total:
        return Decimal("0.00")
    return (parte * 100 / total).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def semaforo(disponible: Decimal, asignado: Decimal) -> str:
    """verde / amarillo / rojo by the share of the assignment still available."""
    if asignado <= 0:
        return "rojo"
    libre = disponible * 100 / asignado
    if libre >= UMBRAL_VERDE:
        return "verde"
    if libre >= UMBRAL_AMARILLO:
        return "amarillo"
    return "rojo"


@dataclass
class Cifras:
    """Sums of one scope (a cell, a project, an area or everything)."""

    asignado: Decimal = CERO
    programado: Decimal = CERO
    certificado: Decimal = CERO
    comprometido: Decimal = CERO
    obligado: Decimal = CERO

    def sumar(self, otra: Cifras) -> None:
        self.asignado += otra.asignado
        self.programado += otra.programado
        self.certificado += otra.certificado
        self.comprometido += otra.comprometido
        self.obligado += otra.obligado

    @property
    def disponible(self) -> Decimal:
        return self.asignado - self.certificado

    def como_dict(self) -> dict:
        return {
            "asignado": self.asignado,
            "programado": self.programado,
            "certificado": self.certificado,
            "comprometido": self.comprometido,
            "obligado": self.obligado,
            "disponible": self.disponible,
            "porcentaje_disponible": porcentaje(self.disponible, self.asignado),
            "avance": porcentaje(self.comprometido, self.asignado),
            "semaforo": semaforo(self.disponible, self.asignado),
        }


@dataclass
class Consolidado:
    celdas: dict[tuple[int, int], Cifras] = field(default_factory=dict)
    proyectos: dict[int, dict] = field(default_factory=dict)
    areas: dict[int, dict] = field(default_factory=dict)
    lineas: dict[str, tuple[int, Decimal]] = field(default_factory=dict)

    def celda(self, fila: dict, proyecto: str, area: str) -> Cifras:
        pid, aid = fila[f"{proyecto}_id"], fila[f"{area}_id"]
        self.proyectos.setdefault(
            pid,
            {
                "id": pid,
                "codigo": fila[f"{proyecto}__codigo"],
                "nombre": fila[f"{proyecto}__nombre"],
            },
        )
        self.areas.setdefault(
            aid, {"id": aid, "sigla": fila[f"{area}__sigla"], "nombre": fila[f"{area}__nombre"]}
        )
        return self.celdas.setdefault((pid, aid), Cifras())

    def linea(self, celda: Cifras, estado: str, cantidad: int, valor: Decimal) -> None:
        """PAA lines of one state in one cell: programmed if the state says so, and counted in
        the per-state totals."""
        if estado in estados.LINEAS_PROGRAMADAS:
            celda.programado += valor
        previa, total = self.lineas.get(estado, (0, CERO))
        self.lineas[estado] = (previa + cantidad, total + valor)

    def total(self) -> Cifras:
        total = Cifras()
        for cifras in self.celdas.values():
            total.sumar(cifras)
        return total

    def agrupado(self, indice: int, nombres: dict[int, dict], orden: str) -> list[dict]:
        grupos: dict[int, Cifras] = {}
        for clave, cifras in self.celdas.items():
            grupos.setdefault(clave[indice], Cifras()).sumar(cifras)
        filas = [{**nombres[k], **c.como_dict()} for k, c in grupos.items()]
        return sorted(filas, key=lambda f: f[orden])


def _valores(qs: QuerySet, proyecto: str, area: str, *extra: str) -> QuerySet:
    # order_by() drops Meta.ordering, which would otherwise join the GROUP BY.
    return qs.values(
        f"{proyecto}_id",
        f"{proyecto}__codigo",
        f"{proyecto}__nombre",
        f"{area}_id",
        f"{area}__sigla",
        f"{area}__nombre",
        *extra,
    ).order_by()


def alcance(user, vigencia: Vigencia, proyectos: QuerySet | None, areas: list[Area] | None):
    """The four visible, filtered querysets the figures come from."""
    asig = Asignacion.objects.visibles_para(user).de_vigencia(vigencia)
    lin = LineaPaa.objects.visibles_para(user).de_vigencia(vigencia)
    cdp = Cdp.objects.visibles_para(user).de_vigencia(vigencia).certificados()
    rp = Rp.objects.visibles_para(user).de_vigencia(vigencia).comprometidos()
    if proyectos is not None:
        ids = proyectos.values("pk")
        asig, lin, cdp = (q.filter(proyecto__in=ids) for q in (asig, lin, cdp))
        rp = rp.filter(cdp__proyecto__in=ids)
    if areas is not None:
        ids_areas = [a.pk for a in areas]
        asig, lin, cdp = (q.filter(area__in=ids_areas) for q in (asig, lin, cdp))
        rp = rp.filter(cdp__area__in=ids_areas)
    return asig, lin, cdp, rp


def consolidar(asig, lin, cdp, rp) -> Consolidado:
    """Four GROUP BY queries (assignments, PAA lines, CDP, RP) folded into cells."""
    datos = Consolidado()
    for fila in _valores(asig, "proyecto", "area").annotate(total=Sum("valor")):
        datos.celda(fila, "proyecto", "area").asignado += suma(fila["total"])
    filas = _valores(lin, "proyecto", "area", "estado").annotate(
        cantidad=Count("id"), total=Sum("valor_estimado")
    )
    for fila in filas:
        celda = datos.celda(fila, "proyecto", "area")
        datos.linea(celda, fila["estado"], fila["cantidad"], suma(fila["total"]))
    for fila in _valores(cdp, "proyecto", "area").annotate(total=Sum("valor_actual")):
        datos.celda(fila, "proyecto", "area").certificado += suma(fila["total"])
    filas = _valores(rp, "cdp__proyecto", "cdp__area").annotate(
        total=Sum("valor_actual"), obligado=Sum("obligado")
    )
    for fila in filas:
        celda = datos.celda(fila, "cdp__proyecto", "cdp__area")
        celda.comprometido += suma(fila["total"])
        celda.obligado += suma(fila["obligado"])
    return datos


def cifras_de(
    user, vigencia: Vigencia, proyectos: QuerySet | None, areas: list[Area] | None
) -> Consolidado:
    """The dashboard's cells: from the figures kept on write on PostgreSQL (one query over a few
    hundred cells), from the rows themselves elsewhere (four GROUP BY queries)."""
    if connections[Cifra.objects.db].vendor != "postgresql":
        return consolidar(*alcance(user, vigencia, proyectos, areas))
    qs = Cifra.objects.visibles_para(user).de_vigencia(vigencia).exclude(cantidad=0)
    if proyectos is not None:
        qs = qs.filter(proyecto__in=proyectos.values("pk"))
    if areas is not None:
        qs = qs.filter(area__in=[a.pk for a in areas])
    datos = Consolidado()
    filas = _valores(qs, "proyecto", "area", "fuente", "estado", "cantidad", "valor", "obligado")
    for fila in filas:
        fuente, estado = fila["fuente"], fila["estado"]
        # As the row queries: only certified CDPs and committed RPs make a cell.
        if (fuente == "cdp" and estado not in estados.CDP_CERTIFICAN) or (
            fuente == "rp" and estado not in estados.RP_COMPROMETEN
        ):
            continue
        celda = datos.celda(fila, "proyecto", "area")
        valor = suma(fila["valor"])
        if fuente == "asignacion":
            celda.asignado += valor
        elif fuente == "linea":
            datos.linea(celda, estado, fila["cantidad"], valor)
        elif fuente == "cdp":
            celda.certificado += valor
        else:
            celda.comprometido += valor
            celda.obligado += suma(fila["obligado"])
    return datos


def lineas_por_estado(lineas: dict[str, tuple[int, Decimal]]) -> list[dict]:
    return [
        {
            "estado": estado.value,
            "estado_visible": estado.label,
            "cantidad": lineas.get(estado.value, (0, CERO))[0],
            "valor": lineas.get(estado.value, (0, CERO))[1],
        }
        for estado in EstadoLinea
    ]


def total_lineas(lineas: dict[str, tuple[int, Decimal]]) -> dict:
    vivas = [v for k, v in lineas.items() if k != EstadoLinea.ANULADA]
    return {"cantidad": sum(c for c, _ in vivas), "valor": sum((v for _, v in vivas), CERO)}
