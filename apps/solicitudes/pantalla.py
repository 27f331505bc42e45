"""The request page: what it shows, which actions it offers (from the services' own rules) and
how an action posted from it runs through its service."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone

from apps.solicitudes import selectors, services
from apps.solicitudes.errores import (
    AccionNoPermitida,
    DatosInvalidos,
    ErrorSolicitud,
    SolicitudCambio,
    SolicitudNoEncontrada,
    TransicionInvalida,
)
from apps.solicitudes.models import Solicitud
from hub.operacion.enganches import Enganche

EVENTOS_EN_PANTALLA = 30
# What the apps above add to the request page, each part under its name in the template's
# context: budget adds the CDPs and RPs the request originated (apps/presupuesto/apps.py). The
# requests app imports none of them.
SECCIONES: Enganche[tuple[str, Callable[[Any, Solicitud], Any]]] = Enganche(
    "secciones de la pantalla de una solicitud"
)
# What the apps above add to the home's context (budget: whether to link its reports).
EN_EL_INICIO: Enganche[Callable[[Any], dict[str, Any]]] = Enganche("partes del inicio")
COMENTARIOS_EN_PANTALLA = 50


@dataclass(frozen=True)
class AccionPagina:
    """One action of the page: its service, what it asks for and what it says when done."""

    servicio: str  # its name in services.acciones_permitidas ("comentar": the chat)
    exito: str  # success message; {numero} is the request's number
    campo: str = ""  # "motivo" (required), "comentario" (optional), "texto" (the comment)
    confirmar: bool = False  # a confirmation page comes first
    pregunta: str = ""  # the confirmation page's question
    aviso: str = ""  # what confirming does
    boton: str = ""  # the confirming button


# URL slug -> action (/solicitudes/<pk>/<slug>).
ACCIONES: dict[str, AccionPagina] = {
    "comentar": AccionPagina("comentar", "Su comentario quedó publicado.", campo="texto"),
    "tomar": AccionPagina("asignar", "La tarea de la solicitud {numero} quedó asignada a usted."),
    "avanzar": AccionPagina(
        "avanzar", "Completó la etapa: la solicitud {numero} siguió su trámite."
    ),
    "aprobar": AccionPagina("aprobar", "La solicitud {numero} quedó aprobada."),
    "devolver": AccionPagina(
        "devolver", "La solicitud {numero} volvió al solicitante para corregirla.", campo="motivo"
    ),
    "atencion": AccionPagina(
        "marcar_atencion", "La solicitud {numero} quedó marcada para atención.", campo="motivo"
    ),
    "reanudar": AccionPagina("reanudar", "El trámite de la solicitud {numero} se reanudó."),
    # Its own view (views.firmar): the text to sign and the person's password.
    "firmar": AccionPagina("firmar", "Firmó la etapa: la solicitud {numero} siguió su trámite."),
    "corregir": AccionPagina(
        "corregir",
        "Envió la corrección: la solicitud {numero} volvió a su trámite.",
        campo="comentario",
    ),
    "rechazar": AccionPagina(
        "rechazar",
        "La solicitud {numero} quedó rechazada.",
        campo="motivo",
        confirmar=True,
        pregunta="¿Rechazar la solicitud {numero}?",
        aviso=(
            "La solicitud se cierra con respuesta desfavorable y ya no podrá moverse. "
            "El motivo queda en su historial, a la vista de quienes participan en ella."
        ),
        boton="Sí, rechazar la solicitud",
    ),
    "anular": AccionPagina(
        "anular",
        "La solicitud {numero} quedó anulada.",
        campo="motivo",
        confirmar=True,
        pregunta="¿Anular la solicitud {numero}?",
        aviso=(
            "Anular es para una solicitud radicada por error o retirada: se cierra sin respuesta "
            "y ya no podrá moverse. El motivo queda en su historial."
        ),
        boton="Sí, anular la solicitud",
    ),
}

# Domain error -> HTTP status of the page that answers it.
ESTADOS_HTTP: dict[type[ErrorSolicitud], int] = {
    DatosInvalidos: 422,
    TransicionInvalida: 409,
    AccionNoPermitida: 403,
    SolicitudNoEncontrada: 404,
}


def estado_http(error: ErrorSolicitud) -> int:
    return next((s for tipo, s in ESTADOS_HTTP.items() if isinstance(error, tipo)), 400)


def solicitud_visible(usuario, pk: int) -> Solicitud | None:
    """The request if `usuario` may see it (None: missing or not theirs, the same answer)."""
    return (
        Solicitud.objects.visibles_para(usuario)
        .select_related("tipo", "etapa_actual", "rol_responsable", "solicitante", "padre", "area")
        .con_hijos()
        .filter(pk=pk)
        .first()
    )


def ofrecidas(usuario, solicitud: Solicitud, tarea) -> dict[str, bool]:
    """Which of ACCIONES the page offers `usuario`: only what the services would allow."""
    permitidas = services.acciones_permitidas(solicitud=solicitud, actor=usuario, tarea=tarea)
    ofrece = {clave: a.servicio in permitidas for clave, a in ACCIONES.items()}
    ofrece["comentar"] = services.puede_comentar(solicitud=solicitud, autor=usuario)
    # Taking a task one already holds is no action.
    ofrece["tomar"] = ofrece["tomar"] and tarea.asignada_a_id != usuario.pk
    # At the last stage, completing it is approving: one button ("Aprobar"), not two.
    ofrece["avanzar"] = ofrece["avanzar"] and not ofrece["aprobar"]
    return ofrece


# The correction form names each filed field "campo_<nombre>" (names are [a-z0-9_]).
PREFIJO_CAMPO = "campo_"
_CAMPO_DEL_SERVICIO = re.compile(r"^campos\.(\d+)\.")


def formulario_correccion(
    solicitud: Solicitud,
    campos: list[dict[str, str]],
    *,
    datos: Mapping[str, Any] | None = None,
    errores: Mapping[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The correction form: the summary and each field the page shows, as filed (or as typed,
    when the service refused it), with the service's problems under each."""
    datos, errores = datos or {}, errores or {}
    filas = [
        {
            "nombre": PREFIJO_CAMPO + c["nombre"],
            "id": f"corregir-{c['nombre']}",
            "etiqueta": c["etiqueta"],
            "valor": datos.get(PREFIJO_CAMPO + c["nombre"], c["valor"]),
            "errores": errores.get(PREFIJO_CAMPO + c["nombre"], []),
        }
        for c in campos
    ]
    return {
        "resumen": datos.get("resumen", solicitud.resumen),
        "errores_resumen": errores.get("resumen", []),
        "campos": filas,
        "comentario": datos.get("comentario", ""),
        "errores_comentario": errores.get("comentario", []),
    }


