"""Custom budget report definitions (the `ficha` of reporte_preparar): catalog, validation, preview.

A ficha names a source (`cdp`, `rp`, `paa`), a title, filters `{campo, op, valor}` and a format
(`xlsx`, `csv`), optionally the columns to include and the sort order. Only catalogued fields
and operators are accepted, so a ficha can never reach a column or lookup the catalog does not
list. Rows are always the user's visible ones.
"""

from __future__ import annotations

import base64
import binascii
import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import simplejson
from django.db.models import Model, Q, QuerySet

from apps.presupuesto.estados import EstadoCdp, EstadoLinea, EstadoRp
from apps.presupuesto.models import Cdp, LineaPaa, Rp
from hub.busqueda.texto import limpiar, normalizar

MAX_FILTROS = 10
MAX_VALORES = 50
MAX_MUESTRA = 5
FORMATOS = ("xlsx", "csv")
MAX_ORDEN = 3
CAMPOS_FICHA = ("fuente", "titulo", "filtros", "formato", "columnas", "orden")
# The report builder page (apps.presupuesto.views.reportes) reads the ficha from this address.
RUTA_CONSTRUCTOR = "/presupuesto/reportes/constructor"


@dataclass(frozen=True)
class Campo:
    ruta: str  # ORM path of the value
    tipo: str  # texto, numero, fecha, enum, entero
    etiqueta: str
    opciones: tuple[str, ...] = ()
    ruta_busqueda: str | None = None  # normalized column used by `contiene`
    nombres: tuple[tuple[str, str], ...] = ()  # (value, label) of an enum, for people

    def para_personas(self, valor: Any) -> Any:
        """An enum value as people read it (`en_revision` -> `En revisión`); others unchanged."""
        return dict(self.nombres).get(valor, valor) if self.nombres else valor


@dataclass(frozen=True)
class Fuente:
    modelo: type[Model]
    etiqueta: str
    campos: dict[str, Campo]
    orden: tuple[str, ...]


def _enum(ruta: str, etiqueta: str, choices) -> Campo:
    return Campo(ruta, "enum", etiqueta, tuple(choices.values), nombres=tuple(choices.choices))


FUENTES: dict[str, Fuente] = {
    "cdp": Fuente(
        Cdp,
        "Certificados de disponibilidad presupuestal (CDP)",
        {
            "numero": Campo("numero", "texto", "Número"),
            "numero_externo": Campo("numero_externo", "texto", "Número externo"),
            "numero_radicado": Campo("numero_radicado", "texto", "Radicado"),
            "vigencia": Campo("vigencia__anio", "entero", "Vigencia"),
            "estado": _enum("estado", "Estado", EstadoCdp),
            "area": Campo("area__sigla", "texto", "Área"),
            "proyecto": Campo("proyecto__codigo", "texto", "Proyecto"),
            "objeto": Campo("objeto", "texto", "Objeto", ruta_busqueda="busqueda"),
            "valor_inicial": Campo("valor_inicial", "numero", "Valor inicial"),
            "valor_actual": Campo("valor_actual", "numero", "Valor actual"),
            "comprometido": Campo("comprometido", "numero", "Comprometido"),
            "saldo": Campo("saldo", "numero", "Saldo"),
            "fecha_expedicion": Campo("fecha_expedicion", "fecha", "Fecha de expedición"),
        },
        ("-vigencia__anio", "numero"),
    ),
    "rp": Fuente(
        Rp,
        "Registros presupuestales (RP)",
        {
            "numero": Campo("numero", "texto", "Número"),
            "numero_externo": Campo("numero_externo", "texto", "Número externo"),
            "cdp": Campo("cdp__numero", "texto", "CDP"),
            "vigencia": Campo("vigencia__anio", "entero", "Vigencia"),
            "estado": _enum("estado", "Estado", EstadoRp),
            "area": Campo("cdp__area__sigla", "texto", "Área"),
            "beneficiario": Campo(
                "beneficiario", "texto", "Beneficiario", ruta_busqueda="busqueda"
            ),
            "objeto": Campo("objeto", "texto", "Objeto", ruta_busqueda="busqueda"),
            "valor_inicial": Campo("valor_inicial", "numero", "Valor inicial"),
            "valor_actual": Campo("valor_actual", "numero", "Valor actual"),
            "obligado": Campo("obligado", "numero", "Obligado"),
            "fecha_expedicion": Campo("fecha_expedicion", "fecha", "Fecha de expedición"),
            "fecha_inicio": Campo("fecha_inicio", "fecha", "Fecha de inicio"),
            "fecha_fin": Campo("fecha_fin", "fecha", "Fecha de terminación"),
        },
        ("-vigencia__anio", "numero"),
    ),
    "paa": Fuente(
        LineaPaa,
        "Líneas del Plan Anual de Adquisiciones (PAA)",
        {
            "linea": Campo("numero", "entero", "Línea"),
            "vigencia": Campo("vigencia__anio", "entero", "Vigencia"),
            "estado": _enum("estado", "Estado", EstadoLinea),
            "area": Campo("area__sigla", "texto", "Área"),
            "proyecto": Campo("proyecto__codigo", "texto", "Proyecto"),
            "objeto": Campo("objeto", "texto", "Objeto", ruta_busqueda="busqueda"),
            "modalidad": _enum("modalidad", "Modalidad", LineaPaa.Modalidad),
            "valor_estimado": Campo("valor_estimado", "numero", "Valor estimado"),
            "mes_inicio": Campo("mes_inicio", "fecha", "Mes de inicio"),
        },
        ("-vigencia__anio", "numero"),
    ),
}

