"""uso_asistente (administration): aggregated use of the assistant from the audit log, and the
totals of the calls refused before any tool ran (apps.mcp.rechazos).

Only GROUP BY figures leave this module: never an audit row, an argument, an IP or a person.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Avg,
    Case,
    CharField,
    Count,
    F,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import ExtractHour
from django.utils import timezone
from oauth2_provider.models import get_application_model
from rest_framework import serializers

from apps.mcp import rechazos
from apps.mcp.models import RechazoAsistente, RegistroAuditoria
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta, registro
from hub.http.serializadores import Estricto

PERMISO_ADMINISTRAR = "mcp.asistente.administrar"
HORAS_PICO = 5
# Names callers sent that are not tools (a -32602 is audited too) are pooled under this label:
# free text typed by a caller never reaches the report.
OTRAS = "(no registradas)"
# OAuth clients name themselves: only the names an administrator verified reach the report; the
# calls of every other client, deleted ones too, are pooled under this label.
NO_VERIFICADOS = "(clientes no verificados)"


class ArgsUsoAsistente(Estricto):
    dias = serializers.IntegerField(
        min_value=1, max_value=90, default=7, help_text="Días hacia atrás desde ahora."
    )


_ENTERO = {"type": "integer", "minimum": 0}


def _horas_pico(campo: str) -> dict:
    """Schema of the busiest hours: each hour of the day with its count under `campo`."""
    return {
        "type": "array",
        "maxItems": HORAS_PICO,
        "items": {
            "type": "object",
            "properties": {
                "hora": {"type": "integer", "minimum": 0, "maximum": 23},
                campo: _ENTERO,
            },
            "required": ["hora", campo],
            "additionalProperties": False,
        },
    }


_PORCENTAJE = {"type": "number", "minimum": 0, "maximum": 100}
_FECHA_HORA = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$"}
SALIDA_USO_ASISTENTE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "dias": {"type": "integer", "minimum": 1, "maximum": 90},
        "desde": _FECHA_HORA,
        "hasta": _FECHA_HORA,
        "zona_horaria": {"type": "string"},
        "total_llamadas": _ENTERO,
        "errores": _ENTERO,
        "porcentaje_error": _PORCENTAJE,
        "usuarios_distintos": _ENTERO,
        "integraciones_distintas": _ENTERO,
        "por_herramienta": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "herramienta": {"type": "string"},
                    "llamadas": _ENTERO,
                    "errores": _ENTERO,
                    "porcentaje_error": _PORCENTAJE,
                    "duracion_media_ms": {"type": "number", "minimum": 0},
                },
                "required": [
                    "herramienta",
                    "llamadas",
                    "errores",
                    "porcentaje_error",
                    "duracion_media_ms",
                ],
                "additionalProperties": False,
            },
        },
        "por_resultado": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"resultado": {"type": "string"}, "llamadas": _ENTERO},
                "required": ["resultado", "llamadas"],
                "additionalProperties": False,
            },
        },
        "horas_pico": _horas_pico("llamadas"),
        "por_cliente": {
            "type": "array",
            "description": "Llamadas con token OAuth, por aplicación conectada verificada.",
            "items": {
                "type": "object",
                "properties": {
                    "cliente": {"type": "string"},
                    "llamadas": _ENTERO,
                    "errores": _ENTERO,
                },
                "required": ["cliente", "llamadas", "errores"],
                "additionalProperties": False,
            },
        },
        "rechazos": {
            "type": "object",
            "properties": {
                "total": _ENTERO,
                "por_codigo": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "estado": {"type": "integer", "enum": sorted(rechazos.CONTADOS)},
                            "codigo": {"type": "string"},
                            "veces": _ENTERO,
                        },
                        "required": ["estado", "codigo", "veces"],
                        "additionalProperties": False,
                    },
                },
                "horas_pico": _horas_pico("veces"),
            },
            "required": ["total", "por_codigo", "horas_pico"],
            "additionalProperties": False,
        },
    },
    "required": [
        "dias",
        "desde",
        "hasta",
        "zona_horaria",
        "total_llamadas",
        "errores",
        "porcentaje_error",
        "usuarios_distintos",
        "integraciones_distintas",
        "por_herramienta",
        "por_resultado",
        "horas_pico",
        "por_cliente",
        "rechazos",
    ],
    "additionalProperties": False,
}

_ERROR = ~Q(resultado="ok")


def porcentaje(parte: int, total: int) -> float:
    return round(parte * 100 / total, 2) if total else 0.0


def _fecha(valor: datetime) -> str:
    return timezone.localtime(valor).strftime("%Y-%m-%d %H:%M")


def uso(desde: datetime, hasta: datetime) -> dict[str, Any]:
    """The aggregated figures of the audit log between two instants (five GROUP BY queries)."""
    filas = RegistroAuditoria.objects.filter(creado__gte=desde, creado__lte=hasta).order_by()
    totales = filas.aggregate(
        total=Count("id"),
        errores=Count("id", filter=_ERROR),
        usuarios=Count("usuario", distinct=True),
        integraciones=Count("clave", distinct=True),
    )
    nombres = [h.nombre for h in registro]
    por_herramienta = (
        filas.annotate(
            nombre=Case(
                When(herramienta__in=nombres, then=F("herramienta")),
                default=Value(OTRAS),
                output_field=CharField(),
            )
        )
        .values("nombre")
        .annotate(
            llamadas=Count("id"), errores=Count("id", filter=_ERROR), media=Avg("duracion_ms")
        )
        .order_by()
    )
    por_resultado = filas.values("resultado").annotate(llamadas=Count("id")).order_by()
    horas = (
        filas.annotate(hora=ExtractHour("creado"))
        .values("hora")
        .annotate(llamadas=Count("id"))
        .order_by("-llamadas", "hora")[:HORAS_PICO]
    )
    return {
        "total_llamadas": totales["total"],
        "errores": totales["errores"],
        "porcentaje_error": porcentaje(totales["errores"], totales["total"]),
        "usuarios_distintos": totales["usuarios"],
        "integraciones_distintas": totales["integraciones"],
        "por_herramienta": [
            {
                "herramienta": f["nombre"],
                "llamadas": f["llamadas"],
                "errores": f["errores"],
                "porcentaje_error": porcentaje(f["errores"], f["llamadas"]),
                "duracion_media_ms": round(float(f["media"] or 0), 1),
            }
            # Few groups (bounded by the registered tools): sorted here, the same on every
            # database whatever its collation.
            for f in sorted(por_herramienta, key=lambda f: (-f["llamadas"], f["nombre"]))
        ],
        "por_resultado": [
            {"resultado": f["resultado"], "llamadas": f["llamadas"]}
            for f in sorted(por_resultado, key=lambda f: (-f["llamadas"], f["resultado"]))
        ],
        "horas_pico": [{"hora": f["hora"], "llamadas": f["llamadas"]} for f in horas],
        "por_cliente": por_cliente(filas),
    }


def por_cliente(filas) -> list[dict[str, Any]]:
    """Calls made with an OAuth token, by client: verified ones by name, the rest pooled (one
    GROUP BY; the name is the client's current one, and only while it is verified)."""
    # The client's name while it is verified; None for an unverified or deleted one.
    verificada = get_application_model().objects.filter(pk=OuterRef("cliente_id"), verificada=True)
    grupos = (
        filas.filter(cliente_id__isnull=False)
        .annotate(nombre_verificado=Subquery(verificada.values("name")[:1]))
        .values("cliente_id", "nombre_verificado")
        .annotate(llamadas=Count("id"), errores=Count("id", filter=_ERROR))
        .order_by()
    )
    cuentas: dict[str, Counter[str]] = {}
    for g in grupos:
        if g["nombre_verificado"] is None:
            nombre = NO_VERIFICADOS
        else:
            nombre = g["nombre_verificado"] or f"Cliente {g['cliente_id']}"
        cuenta = cuentas.setdefault(nombre, Counter())
        cuenta["llamadas"] += g["llamadas"]
        cuenta["errores"] += g["errores"]
    return [
        {"cliente": nombre, "llamadas": c["llamadas"], "errores": c["errores"]}
        for nombre, c in sorted(cuentas.items(), key=lambda f: (-f[1]["llamadas"], f[0]))
    ]


def rechazados(desde: datetime, hasta: datetime) -> dict[str, Any]:
    """Totals of the calls refused before any tool ran, by status and code and by local hour (one
    GROUP BY); never who nor from where. Counts still in the cache are written first."""
    rechazos.volcar()
    filas = (
        RechazoAsistente.objects.entre(desde, hasta)
        .annotate(hora=ExtractHour("minuto"))
        .values("estado", "codigo", "hora")
        .annotate(veces=Sum("veces"))
        .order_by()
    )
    por_codigo: Counter[tuple[int, str]] = Counter()
    por_hora: Counter[int] = Counter()
    for fila in filas:
        por_codigo[(fila["estado"], fila["codigo"])] += fila["veces"]
        por_hora[fila["hora"]] += fila["veces"]
    return {
        "total": sum(por_codigo.values()),
        "por_codigo": [
            {"estado": estado, "codigo": codigo, "veces": veces}
            for (estado, codigo), veces in sorted(
                por_codigo.items(), key=lambda f: (-f[1], f[0][1], f[0][0])
            )
        ],
        "horas_pico": [
            {"hora": hora, "veces": veces}
            for hora, veces in sorted(por_hora.items(), key=lambda f: (-f[1], f[0]))[:HORAS_PICO]
        ],
    }


def _resumen_rechazos(r: dict[str, Any]) -> str:
    if not r["total"]:
        return "Ninguna llamada fue rechazada antes de llegar a una herramienta."
    codigos = ", ".join(f"{c['estado']} {c['codigo']} {c['veces']}" for c in r["por_codigo"])
    return (
        "Llamadas rechazadas antes de llegar a una herramienta (credenciales, acceso o límite): "
        f"{r['total']} ({codigos})."
    )


def _resumen(d: dict[str, Any]) -> str:
    periodo = f"Uso del asistente en los últimos {d['dias']} día(s) ({d['desde']} a {d['hasta']})"
    if not d["total_llamadas"]:
        return f"{periodo}: no hubo llamadas. {_resumen_rechazos(d['rechazos'])}"
    herramientas = ", ".join(
        f"{h['herramienta']} {h['llamadas']} ({h['porcentaje_error']} % error)"
        for h in d["por_herramienta"][:5]
    )
    horas = ", ".join(f"{h['hora']:02d}:00 ({h['llamadas']})" for h in d["horas_pico"])
    return (
        f"{periodo}: {d['total_llamadas']} llamada(s), {d['errores']} con error "
        f"({d['porcentaje_error']} %), {d['usuarios_distintos']} persona(s) distinta(s), "
        f"{d['integraciones_distintas']} integración(es). Más usadas: {herramientas}. "
        f"Horas pico ({d['zona_horaria']}): {horas}. {_resumen_clientes(d['por_cliente'])}"
        f"{_resumen_rechazos(d['rechazos'])}"
    )


def _resumen_clientes(clientes: list[dict[str, Any]]) -> str:
    if not clientes:
        return ""
    partes = ", ".join(f"{c['cliente']} {c['llamadas']}" for c in clientes)
    return f"Con aplicaciones conectadas (OAuth): {partes}. "


@herramienta(
    nombre="uso_asistente",
    titulo="Uso del asistente",
    descripcion=(
        "Administración: uso agregado del asistente en los últimos `dias` días según el registro "
        "de auditoría — llamadas y porcentaje de error por herramienta y en total, resultados "
        "por código, horas pico (hora local) y número de personas e integraciones distintas; y "
        "el total de llamadas rechazadas antes de llegar a una herramienta (401, 403, 429) por "
        "código y por hora. Solo cifras agregadas: nunca filas del registro, argumentos, IP ni "
        "nombres de personas."
    ),
    acceso=Acceso.USUARIO,
    permisos=(PERMISO_ADMINISTRAR,),
    argumentos=ArgsUsoAsistente,
    salida=SALIDA_USO_ASISTENTE,
)
def uso_asistente(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    hasta = timezone.now()
    desde = hasta - timedelta(days=datos["dias"])
    estructura = {
        "dias": datos["dias"],
        "desde": _fecha(desde),
        "hasta": _fecha(hasta),
        "zona_horaria": str(timezone.get_current_timezone()),
        **uso(desde, hasta),
        "rechazos": rechazados(desde, hasta),
    }
    return Resultado(_resumen(estructura), estructura)
