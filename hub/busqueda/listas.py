"""Lists that find: a searched, filtered, sorted and paged list page at a fixed number of queries.

A list page reads its filters with the same serializer as the assistant tool that searches the
same records (the declaration is written once), so a page and a tool never disagree on what a
filter means or accepts. This module knows no app: each page gives its serializer, the Spanish
labels of its fields, its sort orders and how to load a page of rows by pk.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.db import models
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from rest_framework import serializers

from hub.busqueda.columnas import total_y_pagina

POR_PAGINA = 20
PARAM_TEXTO = "q"
PARAM_PAGINA = "pagina"
PARAM_ORDEN = "orden"
# Past any list's end (a million rows is 50,000 pages) and within the databases' integers: a
# larger page number is read as this one, and so as the last page.
MAX_PAGINA = 1_000_000


@dataclass(frozen=True)
class Orden:
    """One way to sort a list: its query value, what people read and the SQL order."""

    clave: str
    etiqueta: str
    campos: tuple[Any, ...]


@dataclass
class Campo:
    """A filter of the form, as the template draws it."""

    nombre: str
    etiqueta: str
    tipo: str  # "texto", "opciones" or "fecha"
    valor: str
    opciones: list[tuple[str, str]] = field(default_factory=list)
    vacio: str = ""  # the label of the empty option of a select ("" if the select has none)
    errores: list[str] = field(default_factory=list)


@dataclass
class Lectura:
    """What the page asked for: valid filters (or the form's errors), the sort and the page."""

    campos: list[Campo]
    datos: dict[str, Any] | None
    errores: list[str]
    orden: Orden
    ordenes: tuple[Orden, ...]
    pagina: int
    consulta: dict[str, str]  # the filters as sent, for the links of pages and sorts

    @property
    def valida(self) -> bool:
        return self.datos is not None

    @property
    def filtros_activos(self) -> int:
        """How many filters besides the free text the person set (the form's summary says it)."""
        return sum(1 for c in self.campos if c.nombre != PARAM_TEXTO and c.valor)

    @property
    def abrir_filtros(self) -> bool:
        """The filters start unfolded when any is set, sorted or wrong (on a phone they fold)."""
        return bool(
            self.filtros_activos
            or self.orden is not self.ordenes[0]
            or any(c.errores for c in self.campos if c.nombre != PARAM_TEXTO)
        )

    def marcar_error(self, parametro: str, mensaje: str) -> None:
        """A refusal the serializer cannot know (a permission): the list is not shown."""
        self.datos = None
        for campo in self.campos:
            if campo.nombre == parametro:
                campo.errores.append(mensaje)
                return
        self.errores.append(mensaje)

    def enlace(self, **cambios: Any) -> str:
        """The query string of this list with some parameters changed (page 1 on a new sort)."""
        valores = {**self.consulta, PARAM_ORDEN: self.orden.clave, **cambios}
        return "?" + urlencode({k: v for k, v in valores.items() if v not in ("", None)})

    def enlaces_orden(self) -> list[dict[str, Any]]:
        return [
            {
                "etiqueta": o.etiqueta,
                "clave": o.clave,
                "actual": o is self.orden,
                "enlace": self.enlace(**{PARAM_ORDEN: o.clave}),
            }
            for o in self.ordenes
        ]


@dataclass
class Pagina:
    """One page of a list: its rows in order, the total and the links around it."""

    filas: list[Any]
    total: int
    numero: int
    paginas: int
    anterior: str | None
    siguiente: str | None


def _entero(valor: str | None) -> int | None:
    try:
        return int(valor) if valor is not None else None
    except ValueError:
        return None


FECHA_INVALIDA = "Escriba una fecha válida como AAAA-MM-DD, por ejemplo 2026-03-01."


def _para_personas(campo: serializers.Field | None, mensaje: Any) -> str:
    """The serializer's message, except where it speaks to a program (a date's format)."""
    texto = str(mensaje)
    if isinstance(campo, serializers.DateField):
        # DRF's "wrong format" message names the format the way a program reads it.
        formato = str(campo.error_messages["invalid"]).split("{", 1)[0]
        if texto.startswith(formato):
            return FECHA_INVALIDA
    return texto


def _tipo(campo: serializers.Field) -> str:
    if isinstance(campo, serializers.ChoiceField):
        return "opciones"
    if isinstance(campo, serializers.DateField):
        return "fecha"
    return "texto"


def leer(
    consulta: QueryDict,
    serializador: type[serializers.Serializer],
    *,
    campos: Mapping[str, str],
    etiquetas: Mapping[str, str],
    ordenes: tuple[Orden, ...],
    opciones: Mapping[str, Iterable[tuple[str, str]]] | None = None,
    vacios: Mapping[str, str] | None = None,
) -> Lectura:
    """Validate the list's query string with the tool's serializer.

    `campos` maps each serializer field the page offers to its query parameter (the tools' free
    text `texto` is the page's `q`); `opciones` gives the people's labels of a choice field (the
    tools take codes). An empty parameter is an absent filter. An unknown sort falls back to the
    first one and a page out of range to the nearest one: the person still gets a list.
    """
    opciones = opciones or {}
    vacios = vacios or {}
    enviados: dict[str, str] = {}
    for nombre, parametro in campos.items():
        valor = consulta.get(parametro, "")
        if valor.strip():
            enviados[nombre] = valor
    validador = serializador(data=enviados)
    errores_por_campo: dict[str, list[str]] = {}
    errores: list[str] = []
    datos: dict[str, Any] | None = None
    if validador.is_valid():
        datos = dict(validador.validated_data)
    else:
        for nombre, mensajes in validador.errors.items():
            mensajes = mensajes if isinstance(mensajes, list) else [mensajes]
            textos = [_para_personas(validador.fields.get(nombre), m) for m in mensajes]
            if nombre in campos:
                errores_por_campo[nombre] = textos
            else:
                errores.extend(textos)
    definidos = validador.fields
    formulario = []
    for nombre, parametro in campos.items():
        campo = definidos[nombre]
        lista = list(opciones.get(nombre, ()))
        # A text filter with a short list of values (a request type) is offered as a select.
        tipo = "opciones" if lista else _tipo(campo)
        if tipo == "opciones" and not lista:
            lista = [(str(c), str(e)) for c, e in campo.choices.items()]
        formulario.append(
            Campo(
                nombre=parametro,
                etiqueta=etiquetas[nombre],
                tipo=tipo,
                valor=consulta.get(parametro, ""),
                opciones=lista,
                vacio=vacios.get(nombre, "Todos" if campo.default is serializers.empty else ""),
                errores=errores_por_campo.get(nombre, []),
            )
        )
    por_clave = {o.clave: o for o in ordenes}
    pedido = consulta.get(PARAM_ORDEN, "")
    orden = por_clave.get(pedido, ordenes[0])
    if pedido and pedido not in por_clave:
        errores.append(f"No se reconoce el orden pedido; se muestra «{ordenes[0].etiqueta}».")
    numero = _entero(consulta.get(PARAM_PAGINA))
    return Lectura(
        campos=formulario,
        datos=datos,
        errores=errores,
        orden=orden,
        ordenes=ordenes,
        pagina=min(max(numero or 1, 1), MAX_PAGINA),
        consulta={c.nombre: c.valor for c in formulario if c.valor},
    )


def paginar(
    qs: models.QuerySet,
    lectura: Lectura,
    cargar: Callable[[list[Any]], Iterable[Any]],
    *,
    por_pagina: int = POR_PAGINA,
) -> Pagina:
    """The requested page of `qs` in the chosen order (the nearest page if out of range).

    One query counts and picks the page's pks (hub.busqueda.columnas.total_y_pagina), `cargar` reads
    those rows with what the page shows (one more); a page past the end costs one more pass.
    """
    ordenado = qs.order_by(*lectura.orden.campos)
    numero = lectura.pagina
    total, ids = total_y_pagina(ordenado, por_pagina, (numero - 1) * por_pagina)
    paginas = max(math.ceil(total / por_pagina), 1)
    if numero > paginas:
        numero = paginas
        total, ids = total_y_pagina(ordenado, por_pagina, (numero - 1) * por_pagina)
        paginas = max(math.ceil(total / por_pagina), 1)
    por_pk = {fila.pk: fila for fila in cargar(ids)} if ids else {}
    return Pagina(
        filas=[por_pk[pk] for pk in ids if pk in por_pk],
        total=total,
        numero=numero,
        paginas=paginas,
        anterior=lectura.enlace(**{PARAM_PAGINA: numero - 1}) if numero > 1 else None,
        siguiente=lectura.enlace(**{PARAM_PAGINA: numero + 1}) if numero < paginas else None,
    )


def contexto(lectura: Lectura, pagina: Pagina | None, **extra: Any) -> dict[str, Any]:
    """What the list templates read (templates/listas/_filtros.html and _paginas.html)."""
    return {
        "lectura": lectura,
        "campos": lectura.campos,
        "errores": lectura.errores,
        "ordenes": lectura.enlaces_orden(),
        "orden": lectura.orden,
        "pagina": pagina,
        **extra,
    }


def responder(
    request: HttpRequest, plantilla: str, lectura: Lectura, pagina: Pagina | None, **extra: Any
) -> HttpResponse:
    """The list page: 200 with its page, or 400 with the form's refusals when a filter was wrong."""
    return render(
        request,
        plantilla,
        contexto(lectura, pagina, **extra),
        status=200 if lectura.valida else 400,
    )
