"""resumen_ejecutivo: aggregated figures of one area, or of the PAA lines starting in a month."""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from apps.presupuesto.estados import EstadoCdp, EstadoLinea, EstadoRp
from apps.presupuesto.herramientas.errores import (
    SALIDA_FILTRO_INVALIDO,
    filtro_invalido,
    sin_vigencia,
)
from apps.presupuesto.herramientas.esquemas import (
    AREA,
    CIFRAS,
    CONTEO,
    ENTERO,
    LINEAS_POR_ESTADO,
    LINEAS_TOTAL,
    MES,
    NUMERO,
    POR_PROYECTO,
    TEXTO,
    UMBRALES,
    lista,
    objeto,
)
from apps.presupuesto.herramientas.formato import (
    enumerar,
    limpio,
    lineas_en_texto,
    pesos,
    por_ciento,
)
from apps.presupuesto.herramientas.permisos import PLANEACION, REPORTES
from apps.presupuesto.selectors import FiltroInvalido, paa_mes, resumen_area
from hub.busqueda.texto import MESES, recortar
from hub.herramientas.registro import Acceso, Herramienta, Llamada, Resultado, registro
from hub.http.serializadores import Estricto

# Months of the years 2000 to 2100, as the validation below accepts.
PATRON_MES = r"^(20\d{2}|2100)-(0[1-9]|1[0-2])$"
_MES = re.compile(PATRON_MES)


class CampoMes(serializers.CharField):
    """A month `YYYY-MM`; its published schema carries the pattern too."""

    esquema_json = {"type": "string", "minLength": 7, "maxLength": 7, "pattern": PATRON_MES}


class ArgsResumenEjecutivo(Estricto):
    ambito = serializers.ChoiceField(
        choices=["area", "paa_mes"],
        help_text=(
            "area: situación presupuestal de un área y sus líneas del PAA por estado; paa_mes: "
            "líneas del PAA con inicio estimado en un mes."
        ),
    )
    area = serializers.CharField(
        max_length=100,
        required=False,
        help_text=(
            "Id, sigla o parte del nombre del área. Obligatoria con ambito=area (una sola "
            "área); con paa_mes filtra."
        ),
    )
    mes = CampoMes(
        min_length=7,
        max_length=7,
        required=False,
        help_text="Mes YYYY-MM (solo con ambito=paa_mes); por defecto el mes en curso.",
    )

    def validate_mes(self, valor: str) -> datetime.date:
        if not _MES.fullmatch(valor):
            raise serializers.ValidationError("Debe ser un mes YYYY-MM, p. ej. 2026-03.")
        return datetime.date(int(valor[:4]), int(valor[5:]), 1)

    def validate(self, attrs):
        if attrs["ambito"] == "area":
            errores = {}
            if not attrs.get("area"):
                errores["area"] = ["Es obligatoria con ambito=area."]
            if "mes" in attrs:
                errores["mes"] = ["Solo se usa con ambito=paa_mes."]
            if errores:
                raise serializers.ValidationError(errores)
        return attrs


_POR_ESTADO_DOCUMENTO = {
    "cdp_por_estado": EstadoCdp,
    "rp_por_estado": EstadoRp,
}
SALIDA_AREA = objeto(
    {
        "ambito": {"type": "string", "const": "area"},
        "vigencia": ENTERO,
        "area": AREA,
        **CIFRAS,
        "lineas_paa": LINEAS_POR_ESTADO,
        "lineas_paa_total": LINEAS_TOTAL,
        "por_proyecto": POR_PROYECTO,
        **{
            nombre: lista(
                objeto(
                    {
                        "estado": {"type": "string", "enum": list(estados.values)},
                        "estado_visible": TEXTO,
                        "cantidad": CONTEO,
                        "valor_actual": NUMERO,
                    }
                )
            )
            for nombre, estados in _POR_ESTADO_DOCUMENTO.items()
        },
        "umbrales_semaforo": UMBRALES,
    }
)
_LINEA = objeto(
    {
        "linea": ENTERO,
        "vigencia": ENTERO,
        "objeto": TEXTO,
        "valor_estimado": NUMERO,
        "mes_inicio": MES,
        "modalidad": TEXTO,
        "estado": {"type": "string", "enum": list(EstadoLinea.values)},
        "estado_visible": TEXTO,
        "area": TEXTO,
        "proyecto": TEXTO,
        "enlace": {"type": "string", "pattern": r"^/presupuesto/paa/\d+$"},
    }
)
SALIDA_PAA_MES = objeto(
    {
        "ambito": {"type": "string", "const": "paa_mes"},
        "mes": MES,
        "filtros": objeto({"areas": {"anyOf": [lista(AREA), {"type": "null"}]}}),
        "cantidad": CONTEO,
        "valor_total": NUMERO,
        "por_estado": LINEAS_POR_ESTADO,
        "por_area": lista(objeto({**AREA["properties"], "cantidad": CONTEO, "valor": NUMERO})),
        "mayores": {**lista(_LINEA), "maxItems": 5},
    }
)
SALIDA_RESUMEN_EJECUTIVO: dict[str, Any] = {
    "type": "object",
    "oneOf": [SALIDA_AREA, SALIDA_PAA_MES],
}


