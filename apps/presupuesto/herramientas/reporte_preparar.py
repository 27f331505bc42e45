"""reporte_preparar: validate a custom report definition and preview it, without generating it.

The `ficha` is checked twice on purpose: its shape by the serializer below (so the JSON Schema
published in tools/list comes from it), its meaning against the catalog of `reportes.py`
(which field belongs to which source, which operator fits which type, each value's type).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from apps.presupuesto import reportes
from apps.presupuesto.herramientas.esquemas import CONTEO, TEXTO, TEXTO_O_NULO, lista, objeto
from apps.presupuesto.herramientas.formato import limpio, pesos
from apps.presupuesto.herramientas.permisos import PERSONALIZADOS
from apps.presupuesto.reportes import FORMATOS, FUENTES, MAX_FILTROS, MAX_ORDEN, MAX_VALORES
from hub.busqueda.texto import limpiar, recortar
from hub.herramientas.registro import (
    Acceso,
    ErrorHerramienta,
    Herramienta,
    Llamada,
    Resultado,
    registro,
)
from hub.http.enlaces import absoluta
from hub.http.serializadores import Estricto

MAX_PETICION = 300
CAMPOS = sorted({nombre for fuente in FUENTES.values() for nombre in fuente.campos})
OPERADORES = sorted({op for ops in reportes.OPERADORES.values() for op in ops})
MAX_COLUMNAS = max(len(fuente.campos) for fuente in FUENTES.values())
_SIMBOLO = {
    "eq": "=",
    "ne": "≠",
    "gt": ">",
    "gte": "≥",
    "lt": "<",
    "lte": "≤",
    "contiene": "contiene",
    "en": "en",
    "entre": "entre",
}
_FORMATO = {"xlsx": "Excel (xlsx)", "csv": "CSV"}
# Columns that identify a row for a person, shown in the summary's sample when present.
_EN_RESUMEN = (
    "numero",
    "linea",
    "area",
    "estado",
    "beneficiario",
    "valor_actual",
    "valor_estimado",
)
_ESCALAR = {"type": ["string", "number"]}
ESQUEMA_VALOR: dict[str, Any] = {
    "anyOf": [
        _ESCALAR,
        {"type": "array", "items": _ESCALAR, "minItems": 1, "maxItems": MAX_VALORES},
    ]
}


def _catalogo() -> str:
    return " ".join(f"{nombre}: {', '.join(f.campos)}." for nombre, f in FUENTES.items())


def _operadores() -> str:
    return " ".join(
        f"{tipo}: {', '.join(sorted(ops))}." for tipo, ops in reportes.OPERADORES.items()
    )


class ValorFiltro(serializers.JSONField):
    """A text, a number, or a list of them (for `en`, and `[desde, hasta]` for `entre`)."""

    # The engine maps fields to JSON Schema by class and has no "text or number or list":
    # `esquema_json` replaces the mapped schema (see hub.herramientas.registro.esquema_de_campo).
    esquema_json = ESQUEMA_VALOR
    default_error_messages = {"tipo": "Debe ser texto, un número o una lista de ellos."}

    def to_internal_value(self, data):
        valores = data if isinstance(data, list) else [data]
        if any(isinstance(v, bool) or not isinstance(v, str | int | float) for v in valores):
            self.fail("tipo")
        return data


class ArgsFiltro(Estricto):
    campo = serializers.ChoiceField(
        choices=CAMPOS, help_text=f"Un campo del catálogo de la fuente. {_catalogo()}"
    )
    op = serializers.ChoiceField(
        choices=OPERADORES,
        default="eq",
        help_text=(
            "Operador según el tipo del campo. "
            f"{_operadores()} entre lleva [desde, hasta]; en, una lista."
        ),
    )
    valor = ValorFiltro(help_text="Texto, número, fecha AAAA-MM-DD o una lista de ellos.")

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            # A list error, so the problem is reported at ficha.filtros.<n> itself.
            raise serializers.ValidationError("Debe ser un objeto con campo, op y valor.")
        return super().to_internal_value(data)


class ArgsFicha(Estricto):
    fuente = serializers.ChoiceField(
        choices=list(FUENTES),
        help_text="cdp (certificados), rp (registros presupuestales) o paa (líneas del PAA).",
    )
    titulo = serializers.CharField(
        min_length=3,
        max_length=150,
        required=False,
        help_text="Título del reporte; por defecto, el nombre de la fuente.",
    )
    filtros = serializers.ListField(
        child=ArgsFiltro(),
        max_length=MAX_FILTROS,
        required=False,
        help_text="Condiciones que deben cumplir todas las filas (se combinan con Y).",
    )
    formato = serializers.ChoiceField(
        choices=list(FORMATOS), default="xlsx", help_text="Formato del archivo."
    )
    columnas = serializers.ListField(
        child=serializers.ChoiceField(choices=CAMPOS),
        min_length=1,
        max_length=MAX_COLUMNAS,
        required=False,
        help_text="Columnas a incluir, en orden; por defecto todas las del catálogo de la fuente.",
    )
    orden = serializers.ListField(
        child=serializers.ChoiceField(choices=[*CAMPOS, *(f"-{c}" for c in CAMPOS)]),
        min_length=1,
        max_length=MAX_ORDEN,
        required=False,
        help_text="Campos de orden (con - delante, descendente); por defecto vigencia y número.",
    )


class ArgsReportePreparar(Estricto):
    peticion = serializers.CharField(
        max_length=MAX_PETICION,
        required=False,
        help_text="Lo que pidió la persona, en una frase (se devuelve tal cual, como dato).",
    )
    ficha = ArgsFicha(help_text="La definición del reporte.")


_CELDA = {"type": ["string", "number", "null"]}
SALIDA_REPORTE_PREPARAR: dict[str, Any] = objeto(
    {
        "peticion": TEXTO_O_NULO,
        "ficha": objeto(
            {
                "fuente": {"type": "string", "enum": list(FUENTES)},
                "titulo": TEXTO,
                "formato": {"type": "string", "enum": list(FORMATOS)},
                "filtros": lista(
                    objeto(
                        {
                            "campo": {"type": "string", "enum": CAMPOS},
                            "op": {"type": "string", "enum": OPERADORES},
                            "valor": ESQUEMA_VALOR,
                        }
                    )
                ),
                "columnas": lista({"type": "string", "enum": CAMPOS}),
                "orden": lista(TEXTO),
            },
            requeridos=["fuente", "titulo", "formato", "filtros"],
        ),
        "fuente": TEXTO,
        "columnas": lista(objeto({"campo": TEXTO, "etiqueta": TEXTO})),
        "total_filas": CONTEO,
        "muestra": {
            **lista({"type": "object", "additionalProperties": _CELDA}),
            "maxItems": reportes.MAX_MUESTRA,
        },
        "enlace": {"type": "string", "pattern": r"^/presupuesto/reportes/constructor\?ficha="},
    }
)


def _en_texto(campo: reportes.Campo, valor: Any) -> str:
    if isinstance(valor, list):
        return "[" + ", ".join(_en_texto(campo, v) for v in valor) + "]"
    if campo.tipo == "numero" and valor is not None:
        return pesos(Decimal(str(valor)))
    return "—" if valor is None or valor == "" else recortar(str(valor), 60)


def _resumen(d: dict[str, Any]) -> str:
    ficha = d["ficha"]
    fuente = FUENTES[ficha["fuente"]]
    condiciones = [
        f"{f['campo']} {_SIMBOLO[f['op']]} {_en_texto(fuente.campos[f['campo']], f['valor'])}"
        for f in ficha["filtros"]
    ]
    filtros = f" con los filtros: {'; '.join(condiciones)}" if condiciones else " sin filtros"
    titulo = "" if ficha["titulo"] == fuente.etiqueta else f" «{ficha['titulo']}»"
    partes = [
        f"Reporte{titulo} de {fuente.etiqueta} en {_FORMATO[ficha['formato']]}"
        f"{filtros}. Filas que usted puede ver: {d['total_filas']}.",
    ]
    if d["muestra"]:
        columnas = [c["campo"] for c in d["columnas"]]
        nombres = [n for n in _EN_RESUMEN if n in columnas] or columnas[:4]
        filas = [
            ", ".join(f"{n}: {_en_texto(fuente.campos[n], fila.get(n))}" for n in nombres)
            for fila in d["muestra"][:3]
        ]
        partes.append(f"Muestra: {' | '.join(filas)}.")
    partes.append(
        "El reporte no se ha generado: ábralo en el constructor de reportes del hub (con la "
        f"sesión de la persona) para revisarlo y descargarlo: {absoluta(d['enlace'])}"
    )
    return " ".join(partes)


def _ficha_cruda(ficha: dict[str, Any]) -> dict[str, Any]:
    """The serializer's output as plain JSON-like data for the catalog check."""
    cruda = {clave: valor for clave, valor in ficha.items()}
    if "filtros" in cruda:
        cruda["filtros"] = [dict(f) for f in cruda["filtros"]]
    return cruda


