"""busqueda_global: one text over the requests the caller filed, current quality documents and
CDP/RP.

Each scope answers with its own fixed number of queries (a count and one page), whatever the
volume; every item carries an `enlace` (docs/decisiones/herramientas.md, "busqueda_global").
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.calidad.herramientas import ITEM_DOCUMENTO, documento_limpio
from apps.calidad.selectors import buscar_documentos
from apps.mcp import areas
from apps.presupuesto import selectors as presupuesto
from apps.solicitudes.herramientas.buscar import (
    ITEM_SOLICITUD,
    FiltrosSolicitudes,
    filtros_solicitudes,
    total_e_items,
)
from apps.solicitudes.models import Solicitud
from apps.solicitudes.selectors import aplicar_criterios
from hub.busqueda.columnas import un_vocabulario
from hub.herramientas.registro import Acceso, ErrorHerramienta, Llamada, Resultado, herramienta
from hub.http.serializadores import texto_buscable

AMBITOS = ("solicitudes", "documentos", "presupuesto")
# The area of the connection each scope needs (apps.mcp.areas): a connection searches only the
# areas it was granted.
AREA_DE_AMBITO = {
    "solicitudes": areas.SOLICITUDES,
    "documentos": areas.CALIDAD,
    "presupuesto": areas.PRESUPUESTO,
}
PERMISO_TODAS = "solicitudes.auditoria.ver"
PERMISO_PRESUPUESTO = "presupuesto.planeacion.consultar"


class AmbitosField(serializers.MultipleChoiceField):
    """A JSON list of distinct scopes, kept in the canonical order (a repeated scope is an error,
    as the schema's uniqueItems says)."""

    default_error_messages = {
        **serializers.MultipleChoiceField.default_error_messages,
        "not_a_list": "Se esperaba una lista de ámbitos.",
        "repetido": "No repita ámbitos.",
    }

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list", input_type=type(data).__name__)
        if any(not isinstance(v, str) for v in data):
            self.fail("invalid_choice", input=next(v for v in data if not isinstance(v, str)))
        elegidos = super().to_internal_value(data)
        if len(elegidos) != len(data):
            self.fail("repetido")
        return [a for a in AMBITOS if a in elegidos]


class ArgsBusquedaGlobal(FiltrosSolicitudes):
    texto = serializers.CharField(
        min_length=2, max_length=120, help_text="Lo que se busca: palabras, un número, un código."
    )
    ambitos = AmbitosField(
        choices=list(AMBITOS),
        allow_empty=False,
        required=False,
        help_text="Dónde buscar; por defecto en los tres ámbitos.",
    )
    tipo = serializers.CharField(
        max_length=60,
        required=False,
        help_text="Solo solicitudes: código o parte del nombre del tipo de solicitud.",
    )
    # The same filters as buscar_solicitudes, but alcance=todas is every filed request.
    estado, desde, hasta, alcance = filtros_solicitudes(
        todas="todas las que puede ver (exige el permiso de auditoría solicitudes.auditoria.ver)",
        prefijo="Solo solicitudes: ",
    )
    limite = serializers.IntegerField(
        min_value=1, max_value=10, default=5, help_text="Resultados por ámbito."
    )

    def validate_texto(self, valor: str) -> str:
        return texto_buscable(valor)


_TEXTO = {"type": "string"}
_TEXTO_O_NULO = {"type": ["string", "null"]}
_NUMERO = {"type": "number"}


def _ambito(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "disponible": {"type": "boolean"},
            "total": {"type": "integer", "minimum": 0},
            "mostrados": {"type": "integer", "minimum": 0, "maximum": 10},
            "resultados": {"type": "array", "maxItems": 10, "items": item},
        },
        "required": ["disponible", "total", "mostrados", "resultados"],
        "additionalProperties": False,
    }