def nombre_mes(mes: str) -> str:
    anio, numero = mes.split("-")
    return f"{MESES[int(numero) - 1]} de {anio}"


def _documentos(filas: list[dict[str, Any]]) -> str:
    partes = [
        f"{f['cantidad']} {f['estado_visible'].lower()} ({pesos(f['valor_actual'])})"
        for f in filas
        if f["cantidad"]
    ]
    return ", ".join(partes) if partes else "ninguno"


def _resumen_area(d: dict[str, Any]) -> str:
    area = d["area"]
    partes = [
        f"Situación presupuestal de {area['sigla']} — {area['nombre']} (vigencia {d['vigencia']}): "
        f"asignado {pesos(d['asignado'])}; programado en el PAA {pesos(d['programado'])}; "
        f"certificado en CDP {pesos(d['certificado'])}; comprometido en RP "
        f"{pesos(d['comprometido'])}; obligado {pesos(d['obligado'])}; disponible "
        f"{pesos(d['disponible'])} ({por_ciento(d['porcentaje_disponible'])} de lo asignado, "
        f"semáforo {d['semaforo']}); avance {por_ciento(d['avance'])}.",
        f"Líneas del PAA: {d['lineas_paa_total']['cantidad']} por "
        f"{pesos(d['lineas_paa_total']['valor'])} (sin anuladas); por estado: "
        f"{lineas_en_texto(d['lineas_paa'])}.",
        f"CDP: {_documentos(d['cdp_por_estado'])}. RP: {_documentos(d['rp_por_estado'])}.",
    ]
    if d["por_proyecto"]:
        proyectos = [
            f"{p['codigo']}: asignado {pesos(p['asignado'])}, disponible "
            f"{pesos(p['disponible'])} ({p['semaforo']})"
            for p in d["por_proyecto"]
        ]
        partes.append(f"Por proyecto: {enumerar(proyectos)}.")
    return " ".join(partes)


def _resumen_paa_mes(d: dict[str, Any]) -> str:
    alcance = "áreas que usted puede ver"
    if d["filtros"]["areas"] is not None:
        alcance = "área " + ", ".join(a["sigla"] for a in d["filtros"]["areas"])
    cabeza = f"Líneas del PAA con inicio estimado en {nombre_mes(d['mes'])} ({alcance})"
    if not d["cantidad"] and not any(f["cantidad"] for f in d["por_estado"]):
        return f"{cabeza}: ninguna."
    partes = [
        f"{cabeza}: {d['cantidad']} por {pesos(d['valor_total'])} (sin anuladas); por estado: "
        f"{lineas_en_texto(d['por_estado'])}."
    ]
    if d["por_area"]:
        areas = [f"{a['sigla']} {a['cantidad']} por {pesos(a['valor'])}" for a in d["por_area"]]
        partes.append(f"Por área: {enumerar(areas)}.")
    if d["mayores"]:
        mayores = [
            f"línea {m['linea']} «{recortar(m['objeto'], 80)}» {pesos(m['valor_estimado'])} "
            f"({m['area']}, {m['estado_visible'].lower()})"
            for m in d["mayores"]
        ]
        partes.append(f"De mayor valor: {'; '.join(mayores)}.")
    return " ".join(partes)


def resumen_ejecutivo(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    usuario = llamada.usuario
    try:
        if datos["ambito"] == "area":
            resultado = resumen_area(usuario, datos["area"])
            if resultado is None:
                raise sin_vigencia()
            estructura = limpio({"ambito": "area", **resultado})
            return Resultado(_resumen_area(estructura), estructura)
        mes = datos.get("mes") or timezone.localdate().replace(day=1)
        resultado = paa_mes(usuario, mes, area=datos.get("area"))
    except FiltroInvalido as exc:
        raise filtro_invalido(exc) from None
    estructura = limpio({"ambito": "paa_mes", **resultado})
    return Resultado(_resumen_paa_mes(estructura), estructura)


registro.registrar(
    Herramienta(
        nombre="resumen_ejecutivo",
        area="presupuesto",
        titulo="Resumen ejecutivo de presupuesto",
        descripcion=(
            "Cifras agregadas para un resumen ejecutivo. ambito=area: situación presupuestal de "
            "un área (asignado, certificado, comprometido, disponible con semáforo), sus líneas "
            "del PAA por estado y sus CDP y RP por estado. ambito=paa_mes: líneas del PAA con "
            "inicio estimado en el mes (cantidad, valor total, por estado y por área, las de "
            "mayor valor). Solo lo de las áreas que la persona puede ver."
        ),
        acceso=Acceso.USUARIO,
        permisos=(REPORTES, PLANEACION),
        argumentos=ArgsResumenEjecutivo,
        salida=SALIDA_RESUMEN_EJECUTIVO,
        salida_error=SALIDA_FILTRO_INVALIDO,
        funcion=resumen_ejecutivo,
    )
)