OPERADORES: dict[str, set[str]] = {
    "texto": {"eq", "ne", "contiene", "en"},
    "enum": {"eq", "ne", "en"},
    "numero": {"eq", "ne", "gt", "gte", "lt", "lte", "entre"},
    "entero": {"eq", "ne", "gt", "gte", "lt", "lte", "entre", "en"},
    "fecha": {"eq", "ne", "gt", "gte", "lt", "lte", "entre"},
}
_LOOKUP = {"eq": "exact", "gt": "gt", "gte": "gte", "lt": "lt", "lte": "lte", "en": "in"}


class FichaInvalida(ValueError):
    """The definition does not fit the catalog; `campos` maps each path to its problems."""

    def __init__(self, campos: dict[str, list[str]]):
        super().__init__("La definición del reporte no es válida.")
        self.campos = campos


@dataclass
class Ficha:
    fuente: str
    titulo: str
    formato: str
    filtros: list[dict[str, Any]] = field(default_factory=list)
    columnas: list[str] | None = None  # None: every catalogued column
    orden: list[str] | None = None  # `campo` or `-campo`; None: the source's default order

    def como_dict(self) -> dict:
        """The normalized definition (what a report builder is prefilled with)."""
        definicion = {
            "fuente": self.fuente,
            "titulo": self.titulo,
            "formato": self.formato,
            "filtros": [
                {"campo": f["campo"], "op": f["op"], "valor": _a_json(f["valor"])}
                for f in self.filtros
            ],
        }
        if self.columnas is not None:
            definicion["columnas"] = list(self.columnas)
        if self.orden is not None:
            definicion["orden"] = list(self.orden)
        return definicion


def _a_json(valor):
    if isinstance(valor, list):
        return [_a_json(v) for v in valor]
    if isinstance(valor, datetime.date):
        return valor.isoformat()
    return valor


def _convertir(campo: Campo, dato) -> Any:
    """One filter value in the field's type; ValueError with a Spanish text otherwise."""
    if isinstance(dato, (dict, list)) or dato is None:
        raise ValueError("Debe ser un valor simple.")
    if campo.tipo == "numero":
        try:
            numero = Decimal(str(dato))
        except InvalidOperation:
            raise ValueError("Debe ser un número.") from None
        if not numero.is_finite() or abs(numero) >= Decimal(10) ** 16:
            raise ValueError("Debe ser un número.")
        return numero
    if campo.tipo == "entero":
        if isinstance(dato, bool) or not str(dato).strip().lstrip("-").isdigit():
            raise ValueError("Debe ser un número entero.")
        if len(str(dato).strip()) > 9:
            raise ValueError("Es demasiado grande.")
        return int(str(dato).strip())
    if campo.tipo == "fecha":
        try:
            return datetime.date.fromisoformat(str(dato))
        except ValueError:
            raise ValueError("Debe ser una fecha AAAA-MM-DD.") from None
    texto = limpiar(str(dato)).strip()
    if not texto or len(texto) > 120:
        raise ValueError("Debe tener entre 1 y 120 caracteres.")
    if campo.tipo == "enum" and texto not in campo.opciones:
        raise ValueError(f"Valores permitidos: {', '.join(campo.opciones)}.")
    return texto