# The items are those of buscar_solicitudes and buscar_documento, declared once there.
_ITEM_PRESUPUESTO = {
    "type": "object",
    "properties": {
        "tipo": {"type": "string", "enum": ["cdp", "rp"]},
        "numero": _TEXTO,
        "numero_externo": _TEXTO_O_NULO,
        "objeto": _TEXTO,
        "beneficiario": _TEXTO,
        "estado": _TEXTO,
        "estado_visible": _TEXTO,
        "area": _TEXTO,
        "cdp": _TEXTO,
        "valor_actual": _NUMERO,
        "saldo": _NUMERO,
        "exacto": {"type": "boolean"},
        "enlace": _TEXTO,
    },
    "required": [
        "tipo",
        "numero",
        "numero_externo",
        "objeto",
        "estado",
        "estado_visible",
        "area",
        "valor_actual",
        "exacto",
        "enlace",
    ],
    "additionalProperties": False,
}
SALIDA_BUSQUEDA_GLOBAL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "texto": _TEXTO,
        "ambitos": {"type": "array", "items": {"type": "string", "enum": list(AMBITOS)}},
        "alcance": {"type": "string", "enum": ["mias", "todas"]},
        "solicitudes": _ambito(ITEM_SOLICITUD),
        "documentos": _ambito(ITEM_DOCUMENTO),
        "presupuesto": _ambito(_ITEM_PRESUPUESTO),
    },
    "required": ["texto", "ambitos", "alcance"],
    "additionalProperties": False,
}


def _solicitudes(llamada: Llamada, datos: dict[str, Any]) -> dict[str, Any]:
    """Requests the user filed (mias, the word's one meaning) or every request they may see
    (todas: everything filed for holders of solicitudes.ver_todas)."""
    usuario = llamada.usuario
    if datos["alcance"] == "mias":
        base = Solicitud.objects.del_solicitante(usuario)
    else:
        # The audit permission opens the scope, not the requests: each `enlace` must open for
        # the person (docs/decisiones/asistente.md), and the request page shows only what
        # visibles_para gives.
        base = Solicitud.objects.visibles_para(usuario)
    qs = aplicar_criterios(base.buscar(datos["texto"]), datos)
    total, resultados = total_e_items(qs, datos["limite"])
    return {
        "disponible": True,
        "total": total,
        "mostrados": len(resultados),
        "resultados": resultados,
    }


def _documentos(datos: dict[str, Any]) -> dict[str, Any]:
    encontrados = buscar_documentos(texto=datos["texto"], limite=datos["limite"])
    campos = ITEM_DOCUMENTO["properties"]
    resultados = [
        {k: v for k, v in documento_limpio(d).items() if k in campos}
        for d in encontrados["documentos"]
    ]
    return {
        "disponible": True,
        "total": encontrados["total"],
        "mostrados": len(resultados),
        "resultados": resultados,
    }


def _presupuesto(llamada: Llamada, datos: dict[str, Any]) -> dict[str, Any]:
    """CDP and RP of the user's areas; without the budget permission the scope is unavailable."""
    if not llamada.usuario.has_perm(PERMISO_PRESUPUESTO):
        return {"disponible": False, "total": 0, "mostrados": 0, "resultados": []}
    encontrados = presupuesto.buscar(llamada.usuario, datos["texto"], limite=datos["limite"])
    # Only the fields this tool promises (the selector may grow for other screens).
    campos = _ITEM_PRESUPUESTO["properties"]
    resultados = [{k: v for k, v in i.items() if k in campos} for i in encontrados["resultados"]]
    return {
        "disponible": True,
        "total": encontrados["total"],
        "mostrados": len(resultados),
        "resultados": resultados,
    }


def _linea_solicitud(i: dict[str, Any]) -> str:
    numero = i["numero_radicado"] or f"borrador #{i['id_solicitud']}"
    return f"{numero} ({i['estado']}): {i['resumen']}"


def _linea_documento(i: dict[str, Any]) -> str:
    return f"{i['codigo_publicado']} — {i['titulo']}"


