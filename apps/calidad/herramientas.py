"""Assistant tools of the quality system: buscar_documento (public)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.calidad.selectors import buscar_documentos
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto, texto_buscable


class ArgsBuscarDocumento(Estricto):
    texto = serializers.CharField(
        min_length=2, max_length=120, help_text="Título, código o tema del documento."
    )
    limite = serializers.IntegerField(
        min_value=1, max_value=50, default=10, help_text="Cuántos documentos devolver."
    )

    def validate_texto(self, valor: str) -> str:
        return texto_buscable(valor)


_TEXTO = {"type": "string"}
ITEM_DOCUMENTO: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "uid": _TEXTO,
        "codigo_publicado": _TEXTO,
        "codigos_anteriores": {"type": "array", "items": _TEXTO},
        "titulo": _TEXTO,
        "version": _TEXTO,
        "tipo": _TEXTO,
        "proceso": _TEXTO,
        "estado": {"type": "string", "const": "publicado"},
        "fecha_publicacion": {"type": "string", "format": "date"},
        # Added field: the page of the document (its uid is stable across versions).
        "enlace": {"type": "string", "pattern": r"^/calidad/documentos/\w+$"},
    },
    "required": [
        "id",
        "uid",
        "codigo_publicado",
        "codigos_anteriores",
        "titulo",
        "version",
        "tipo",
        "proceso",
        "estado",
        "fecha_publicacion",
        "enlace",
    ],
    "additionalProperties": False,
}

SALIDA_BUSCAR_DOCUMENTO: dict[str, Any] = {
    "type": "object",
    "properties": {
        "texto": _TEXTO,
        "total": {"type": "integer", "minimum": 0},
        "documentos": {"type": "array", "items": ITEM_DOCUMENTO},
    },
    "required": ["texto", "total", "documentos"],
}


def documento_limpio(item: dict[str, Any]) -> dict[str, Any]:
    """Titles and codes were written by people: data, with invisible characters removed."""
    return {
        **item,
        "codigo_publicado": limpiar(item["codigo_publicado"]),
        "codigos_anteriores": [limpiar(str(c)) for c in item["codigos_anteriores"]],
        "titulo": limpiar(item["titulo"]),
        "proceso": limpiar(item["proceso"]),
    }


@herramienta(
    nombre="buscar_documento",
    area="calidad",
    titulo="Buscar documentos del sistema de calidad",
    descripcion=(
        "Busca documentos vigentes (publicados) del sistema de gestión de calidad por texto "
        "libre sobre el título, el código (actual o anterior) o el tema. Devuelve la "
        "identificación de cada documento (código, título, versión, tipo, proceso, fecha de "
        "publicación) y el enlace a su página en el hub, nunca borradores ni el contenido."
    ),
    acceso=Acceso.PUBLICA,
    argumentos=ArgsBuscarDocumento,
    salida=SALIDA_BUSCAR_DOCUMENTO,
)
def buscar_documento(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    resultado = buscar_documentos(texto=datos["texto"], limite=datos["limite"])
    documentos = [documento_limpio(d) for d in resultado["documentos"]]
    total = resultado["total"]
    estructura = {"texto": datos["texto"], "total": total, "documentos": documentos}
    if not documentos:
        return Resultado(
            f"No hay documentos vigentes que coincidan con «{datos['texto']}».", estructura
        )
    lineas = [f"{d['codigo_publicado']} — {d['titulo']} (v{d['version']})" for d in documentos]
    mostrados = f" (se muestran {len(documentos)})" if total > len(documentos) else ""
    resumen = f"{total} documento(s) vigente(s) para «{datos['texto']}»{mostrados}: " + "; ".join(
        lineas
    )
    return Resultado(resumen, estructura)