def corregir(
    *, solicitud: Solicitud, actor, datos: Mapping[str, Any], version: int | None = None
) -> None:
    """`services.corregir` with what the form changed: the summary and the shown fields whose
    value differs (sensitive fields are not on the page, so they stay as filed)."""
    cambiados = [
        {"nombre": c["nombre"], "etiqueta": c["etiqueta"], "valor": str(datos[nombre])}
        for c in selectors.campos_publicos(solicitud)
        if (nombre := PREFIJO_CAMPO + c["nombre"]) in datos and str(datos[nombre]) != c["valor"]
    ]
    resumen = datos.get("resumen")
    if resumen is not None and str(resumen).strip() == solicitud.resumen:
        resumen = None  # unchanged
    try:
        services.corregir(
            solicitud=solicitud,
            actor=actor,
            comentario=str(datos.get("comentario", "")) or None,
            resumen=None if resumen is None else str(resumen),
            campos=cambiados,
            version=version,
        )
    except DatosInvalidos as error:
        # The service names a field by its place in the list it got; the page, by its input.
        def en_pagina(clave: str) -> str:
            if (m := _CAMPO_DEL_SERVICIO.match(clave)) and int(m[1]) < len(cambiados):
                return PREFIJO_CAMPO + cambiados[int(m[1])]["nombre"]
            return clave

        error.campos = {en_pagina(k): v for k, v in (error.campos or {}).items()} or None
        raise