def _linea_presupuesto(i: dict[str, Any]) -> str:
    return f"{i['tipo'].upper()} {i['numero']} ({i['estado_visible']}): {i['objeto']}"


_NOMBRES = {"solicitudes": "Solicitudes", "documentos": "Documentos", "presupuesto": "Presupuesto"}
_LINEAS = {
    "solicitudes": _linea_solicitud,
    "documentos": _linea_documento,
    "presupuesto": _linea_presupuesto,
}


def _resumen(estructura: dict[str, Any]) -> str:
    partes = []
    nombres = {
        **_NOMBRES,
        "solicitudes": "Solicitudes radicadas por usted"
        if estructura["alcance"] == "mias"
        else "Solicitudes (todas las que usted puede ver)",
    }
    for ambito in estructura["ambitos"]:
        grupo = estructura[ambito]
        if not grupo["disponible"]:
            partes.append(f"{nombres[ambito]}: sin permiso para consultar este ámbito")
            continue
        lineas = "; ".join(_LINEAS[ambito](i) for i in grupo["resultados"])
        mostrados = (
            f", se muestran {grupo['mostrados']}" if grupo["total"] > grupo["mostrados"] else ""
        )
        partes.append(
            f"{nombres[ambito]}: {grupo['total']} resultado(s){mostrados}"
            + (f" — {lineas}" if lineas else "")
        )
    return f"Búsqueda de «{estructura['texto']}». " + ". ".join(partes) + "."


@herramienta(
    nombre="busqueda_global",
    titulo="Búsqueda global",
    descripcion=(
        "Búsqueda abierta por texto en las solicitudes de la persona, los documentos de calidad "
        "vigentes y los CDP/RP de sus áreas; resultados agrupados por ámbito (solicitudes, "
        "documentos, presupuesto), cada uno con su enlace. tipo, estado, desde, hasta y "
        "alcance filtran solo las solicitudes: alcance=mias (por defecto) son las que la "
        "persona radicó, igual que en buscar_solicitudes; alcance=todas, todas las que puede ver "
        "(exige permiso de auditoría). Solo busca en las áreas concedidas a la conexión."
    ),
    acceso=Acceso.USUARIO,
    argumentos=ArgsBusquedaGlobal,
    salida=SALIDA_BUSQUEDA_GLOBAL,
)
def busqueda_global(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    if datos["alcance"] == "todas" and not llamada.usuario.has_perm(PERMISO_TODAS):
        raise ErrorHerramienta(
            "SIN_PERMISO",
            "alcance=todas exige el permiso de auditoría de solicitudes; use alcance=mias.",
        )
    pedidos = datos.get("ambitos") or list(AMBITOS)
    concedidas = llamada.identidad.areas
    ambitos = [a for a in pedidos if AREA_DE_AMBITO[a] in concedidas]
    if not ambitos:
        raise ErrorHerramienta(
            "SIN_PERMISO",
            "Esta conexión no tiene acceso a ninguno de los ámbitos pedidos: "
            + ", ".join(pedidos)
            + ".",
        )
    estructura: dict[str, Any] = {
        "texto": datos["texto"],
        "ambitos": ambitos,
        "alcance": datos["alcance"],
    }
    # One text over several tables: its words are looked up in the vocabulary once.
    with un_vocabulario():
        if "solicitudes" in ambitos:
            estructura["solicitudes"] = _solicitudes(llamada, datos)
        if "documentos" in ambitos:
            estructura["documentos"] = _documentos(datos)
        if "presupuesto" in ambitos:
            estructura["presupuesto"] = _presupuesto(llamada, datos)
    resumen = _resumen(estructura)
    fuera = [a for a in pedidos if a not in ambitos]
    if fuera:
        resumen += f" No se buscó en {', '.join(fuera)}: esta conexión no tiene acceso."
    return Resultado(resumen, estructura)
