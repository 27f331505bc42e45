"""The report builder behind reporte_preparar's link: see, change and download the report.

The definition travels in the address (`?ficha=`, the tool's own code), so the page can be
bookmarked and shared; the form below it is a GET form that, once valid, redirects to the
address of the new definition. `?descargar=xlsx|csv` on that address returns the file. Every
number shown or downloaded comes from `reportes`, the same functions as the tool's.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    QueryDict,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_safe

from apps.presupuesto import exportar, reportes
from apps.presupuesto.herramientas.formato import pesos
from apps.presupuesto.herramientas.permisos import PERSONALIZADOS
from apps.presupuesto.pantallas import tiene_alguno
from apps.presupuesto.reportes import FUENTES, FichaInvalida
from apps.presupuesto.templatetags.presupuesto import miles

PLANTILLA = "presupuesto/constructor.html"
OPERADORES = {
    "eq": "es igual a",
    "ne": "es distinto de",
    "contiene": "contiene",
    "en": "es uno de (separe con ;)",
    "entre": "está entre (desde; hasta)",
    "gt": "es mayor que",
    "gte": "es mayor o igual que",
    "lt": "es menor que",
    "lte": "es menor o igual que",
}
FORMATOS = {"xlsx": "Excel (.xlsx)", "csv": "CSV (.csv, separado por ;)"}
MAX_CODIGO = 100_000  # far above any valid ficha; refuse to decode more
_MILES = re.compile(r"^-?\d{1,3}(\.\d{3})+$")
_CAMPO_ERROR = re.compile(r"^ficha\.(?P<clave>[a-z]+)(?:\.(?P<n>\d+))?(?:\.(?P<parte>\w+))?$")
_PARTES = {"campo": "campo", "op": "condición", "valor": "valor"}
_CLAVES = {"fuente": "Fuente", "titulo": "Título", "formato": "Formato", "columnas": "Columnas"}


def _nuevo() -> reportes.Ficha:
    """The definition of a report started from scratch: every CDP the person may see."""
    return reportes.validar_ficha({"fuente": "cdp", "formato": "xlsx"})


@login_required
@require_safe
def constructor(request: HttpRequest) -> HttpResponse:
    """GET /presupuesto/reportes/constructor[?ficha=...][&descargar=xlsx|csv]."""
    if not tiene_alguno(request.user, (PERSONALIZADOS,)):
        # The tool's permission; without it the page does not exist for this person.
        raise Http404("El constructor de reportes no está disponible.")
    if "aplicar" in request.GET:
        return _aplicar(request)
    codigo = request.GET.get("ficha")
    try:
        if codigo is None:
            ficha = _nuevo()
        elif len(codigo) > MAX_CODIGO:
            raise FichaInvalida({"ficha": ["El enlace es demasiado largo."]})
        else:
            ficha = reportes.ficha_de_enlace(codigo)
    except FichaInvalida as exc:
        return render(request, PLANTILLA, {"invalida": _errores(exc)}, status=400)
    descargar = request.GET.get("descargar")
    if descargar is not None:
        return _descargar(request, ficha, descargar)
    return _pagina(request, ficha)


def _pagina(
    request: HttpRequest,
    ficha: reportes.Ficha,
    *,
    aviso: str | None = None,
    status: int = 200,
) -> HttpResponse:
    definicion = ficha.como_dict()
    vista = reportes.preparar(request.user, definicion)
    enlace = reportes.enlace_constructor(vista["ficha"])
    contexto = {
        **_formulario(definicion),
        "vista": vista,
        "muestra": _muestra_legible(ficha, vista["muestra"]),
        "enlace": enlace,
        "descargas": [
            {"formato": f, "nombre": nombre, "enlace": f"{enlace}&descargar={f}"}
            for f, nombre in sorted(FORMATOS.items(), key=lambda par: par[0] != ficha.formato)
        ],
        "maximo": exportar.MAX_FILAS,
        "aviso": aviso,
    }
    return render(request, PLANTILLA, contexto, status=status)


def _descargar(request: HttpRequest, ficha: reportes.Ficha, formato: str) -> HttpResponse:
    if formato not in exportar.MAX_FILAS:
        invalida = [f"Formato de descarga desconocido: use {' o '.join(exportar.MAX_FILAS)}."]
        return render(request, PLANTILLA, {"invalida": invalida}, status=400)
    total = reportes.filas(request.user, ficha).count()
    maximo = exportar.MAX_FILAS[formato]
    if total > maximo:
        aviso = (
            f"El reporte tiene {miles(total)} filas y en {FORMATOS[formato]} se descargan hasta "
            f"{miles(maximo)}: agregue filtros"
            + (" o descárguelo en CSV." if formato == "xlsx" else ".")
        )
        return _pagina(request, ficha, aviso=aviso, status=422)
    columnas = reportes.columnas_de(ficha)
    filas = reportes.valores(request.user, ficha)
    nombre = exportar.nombre_archivo(ficha.titulo, formato, timezone.localdate())
    if formato == "xlsx":
        archivo = exportar.xlsx(ficha.titulo, columnas, filas)
        respuesta: HttpResponse = FileResponse(
            archivo,
            as_attachment=True,
            filename=nombre,
            content_type=exportar.TIPOS_CONTENIDO[formato],
        )
    else:
        respuesta = StreamingHttpResponse(
            exportar.csv_en_trozos(columnas, filas), content_type=exportar.TIPOS_CONTENIDO[formato]
        )
        respuesta["Content-Disposition"] = content_disposition_header(True, nombre)
    respuesta["X-Total-Filas"] = str(total)
    return respuesta


# --- the form -------------------------------------------------------------------------------


def _texto_valor(valor: Any) -> str:
    if isinstance(valor, list):
        return "; ".join(_texto_valor(v) for v in valor)
    if isinstance(valor, Decimal):
        return format(valor, "f")
    return "" if valor is None else str(valor)


def _formulario(definicion: dict[str, Any], errores: list[str] | None = None) -> dict[str, Any]:
    """What the form shows for a definition (valid or just submitted with problems)."""
    fuente = FUENTES.get(definicion.get("fuente")) or FUENTES["cdp"]
    clave_fuente = definicion.get("fuente") if definicion.get("fuente") in FUENTES else "cdp"
    filtros = [
        {"campo": f.get("campo"), "op": f.get("op", "eq"), "valor": _texto_valor(f.get("valor"))}
        for f in definicion.get("filtros", [])
    ]
    if len(filtros) < reportes.MAX_FILTROS:
        filtros.append({"campo": "", "op": "eq", "valor": ""})
    elegidas = [c for c in definicion.get("columnas") or fuente.campos if c in fuente.campos]
    columnas = [(n, fuente.campos[n].etiqueta, True) for n in elegidas] + [
        (n, c.etiqueta, False) for n, c in fuente.campos.items() if n not in elegidas
    ]
    orden = [
        {"campo": o.lstrip("-"), "sentido": "desc" if o.startswith("-") else "asc"}
        for o in definicion.get("orden") or []
    ]
    orden += [{"campo": "", "sentido": "asc"}] * (reportes.MAX_ORDEN - len(orden))
    return {
        "definicion": definicion,
        "fuente": clave_fuente,
        "fuentes": [(clave, f.etiqueta) for clave, f in FUENTES.items()],
        "campos": [(n, c.etiqueta, c.tipo, c.opciones) for n, c in fuente.campos.items()],
        "operadores": list(OPERADORES.items()),
        "formatos": list(FORMATOS.items()),
        "filtros": filtros,
        "columnas": columnas,
        "orden": orden,
        "errores": errores or [],
    }


def _valor_del_formulario(texto: str, op: str, tipo: str | None) -> Any:
    partes = [p.strip() for p in texto.split(";")] if op in ("en", "entre") else [texto.strip()]
    if tipo == "numero":
        partes = [_numero(p) for p in partes]
    return partes if op in ("en", "entre") else partes[0]


def _numero(texto: str) -> str:
    """`1.500.000,50` or `1500000,5` (as people write them here) -> `1500000.50`."""
    limpio = texto.replace(" ", "").replace("$", "")
    if "," in limpio:
        return limpio.replace(".", "").replace(",", ".")
    if _MILES.match(limpio):
        return limpio.replace(".", "")
    return limpio


def definicion_del_formulario(datos: QueryDict) -> dict[str, Any]:
    """The ficha a submitted form describes (unchecked: `reportes.validar_ficha` decides)."""
    fuente = datos.get("fuente", "cdp")
    campos = FUENTES[fuente].campos if fuente in FUENTES else {}
    definicion: dict[str, Any] = {"fuente": fuente, "formato": datos.get("formato", "xlsx")}
    titulo = datos.get("titulo", "").strip()
    if titulo:
        definicion["titulo"] = titulo
    filtros = []
    for i in range(reportes.MAX_FILTROS + 1):
        campo = datos.get(f"f{i}_campo", "")
        if not campo:
            continue  # an empty row, or one the person cleared
        op = datos.get(f"f{i}_op", "eq")
        tipo = campos[campo].tipo if campo in campos else None
        valor = _valor_del_formulario(datos.get(f"f{i}_valor", ""), op, tipo)
        filtros.append({"campo": campo, "op": op, "valor": valor})
    definicion["filtros"] = filtros
    columnas = datos.getlist("columna")
    if columnas != list(campos):  # every column in the catalog's order is the default
        definicion["columnas"] = columnas
    orden = []
    for i in range(reportes.MAX_ORDEN):
        campo = datos.get(f"o{i}_campo", "")
        if campo:
            orden.append(f"-{campo}" if datos.get(f"o{i}_sentido") == "desc" else campo)
    if orden:
        definicion["orden"] = orden
    return definicion


def _aplicar(request: HttpRequest) -> HttpResponse:
    """The submitted form: to the new definition's address, or back with its problems."""
    definicion = definicion_del_formulario(request.GET)
    anterior = request.GET.get("fuente_anterior")
    if anterior and anterior != definicion["fuente"]:
        # Another source: the filters, columns and order chosen for the previous one go.
        definicion = {k: definicion[k] for k in ("fuente", "formato", "titulo") if k in definicion}
        if anterior in FUENTES and definicion.get("titulo") == FUENTES[anterior].etiqueta:
            del definicion["titulo"]  # the old source's default title: take the new one's
    try:
        ficha = reportes.validar_ficha(definicion)
    except FichaInvalida as exc:
        contexto = _formulario(definicion, _errores(exc))
        return render(request, PLANTILLA, contexto, status=422)
    return redirect(reportes.enlace_constructor(ficha.como_dict()))