NO_SE_PUEDE = "Usted no puede hacer esto con la solicitud en este momento."
SIN_FORMULARIO = "la página desde la que envió esto no es de esta solicitud."


def version_del_formulario(datos: Mapping[str, Any]) -> int:
    """The request's version a form was drawn for; a post without a valid one was drawn by no
    page of this request, and acts on nothing (SolicitudCambio)."""
    valor = str(datos.get("version", ""))
    if not valor.isascii() or not valor.isdigit() or len(valor) > 10:
        raise SolicitudCambio(services.CAMBIO.format(que=SIN_FORMULARIO))
    return int(valor)


def nonce_del_formulario(datos: Mapping[str, Any]) -> str:
    """The comment form's single-use nonce (SolicitudCambio without a valid one)."""
    valor = str(datos.get("nonce", ""))
    if not services.NONCE.match(valor):
        raise SolicitudCambio(services.CAMBIO.format(que=SIN_FORMULARIO))
    return valor


def contexto(usuario, solicitud: Solicitud) -> dict[str, Any]:
    """Everything the request page shows, and what its forms were drawn for (the request's
    version; the comment form, a fresh nonce kept until a comment is stored with it)."""
    tarea = selectors.tarea_actual(solicitud)
    ofrece = ofrecidas(usuario, solicitud, tarea)
    etapa = solicitud.etapa_actual
    campos = selectors.campos_publicos(solicitud)
    return {
        "solicitud": solicitud,
        "campos": campos,
        "correccion": (formulario_correccion(solicitud, campos) if ofrece["corregir"] else None),
        "progreso": selectors.progreso(solicitud),
        "tarea": tarea,
        "tareas": selectors.tareas_de(solicitud),
        "eventos": selectors.historial(solicitud, EVENTOS_EN_PANTALLA),
        "comentarios": selectors.ultimos_comentarios(solicitud, COMENTARIOS_EN_PANTALLA),
        "hijos": list(solicitud.hijos.all()),
        **{nombre: leer(usuario, solicitud) for nombre, leer in SECCIONES},
        "ofrece": ofrece,
        "con_acciones": any(v for k, v in ofrece.items() if k != "comentar"),
        "siguiente": etapa.siguiente() if ofrece["avanzar"] and etapa is not None else None,
        "zona_horaria": settings.TIME_ZONE,
        "ahora": timezone.now(),
        "max_texto": services.MAX_COMENTARIO,
        "errores": {},
        "valores": {},
        "version": solicitud.version,
        "nonce": secrets.token_urlsafe(16),
    }


def ejecutar(clave: str, *, solicitud: Solicitud, actor, datos: Mapping[str, Any]) -> str:
    """Run the action `clave` through its service; the success message (ErrorSolicitud if the
    service refuses)."""
    accion = ACCIONES[clave]
    texto = str(datos.get(accion.campo, "")) if accion.campo else ""
    if clave == "comentar":
        nonce = nonce_del_formulario(datos)
        services.comentar(solicitud=solicitud, autor=actor, texto=texto, nonce=nonce)
        return accion.exito.format(numero=solicitud.numero_visible)
    version = version_del_formulario(datos)
    if clave == "tomar":
        tarea = selectors.tarea_actual(solicitud)
        if tarea is None:
            raise TransicionInvalida("La solicitud no tiene una tarea pendiente.")
        services.asignar(tarea=tarea, usuario=actor, actor=actor, version=version)
    elif clave == "corregir":
        corregir(solicitud=solicitud, actor=actor, datos=datos, version=version)
    elif accion.campo == "motivo":
        MOTIVADAS[accion.servicio](solicitud=solicitud, actor=actor, motivo=texto, version=version)
    else:
        SIN_MOTIVO[accion.servicio](solicitud=solicitud, actor=actor, version=version)
    return accion.exito.format(numero=solicitud.numero_visible)


MOTIVADAS = {
    "devolver": services.devolver,
    "marcar_atencion": services.marcar_atencion,
    "rechazar": services.rechazar,
    "anular": services.anular,
}
SIN_MOTIVO = {
    "avanzar": services.avanzar,
    "aprobar": services.aprobar,
    "reanudar": services.reanudar,
}
