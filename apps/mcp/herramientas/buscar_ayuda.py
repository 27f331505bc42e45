"""buscar_ayuda: the hub's own usage manuals, searched with BM25 and cited by manual + section."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.mcp import ayuda
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto


class ArgsBuscarAyuda(Estricto):
    consulta = serializers.CharField(
        min_length=3,
        max_length=200,
        help_text="La pregunta o el tema, en palabras de la persona (p. ej. «cómo creo un token»).",
    )
    max = serializers.IntegerField(
        min_value=1, max_value=5, default=4, help_text="Cuántos fragmentos devolver como máximo."
    )


_TEXTO = {"type": "string"}
SALIDA_BUSCAR_AYUDA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "consulta": _TEXTO,
        "suficiente": {"type": "boolean"},
        "total": {"type": "integer", "minimum": 0, "maximum": 5},
        "resultados": {
            "type": "array",
            "maxItems": 5,
            "items": {
                "type": "object",
                "properties": {
                    "manual": _TEXTO,
                    "archivo": {"type": "string", "pattern": r"^[\w.-]+\.md$"},
                    "seccion": _TEXTO,
                    "fragmento": _TEXTO,
                    "puntaje": {"type": "number", "minimum": 0},
                },
                "required": ["manual", "archivo", "seccion", "fragmento", "puntaje"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["consulta", "suficiente", "total", "resultados"],
    "additionalProperties": False,
}


def _cita(item: dict[str, Any]) -> str:
    return f"«{item['manual']}» › {item['seccion']}"


def _resumen(consulta: str, resultados: list[dict[str, Any]], suficiente: bool) -> str:
    if not resultados:
        return (
            f"Los manuales del hub no tratan «{consulta}». No invente una respuesta: sugiera "
            "reformular la pregunta o, si es un problema del hub, reportarlo a la mesa de ayuda."
        )
    citas = "; ".join(_cita(r) for r in resultados)
    if suficiente:
        cierre = "Los fragmentos cubren la pregunta: responda con ellos y cite manual y sección."
    else:
        cierre = (
            "Los fragmentos no cubren bien la pregunta: úselos con cautela, dígalo a la persona "
            "y no complete lo que falte con suposiciones."
        )
    return f"{len(resultados)} sección(es) de los manuales para «{consulta}»: {citas}. {cierre}"


@herramienta(
    nombre="buscar_ayuda",
    titulo="Buscar en los manuales del hub",
    descripcion=(
        "Busca en los manuales de uso del hub (solicitudes, bandeja, CDP y RP, PAA, documentos "
        "de calidad, firmas, mesa de ayuda, asistente y tokens) y devuelve los fragmentos más "
        "relevantes, cada uno citado con su manual y su sección, más `suficiente`: si lo "
        "encontrado cubre la pregunta. No usa datos de la organización ni modelos de IA."
    ),
    acceso=Acceso.USUARIO,
    argumentos=ArgsBuscarAyuda,
    salida=SALIDA_BUSCAR_AYUDA,
)
def buscar_ayuda(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    consulta = limpiar(datos["consulta"]).strip()
    aciertos = ayuda.indice().buscar(consulta, datos["max"])
    resultados = [
        {
            "manual": a.seccion.manual,
            "archivo": a.seccion.archivo,
            "seccion": a.seccion.titulo,
            "fragmento": a.fragmento,
            "puntaje": a.puntaje,
        }
        for a in aciertos
    ]
    suficiente = ayuda.suficiente(consulta, aciertos)
    estructura = {
        "consulta": consulta,
        "suficiente": suficiente,
        "total": len(resultados),
        "resultados": resultados,
    }
    return Resultado(_resumen(consulta, resultados, suficiente), estructura)
