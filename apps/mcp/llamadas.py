"""tools/list and tools/call: access, validation, two-step writes, audit (docs/contrato.md)."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import transaction
from django.http import HttpRequest

from apps.mcp import aprobaciones, areas, auditoria, confirmacion
from apps.mcp import limites as limites_mcp
from apps.mcp.credenciales import Identidad
from apps.mcp.models import AjustesAsistente
from hub.busqueda.texto import sin_sustitutos, tiene_sustitutos
from hub.herramientas.registro import (
    Acceso,
    ErrorHerramienta,
    Herramienta,
    Llamada,
    Resultado,
    registro,
)
from hub.http.enlaces import absoluta, con_url
from hub.http.respuestas import a_json, campos_de
from hub.observabilidad import metricas

logger = logging.getLogger(__name__)


SUSTITUTOS = "Contiene caracteres que no son texto válido (sustitutos UTF-16 sueltos)."


class ParametrosInvalidos(Exception):
    """JSON-RPC -32602 (unknown tool, missing name, arguments not an object)."""


def visible_sin_usuario(herramienta: Herramienta, ajustes: AjustesAsistente) -> bool:
    publicas = ajustes.herramientas_publicas or []
    return (
        herramienta.acceso in (Acceso.PUBLICA, Acceso.VERIFICADA)
        and not herramienta.escritura
        and herramienta.nombre in publicas
    )


def comprobar_acceso(herramienta: Herramienta, identidad: Identidad, ajustes: AjustesAsistente):
    """Tool errors SIN_IDENTIDAD, SIN_PERMISO (the person's permissions, then the connection's
    areas and write scope) or ESCRITURA_DESHABILITADA, in that order."""
    usuario = identidad.usuario
    if usuario is None:
        if not visible_sin_usuario(herramienta, ajustes):
            raise ErrorHerramienta(
                "SIN_IDENTIDAD",
                "Esta herramienta requiere una persona identificada: envíe su token personal "
                "(X-MCP-User-Token).",
            )
    elif not herramienta.permite_a(usuario):
        raise ErrorHerramienta("SIN_PERMISO", "Su usuario no tiene permiso para esta herramienta.")
    elif herramienta.area is not None and herramienta.area not in identidad.areas:
        raise ErrorHerramienta(
            "SIN_PERMISO",
            f"Esta conexión no tiene acceso al área «{areas.AREAS[herramienta.area][0]}»: "
            "la persona puede ampliarla desde su perfil, en «Aplicaciones conectadas».",
        )
    elif herramienta.escritura and not identidad.puede_escribir:
        raise ErrorHerramienta(
            "SIN_PERMISO",
            "La aplicación conectada no tiene permiso para escribir en su nombre "
            "(alcance asistente:escribir): conéctela de nuevo y autorícelo.",
        )
    if herramienta.escritura and not ajustes.escrituras_habilitadas:
        raise ErrorHerramienta(
            "ESCRITURA_DESHABILITADA",
            "La organización desactivó las herramientas que escriben.",
        )


def listar(identidad: Identidad, ajustes: AjustesAsistente) -> list[dict[str, Any]]:
    """Descriptors of the tools this caller may call (writes hidden while disabled)."""
    visibles = []
    for herramienta in registro:
        try:
            comprobar_acceso(herramienta, identidad, ajustes)
        except ErrorHerramienta:
            continue
        visibles.append(herramienta.descriptor())
    return visibles


def resultado_json(resumen: str, datos: dict[str, Any], *, es_error: bool) -> dict[str, Any]:
    """The tool result: two text items, isError and structuredContent."""
    return {
        "content": [
            {"type": "text", "text": resumen},
            {"type": "text", "text": a_json(datos).decode("utf-8")},
        ],
        "isError": es_error,
        "structuredContent": datos,
    }


def _datos_invalidos(campos: dict[str, list[str]]) -> ErrorHerramienta:
    return ErrorHerramienta(
        "DATOS_INVALIDOS",
        "Los argumentos no son válidos: "
        + "; ".join(f"{c}: {' '.join(p)}" for c, p in campos.items()),
        campos=campos,
    )


def _validar(herramienta: Herramienta, argumentos: dict[str, Any], llamada: Llamada) -> dict:
    # Before the serializer: a lone surrogate would reach a database query and fail there.
    con_sustitutos = [n for n, v in argumentos.items() if tiene_sustitutos([n, v])]
    if con_sustitutos:
        raise _datos_invalidos({sin_sustitutos(n): [SUSTITUTOS] for n in con_sustitutos})
    serializador = herramienta.argumentos(data=argumentos, context={"llamada": llamada})
    if not serializador.is_valid():
        raise _datos_invalidos(campos_de(serializador.errors))
    return dict(serializador.validated_data)


def _escribir(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    """The two steps of a write tool: preview + token, or checked confirmation + write."""
    herramienta = llamada.herramienta
    confirmar = datos.pop("confirmar", False)
    token = datos.pop("token_confirmacion", None)
    segundos = llamada.ajustes.confirmacion_segundos
    if not confirmar:
        if token:
            raise ErrorHerramienta(
                "DATOS_INVALIDOS",
                "token_confirmacion solo se envía junto con confirmar=true.",
                campos={"token_confirmacion": ["Envíelo solo con confirmar=true."]},
            )
        previa = herramienta.funcion(llamada, datos)
        token, carga = confirmacion.emitir_con_carga(
            llamada.identidad, herramienta.nombre, datos, segundos=segundos
        )
        datos_previa = {
            **previa.datos,
            "requiere_confirmacion": True,
            "token_confirmacion": token,
            "vence_en": confirmacion.vence_en(segundos),
        }
        minutos = segundos // 60 or 1
        if llamada.ajustes.aprobar_en_el_hub:
            return _previa_con_aprobacion(llamada, previa, datos_previa, carga, minutos)
        resumen = (
            f"{previa.resumen} Nada se ha escrito todavía: muestre esta vista previa a la persona "
            "y, solo si la aprueba, repita la llamada con los mismos argumentos, confirmar=true "
            f"y el token_confirmacion (vale {minutos} min y un solo uso)."
        )
        return Resultado(resumen, datos_previa)
    if not token:
        raise ErrorHerramienta(
            "DATOS_INVALIDOS",
            "Con confirmar=true debe enviar el token_confirmacion de la vista previa.",
            campos={"token_confirmacion": ["Obligatorio cuando confirmar=true."]},
        )
    carga = confirmacion.verificar(token, llamada.identidad, herramienta.nombre, datos, segundos)
    llamada.aprobada_en_el_hub = aprobaciones.exigir(carga=carga, ajustes=llamada.ajustes)
    # Spend the token first: a concurrent confirmation waits on the unique id and then fails.
    confirmacion.consumir(carga, llamada.identidad)
    limites_mcp.contar_escritura(llamada)
    previa = herramienta.funcion(llamada, datos)  # access is checked again at write time
    return herramienta.ejecutar(llamada, datos, previa)


def _previa_con_aprobacion(
    llamada: Llamada,
    previa: Resultado,
    datos_previa: dict[str, Any],
    carga: dict[str, Any],
    minutos: int,
) -> Resultado:
    """The preview plus the link where the person approves it on the hub (issue 40)."""
    fila = aprobaciones.crear(
        carga=carga,
        identidad=llamada.identidad,
        herramienta=llamada.herramienta,
        resumen=previa.resumen,
        previa=previa.datos,
    )
    datos = {**datos_previa, "aprobacion": {"enlace": fila.enlace}}
    resumen = (
        f"{previa.resumen} Nada se ha escrito todavía: la organización exige que la persona "
        "apruebe esta operación en el hub. Pídale que abra el enlace de aprobación "
        f"({absoluta(fila.enlace)}) y pulse «Aprobar»; después repita la llamada con los mismos "
        f"argumentos, confirmar=true y el token_confirmacion (vale {minutos} min y un solo uso)."
    )
    return Resultado(resumen, datos)


def _verificar(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    """A tool of access `verificada` without a person: its datum required, a blocked integration
    and address refused before it learns anything more, and each NO_ENCONTRADO counted."""
    verificacion = llamada.herramienta.verificacion
    if not datos.get(verificacion.argumento):
        raise ErrorHerramienta(
            "FALTA_VERIFICACION",
            f"Sin una persona conectada, indique {verificacion.argumento}: "
            f"{verificacion.descripcion}.",
        )
    limites_mcp.verificacion_bloqueada(llamada)
    try:
        return llamada.herramienta.funcion(llamada, datos)
    except ErrorHerramienta as exc:
        if exc.codigo == "NO_ENCONTRADO":
            limites_mcp.anotar_verificacion_fallida(llamada)
        raise


def _ejecutar(llamada: Llamada, argumentos: dict[str, Any]) -> Resultado:
    herramienta = llamada.herramienta
    comprobar_acceso(herramienta, llamada.identidad, llamada.ajustes)
    datos = _validar(herramienta, argumentos, llamada)
    if herramienta.escritura:
        return _escribir(llamada, datos)
    if herramienta.verificacion is not None and llamada.usuario is None:
        return _verificar(llamada, datos)
    return herramienta.funcion(llamada, datos)


def llamar(
    request: HttpRequest | None,
    identidad: Identidad,
    ajustes: AjustesAsistente,
    params: dict[str, Any],
) -> dict[str, Any]:
    """Run one tools/call and audit it; ParametrosInvalidos for -32602 (audited too)."""
    inicio = time.monotonic()
    herramienta, argumentos = _pedida(identidad, params, inicio)
    llamada = Llamada(
        identidad=identidad, herramienta=herramienta, ajustes=ajustes, request=request
    )
    if herramienta.escritura:
        respuesta, codigo = _llamar_escritura(llamada, argumentos, inicio)
    else:
        respuesta, codigo = _llamar_lectura(llamada, argumentos, inicio)
    metricas.herramienta(herramienta.nombre, codigo, time.monotonic() - inicio)
    return respuesta


def _llamar_escritura(
    llamada: Llamada, argumentos: dict[str, Any], inicio: float
) -> tuple[dict[str, Any], str]:
    """A write tool and its audit row share one transaction: if the row cannot be written the
    exception propagates, everything rolls back, and the view answers 503."""
    with transaction.atomic():
        try:
            with transaction.atomic():  # left by an exception, it undoes what the tool wrote
                hecho: Resultado | ErrorHerramienta = _ejecutar(llamada, argumentos)
        except Exception as exc:
            hecho = _como_error(llamada, exc)
        return _auditada(llamada, argumentos, hecho, inicio)


def _llamar_lectura(
    llamada: Llamada, argumentos: dict[str, Any], inicio: float
) -> tuple[dict[str, Any], str]:
    """A read-only tool has nothing to roll back, so it runs without a transaction (BEGIN,
    SAVEPOINT, RELEASE and COMMIT were four of its eleven queries); an audit row that cannot be
    written still answers 503."""
    try:
        hecho: Resultado | ErrorHerramienta = _ejecutar(llamada, argumentos)
    except Exception as exc:
        hecho = _como_error(llamada, exc)
    return _auditada(llamada, argumentos, hecho, inicio)


def _como_error(llamada: Llamada, exc: Exception) -> ErrorHerramienta:
    """A tool error as it is; anything else logged and answered as ERROR_INTERNO."""
    if isinstance(exc, ErrorHerramienta):
        return exc
    logger.error("la herramienta %s falló", llamada.herramienta.nombre, exc_info=exc)
    return ErrorHerramienta(
        "ERROR_INTERNO",
        "La herramienta falló por un error interno. Intente de nuevo más tarde.",
    )


def _auditada(
    llamada: Llamada,
    argumentos: dict[str, Any],
    hecho: Resultado | ErrorHerramienta,
    inicio: float,
) -> tuple[dict[str, Any], str]:
    """The answer and its code, once the call's audit row is written."""
    if isinstance(hecho, ErrorHerramienta):
        respuesta = resultado_json(hecho.mensaje, hecho.datos(), es_error=True)
        codigo, objeto = hecho.codigo, None
    else:
        datos = con_url(hecho.datos)  # an absolute `url` beside every `enlace`
        respuesta = resultado_json(hecho.resumen, datos, es_error=False)
        codigo, objeto = "ok", hecho.objeto
    auditoria.registrar(
        identidad=llamada.identidad,
        herramienta=llamada.herramienta.nombre,
        argumentos=argumentos,
        resultado=codigo,
        duracion_ms=int((time.monotonic() - inicio) * 1000),
        aprobada_en_el_hub=llamada.aprobada_en_el_hub and codigo == "ok",
        objeto=objeto,
    )
    return respuesta, codigo


def _pedida(
    identidad: Identidad, params: dict[str, Any], inicio: float
) -> tuple[Herramienta, dict[str, Any]]:
    """The tool and arguments asked for; a malformed request is audited, then -32602."""
    nombre = params.get("name")
    argumentos = params.get("arguments", {})
    problema = None
    if not isinstance(nombre, str) or not nombre:
        problema = "Falta params.name (el nombre de la herramienta, un texto)."
    elif not isinstance(argumentos, dict):
        problema = "params.arguments debe ser un objeto."
    herramienta = registro.obtener(nombre) if isinstance(nombre, str) else None
    if problema is None and herramienta is None:
        problema = f"Herramienta desconocida: {nombre[:80]}."
    if problema is None:
        return herramienta, argumentos
    auditoria.registrar(
        identidad=identidad,
        herramienta=nombre if isinstance(nombre, str) else "",
        argumentos=argumentos,
        resultado="PARAMETROS_INVALIDOS",
        duracion_ms=int((time.monotonic() - inicio) * 1000),
    )
    metricas.herramienta(getattr(herramienta, "nombre", ""), "PARAMETROS_INVALIDOS")
    raise ParametrosInvalidos(problema)