def _errores(exc: FichaInvalida) -> list[str]:
    """Each problem of a definition, named as the form names it."""
    textos = []
    for ruta, problemas in exc.campos.items():
        coincidencia = _CAMPO_ERROR.match(ruta)
        nombre = "Enlace"
        if coincidencia:
            clave, n, parte = coincidencia.group("clave", "n", "parte")
            if clave == "filtros" and n is not None:
                nombre = f"Filtro {int(n) + 1}" + (f" ({_PARTES[parte]})" if parte else "")
            elif clave == "orden" and n is not None:
                nombre = f"Orden {int(n) + 1}"
            else:
                nombre = _CLAVES.get(clave, clave.capitalize())
        textos.append(f"{nombre}: {' '.join(problemas)}")
    return textos


def _celda_legible(campo: reportes.Campo, valor: Any) -> Any:
    if campo.tipo == "numero" and valor is not None:
        return pesos(Decimal(str(valor)))
    return campo.para_personas(valor)


def _muestra_legible(ficha: reportes.Ficha, muestra: list[dict[str, Any]]) -> list[list[Any]]:
    """The preview rows as cells in column order: amounts in pesos, enum codes as labels."""
    columnas = reportes.columnas_de(ficha)
    return [[_celda_legible(c, fila.get(nombre)) for nombre, c in columnas] for fila in muestra]