def reporte_preparar(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    try:
        vista = reportes.preparar(llamada.usuario, _ficha_cruda(datos["ficha"]))
    except reportes.FichaInvalida as exc:
        campos = {ruta: [limpiar(p) for p in problemas] for ruta, problemas in exc.campos.items()}
        raise ErrorHerramienta(
            "DATOS_INVALIDOS",
            "La definición del reporte no es válida: "
            + "; ".join(f"{ruta}: {' '.join(p)}" for ruta, p in campos.items()),
            campos=campos,
        ) from None
    peticion = limpiar(datos.get("peticion") or "").strip() or None
    estructura = limpio(
        {
            "peticion": peticion,
            "ficha": vista["ficha"],
            "fuente": FUENTES[vista["ficha"]["fuente"]].etiqueta,
            "columnas": vista["columnas"],
            "total_filas": vista["total_filas"],
            "muestra": vista["muestra"],
            "enlace": reportes.enlace_constructor(vista["ficha"]),
        }
    )
    return Resultado(_resumen(estructura), estructura)


registro.registrar(
    Herramienta(
        nombre="reporte_preparar",
        area="presupuesto",
        titulo="Preparar un reporte de presupuesto",
        descripcion=(
            "Prepara un reporte personalizado de presupuesto (Excel o CSV) sin generarlo: "
            "valida la definición (fuente cdp, rp o paa; filtros {campo, op, valor} del "
            "catálogo; formato), cuenta las filas que la persona puede ver, devuelve una "
            "muestra de hasta 5 filas y el enlace al constructor de reportes ya diligenciado. "
            "Los problemas de la definición vuelven como DATOS_INVALIDOS con la ruta de cada "
            "uno (p. ej. ficha.filtros.0.op)."
        ),
        acceso=Acceso.USUARIO,
        permisos=(PERSONALIZADOS,),
        argumentos=ArgsReportePreparar,
        salida=SALIDA_REPORTE_PREPARAR,
        funcion=reporte_preparar,
    )
)