def validar_ficha(ficha: Any) -> Ficha:
    """Check a ficha against the catalog; FichaInvalida lists every problem by path."""
    if not isinstance(ficha, dict):
        raise FichaInvalida({"ficha": ["Debe ser un objeto."]})
    errores: dict[str, list[str]] = {}
    desconocidos = set(ficha) - set(CAMPOS_FICHA)
    for nombre in sorted(desconocidos):
        errores[f"ficha.{nombre}"] = ["Campo no permitido."]
    fuente = ficha.get("fuente")
    if fuente not in FUENTES:
        errores["ficha.fuente"] = [f"Debe ser una de: {', '.join(FUENTES)}."]
    formato = ficha.get("formato", "xlsx")
    if formato not in FORMATOS:
        errores["ficha.formato"] = [f"Debe ser uno de: {', '.join(FORMATOS)}."]
    titulo = ficha.get("titulo")
    if titulo is None:
        titulo = FUENTES[fuente].etiqueta if fuente in FUENTES else ""
    elif not isinstance(titulo, str) or not 3 <= len(limpiar(titulo).strip()) <= 150:
        errores["ficha.titulo"] = ["Debe tener entre 3 y 150 caracteres."]
    filtros_crudos = ficha.get("filtros", [])
    if not isinstance(filtros_crudos, list) or len(filtros_crudos) > MAX_FILTROS:
        errores["ficha.filtros"] = [f"Debe ser una lista de hasta {MAX_FILTROS} filtros."]
        filtros_crudos = []
    filtros = []
    for i, crudo in enumerate(filtros_crudos):
        ruta = f"ficha.filtros.{i}"
        if fuente not in FUENTES:
            break
        try:
            filtros.append(_validar_filtro(FUENTES[fuente], crudo))
        except FichaInvalida as exc:
            for clave, problemas in exc.campos.items():
                errores[f"{ruta}.{clave}" if clave else ruta] = problemas
    columnas = orden = None
    if fuente in FUENTES:
        columnas = _validar_columnas(FUENTES[fuente], ficha.get("columnas"), errores)
        orden = _validar_orden(FUENTES[fuente], ficha.get("orden"), errores)
    if errores:
        raise FichaInvalida(errores)
    return Ficha(fuente, limpiar(titulo).strip(), formato, filtros, columnas, orden)


def _validar_columnas(fuente: Fuente, crudas: Any, errores: dict) -> list[str] | None:
    """Catalogued columns, each once, in the order given (None: all of them)."""
    if crudas is None:
        return None
    if not isinstance(crudas, list) or not 1 <= len(crudas) <= len(fuente.campos):
        errores["ficha.columnas"] = [
            f"Debe ser una lista de 1 a {len(fuente.campos)} campos del catálogo."
        ]
        return None
    vistas: set[str] = set()
    for i, nombre in enumerate(crudas):
        if not isinstance(nombre, str) or nombre not in fuente.campos:
            errores[f"ficha.columnas.{i}"] = [f"Campos permitidos: {', '.join(fuente.campos)}."]
        elif nombre in vistas:
            errores[f"ficha.columnas.{i}"] = ["Columna repetida."]
        else:
            vistas.add(nombre)
    return list(crudas)


def _validar_orden(fuente: Fuente, crudo: Any, errores: dict) -> list[str] | None:
    """Up to MAX_ORDEN catalogued fields, `-` in front for descending order."""
    if crudo is None:
        return None
    if not isinstance(crudo, list) or not 1 <= len(crudo) <= MAX_ORDEN:
        errores["ficha.orden"] = [f"Debe ser una lista de 1 a {MAX_ORDEN} campos."]
        return None
    vistos: set[str] = set()
    for i, clave in enumerate(crudo):
        nombre = clave[1:] if isinstance(clave, str) and clave.startswith("-") else clave
        if not isinstance(nombre, str) or nombre not in fuente.campos:
            errores[f"ficha.orden.{i}"] = [
                f"Un campo del catálogo, con - delante para orden descendente: "
                f"{', '.join(fuente.campos)}."
            ]
        elif nombre in vistos:
            errores[f"ficha.orden.{i}"] = ["Campo repetido."]
        else:
            vistos.add(nombre)
    return list(crudo)


def _validar_filtro(fuente: Fuente, crudo: Any) -> dict:
    if not isinstance(crudo, dict) or set(crudo) - {"campo", "op", "valor"}:
        raise FichaInvalida({"": ["Debe ser un objeto con campo, op y valor."]})
    nombre, op, dato = crudo.get("campo"), crudo.get("op", "eq"), crudo.get("valor")
    campo = fuente.campos.get(nombre) if isinstance(nombre, str) else None
    if campo is None:
        raise FichaInvalida({"campo": [f"Campos permitidos: {', '.join(fuente.campos)}."]})
    permitidos = OPERADORES[campo.tipo]
    if op not in permitidos:
        raise FichaInvalida({"op": [f"Para «{nombre}»: {', '.join(sorted(permitidos))}."]})
    try:
        if op in ("en", "entre"):
            cuantos = 2 if op == "entre" else None
            if not isinstance(dato, list) or not dato or len(dato) > MAX_VALORES:
                raise ValueError(f"Debe ser una lista de 1 a {MAX_VALORES} valores.")
            if cuantos and len(dato) != cuantos:
                raise ValueError("Debe ser una lista [desde, hasta].")
            valor = [_convertir(campo, d) for d in dato]
        else:
            valor = _convertir(campo, dato)
    except ValueError as exc:
        raise FichaInvalida({"valor": [str(exc)]}) from None
    return {"campo": nombre, "op": op, "valor": valor}


