"""CDP and RP readings: one document by its number, and the budget scope of the global search."""

from __future__ import annotations

import datetime

from django.db.models import (
    Case,
    F,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from apps.presupuesto.models import Cdp, Rp
from hub.busqueda.columnas import total_y_primeras
from hub.busqueda.texto import limpiar, normalizar


def _fecha(valor: datetime.date | None) -> str | None:
    return valor.isoformat() if valor else None


def _texto(valor: str | None) -> str | None:
    return limpiar(valor) if valor else None


def _cantidad_movimientos(modelo: type[Cdp] | type[Rp]) -> Subquery:
    """How many movements the document has, as a subquery of its own row.

    Not `Count("movimientos")`: that joins the movements and groups by the key of every joined
    table, and PostgreSQL spent about 1.2 ms planning it against 0.7 ms for this (issue 42).
    COUNT as a plain function keeps Django from adding a GROUP BY: always one row, 0 or more.
    """
    relacion = modelo._meta.get_field("movimientos")
    movimientos = relacion.related_model.objects.filter(**{relacion.field.name: OuterRef("pk")})
    cuenta = movimientos.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Subquery(cuenta, output_field=IntegerField())


def _documento(qs: QuerySet, numero: str, *relaciones: str) -> Cdp | Rp | None:
    """The visible document with that hub or external number, its movements counted.

    The hub's own number is unique and is what people mostly give: that row first, with no
    ORDER BY (sorting the OR of both numbers was a third of the Python cost of the query). Only
    a miss asks again by either number, the hub's preferred, as `por_numero` orders them: two
    queries then, never more.
    """
    base = qs.select_related(*relaciones).annotate(
        cantidad_movimientos=_cantidad_movimientos(qs.model)
    )
    propio = next(iter(base.por_numero_del_hub(numero)[:1]), None)
    if propio is not None:
        return propio
    return base.por_numero(numero).first()


def _estado(documento: Cdp | Rp, campo_numero: str) -> dict:
    """The fields estado_cdp and estado_rp open with: number and status."""
    return {
        "encontrado": True,
        campo_numero: documento.numero,
        "numero_externo": documento.numero_externo,
        "numero_radicado": documento.numero_radicado,
        "estado": documento.estado,
        "estado_visible": documento.estado_visible,
        "estado_descripcion": documento.estado_descripcion,
        "estado_expedicion": documento.estado_expedicion,
    }


def _motivos(documento: Cdp | Rp) -> dict:
    return {
        "motivo_devolucion": _texto(documento.motivo_devolucion),
        "motivo_rechazo": _texto(documento.motivo_rechazo),
    }


def ficha_cdp(user, numero: str) -> dict | None:
    """estado_cdp's fields for a CDP the user may see, by number or external number (1 query)."""
    cdp = _documento(
        Cdp.objects.visibles_para(user), numero, "area", "proyecto", "linea_paa", "vigencia"
    )
    if cdp is None:
        return None
    return {
        **_estado(cdp, "numero_cdp"),
        "area": cdp.area.nombre,
        "area_sigla": cdp.area.sigla,
        "dependencia": _texto(cdp.dependencia),
        "objeto": limpiar(cdp.objeto),
        "valor_inicial": cdp.valor_inicial,
        "valor_actual": cdp.valor_actual,
        "comprometido": cdp.comprometido,
        "saldo": cdp.saldo,
        "fecha_expedicion": _fecha(cdp.fecha_expedicion),
        "movimientos": cdp.cantidad_movimientos,
        **_motivos(cdp),
        "vigencia": cdp.vigencia.anio,
        "proyecto": cdp.proyecto.codigo,
        "linea_paa": cdp.linea_paa.numero if cdp.linea_paa else None,
        "enlace": cdp.enlace,
    }


def ficha_rp(user, numero: str) -> dict | None:
    """estado_rp's fields for an RP the user may see (the beneficiary's document never)."""
    rp = _documento(Rp.objects.visibles_para(user), numero, "cdp", "cdp__area", "vigencia")
    if rp is None:
        return None
    return {
        **_estado(rp, "numero_rp"),
        "cdp": rp.cdp.numero,
        "beneficiario": limpiar(rp.beneficiario),
        "objeto": limpiar(rp.objeto),
        "valor_inicial": rp.valor_inicial,
        "valor_actual": rp.valor_actual,
        "obligado": rp.obligado,
        "fecha_expedicion": _fecha(rp.fecha_expedicion),
        "fecha_inicio": _fecha(rp.fecha_inicio),
        "fecha_fin": _fecha(rp.fecha_fin),
        **_motivos(rp),
        "movimientos": rp.cantidad_movimientos,
        "area": rp.cdp.area.nombre,
        "vigencia": rp.vigencia.anio,
        "enlace": rp.enlace,
    }


# What _item_cdp and _item_rp read (and `creado_en`, their order across both tables).
_CAMPOS_ITEM = ("numero", "numero_externo", "objeto", "estado", "valor_actual", "creado_en")
_CAMPOS_CDP = (*_CAMPOS_ITEM, "saldo", "area__sigla")
_CAMPOS_RP = (*_CAMPOS_ITEM, "beneficiario", "cdp__numero", "cdp__area__sigla")


def buscar(user, texto: str, *, limite: int = 5) -> dict:
    """busqueda_global's presupuesto scope: CDP and RP the user may see (2 queries: each table's
    first rows with its count, hub.busqueda.columnas.total_y_primeras).

    Exact number matches come first, then the most recent documents.
    """
    buscado = (texto or "").strip().upper()
    if not normalizar(texto):
        return {"total": 0, "mostrados": 0, "resultados": []}
    cdps = Cdp.objects.visibles_para(user).buscar(texto)
    rps = Rp.objects.visibles_para(user).buscar(texto)
    exacto = Q(numero=buscado) | Q(numero_externo=buscado)
    # Only the columns the items show: compiling and reading every column of the document (and,
    # for an RP, of its CDP) cost more than the rest of the scope.
    total_cdps, primeros_cdps = total_y_primeras(
        cdps.select_related("area")
        .only(*_CAMPOS_CDP)
        .order_by(_primero(exacto), "-vigencia__anio", "-numero"),
        limite,
    )
    total_rps, primeros_rps = total_y_primeras(
        rps.select_related("cdp__area")
        .only(*_CAMPOS_RP)
        .order_by(_primero(exacto), "-vigencia__anio", "-numero"),
        limite,
    )
    items = [_item_cdp(c, buscado) for c in primeros_cdps] + [
        _item_rp(r, buscado) for r in primeros_rps
    ]
    items.sort(key=lambda i: (not i["exacto"], -i["_orden"]))
    for item in items:
        item.pop("_orden")
    total = total_cdps + total_rps
    return {"total": total, "mostrados": min(len(items), limite), "resultados": items[:limite]}


def _primero(condicion: Q) -> Case:
    return Case(When(condicion, then=Value(0)), default=Value(1), output_field=IntegerField())


def _item_cdp(cdp: Cdp, buscado: str) -> dict:
    return {
        "tipo": "cdp",
        "numero": cdp.numero,
        "numero_externo": cdp.numero_externo,
        "objeto": limpiar(cdp.objeto),
        "estado": cdp.estado,
        "estado_visible": cdp.estado_visible,
        "area": cdp.area.sigla,
        "valor_actual": cdp.valor_actual,
        "saldo": cdp.saldo,
        "enlace": cdp.enlace,
        "exacto": buscado in (cdp.numero, cdp.numero_externo),
        "_orden": cdp.creado_en.timestamp(),
    }


def _item_rp(rp: Rp, buscado: str) -> dict:
    return {
        "tipo": "rp",
        "numero": rp.numero,
        "numero_externo": rp.numero_externo,
        "objeto": limpiar(rp.objeto),
        "beneficiario": limpiar(rp.beneficiario),
        "estado": rp.estado,
        "estado_visible": rp.estado_visible,
        "area": rp.cdp.area.sigla,
        "cdp": rp.cdp.numero,
        "valor_actual": rp.valor_actual,
        "enlace": rp.enlace,
        "exacto": buscado in (rp.numero, rp.numero_externo),
        "_orden": rp.creado_en.timestamp(),
    }