def _condicion(campo: Campo, op: str, valor) -> Q:
    if op == "contiene":
        if campo.ruta_busqueda:
            # Every word, accents and case apart (as the searches do).
            condicion = Q()
            for palabra in normalizar(valor).split(" "):
                condicion &= Q(**{f"{campo.ruta_busqueda}__contains": palabra})
            return condicion
        return Q(**{f"{campo.ruta}__icontains": valor})
    if op == "entre":
        return Q(**{f"{campo.ruta}__range": (valor[0], valor[1])})
    if campo.tipo == "texto" and op in ("eq", "ne"):
        condicion = Q(**{f"{campo.ruta}__iexact": valor})
        return condicion if op == "eq" else ~condicion
    if op == "ne":
        return ~Q(**{campo.ruta: valor})
    return Q(**{f"{campo.ruta}__{_LOOKUP[op]}": valor})


def filas(user, ficha: Ficha) -> QuerySet:
    """The visible rows the ficha selects (a lazy queryset of dicts keyed by field name)."""
    fuente = FUENTES[ficha.fuente]
    qs = fuente.modelo.objects.visibles_para(user)
    for filtro in ficha.filtros:
        qs = qs.filter(_condicion(fuente.campos[filtro["campo"]], filtro["op"], filtro["valor"]))
    orden = [
        f"-{fuente.campos[c[1:]].ruta}" if c.startswith("-") else fuente.campos[c].ruta
        for c in ficha.orden or []
    ]
    # The source's own order breaks ties, so the sample is stable.
    return qs.order_by(*orden, *fuente.orden)


def columnas_de(ficha: Ficha) -> list[tuple[str, Campo]]:
    """(name, field) of each column of the report, in order (all of the source's by default)."""
    fuente = FUENTES[ficha.fuente]
    return [(nombre, fuente.campos[nombre]) for nombre in ficha.columnas or fuente.campos]


def preparar(user, ficha_cruda: Any) -> dict:
    """Validate a ficha and preview it: row count and a few rows (2 queries). No file is made."""
    ficha = validar_ficha(ficha_cruda)
    qs = filas(user, ficha)
    rutas = {nombre: campo.ruta for nombre, campo in columnas_de(ficha)}
    muestra = []
    for fila in qs.values(*set(rutas.values()))[:MAX_MUESTRA]:
        muestra.append({nombre: _celda(fila[ruta]) for nombre, ruta in rutas.items()})
    return {
        "ficha": ficha.como_dict(),
        "columnas": [{"campo": n, "etiqueta": c.etiqueta} for n, c in columnas_de(ficha)],
        "total_filas": qs.count(),
        "muestra": muestra,
    }


def valores(user, ficha: Ficha, *, lote: int = 2000) -> Iterator[tuple[Any, ...]]:
    """Every row the preview counts, as a tuple in column order: dates, Decimal amounts and
    clean texts. Read in batches (a server-side cursor on PostgreSQL), never all at once."""
    rutas = [campo.ruta for _, campo in columnas_de(ficha)]
    for fila in filas(user, ficha).values_list(*rutas).iterator(chunk_size=lote):
        yield tuple(limpiar(v) if isinstance(v, str) else v for v in fila)


def _celda(valor):
    if isinstance(valor, datetime.date):
        return valor.isoformat()
    if isinstance(valor, str):
        return limpiar(valor)
    return valor


# --- the link to the report builder -----------------------------------------------------------


def ficha_canonica(definicion: dict) -> bytes:
    """A normalized definition (`Ficha.como_dict()`) as canonical JSON: sorted keys, no spaces,
    exact decimals."""
    return simplejson.dumps(
        definicion,
        use_decimal=True,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode("utf-8")


def enlace_constructor(definicion: dict) -> str:
    """`/presupuesto/reportes/constructor?ficha=<base64url of the canonical JSON, unpadded>`."""
    codigo = base64.urlsafe_b64encode(ficha_canonica(definicion)).rstrip(b"=").decode("ascii")
    return f"{RUTA_CONSTRUCTOR}?ficha={codigo}"


def ficha_de_enlace(codigo: str) -> Ficha:
    """The builder's side: decode the `ficha` parameter and validate it again (never trust it)."""
    try:
        crudo = base64.urlsafe_b64decode(codigo + "=" * (-len(codigo) % 4))
        definicion = simplejson.loads(crudo.decode("utf-8"), use_decimal=True)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise FichaInvalida({"ficha": ["El enlace no contiene una definición legible."]}) from None
    return validar_ficha(definicion)
