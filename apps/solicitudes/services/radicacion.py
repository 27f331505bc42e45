"""Filing: requests, drafts and help-desk tickets get their number and first task."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.solicitudes.errores import (
    AccionNoPermitida,
    DatosInvalidos,
    MesaAyudaNoConfigurada,
)
from apps.solicitudes.models import (
    Accion,
    CampoFormulario,
    Estado,
    Solicitud,
    TipoSolicitud,
)
from apps.solicitudes.models.bandeja import usuario_valido
from apps.solicitudes.services.ciclo import bloquear, entrar_en_flujo, primera_etapa
from apps.solicitudes.services.historial import crear_evento
from apps.solicitudes.services.transiciones import exigir_estado, puede_radicar
from apps.solicitudes.services.validacion import (
    CampoEntrada,
    validar_campos,
    validar_correo,
    validar_padre,
    validar_texto,
)

# Help-desk severities: value -> label.
SEVERIDADES: dict[str, str] = {
    "sugerencia": "Sugerencia",
    "error": "Error",
    "mejora_grave": "Mejora grave",
    "bloqueante": "Bloqueante",
}


def radicar(
    *,
    tipo: TipoSolicitud,
    resumen: str,
    solicitante=None,
    nombre_solicitante: str | None = None,
    correo_solicitante: str | None = None,
    campos: Iterable[CampoEntrada] | Mapping[str, Any] | None = (),
    padre: Solicitud | None = None,
    actor=None,
) -> Solicitud:
    """File a request: number, state `radicado`, first stage's task in its role's common inbox.

    The filer is a user (`solicitante`) or an outside person (`nombre_solicitante` +
    `correo_solicitante`). Whoever files (`actor`, or else the user filer) needs
    `solicitudes.radicar`; with neither (outside person through a public channel) no check.
    """
    resumen = validar_texto(resumen, "resumen", minimo=5, maximo=500)
    if solicitante is not None:
        if not usuario_valido(solicitante):
            raise DatosInvalidos(
                "Datos inválidos.", campos={"solicitante": ["El usuario no está activo."]}
            )
        if nombre_solicitante or correo_solicitante:
            raise DatosInvalidos(
                "Datos inválidos.",
                campos={
                    "correo_solicitante": [
                        "Con un usuario solicitante no se indica nombre ni correo externo."
                    ]
                },
            )
        nombre, correo = "", ""
    else:
        nombre = validar_texto(nombre_solicitante, "nombre_solicitante", minimo=3, maximo=150)
        correo = validar_correo(correo_solicitante, "correo_solicitante")
    quien = actor if actor is not None else solicitante
    if quien is not None and not puede_radicar(quien):
        raise AccionNoPermitida("No tiene permiso para radicar solicitudes.")
    nuevos_campos = validar_campos(campos)
    validar_padre(padre)
    primera = primera_etapa(tipo)

    with transaction.atomic():
        ahora = timezone.now()
        solicitud = Solicitud(
            tipo=tipo,
            area_id=tipo.area_id,
            resumen=resumen,
            solicitante=solicitante,
            nombre_solicitante=nombre,
            correo_solicitante=correo,
            padre=padre,
            creada_en=ahora,
        )
        entrar_en_flujo(solicitud, actor if actor is not None else solicitante, ahora, primera)
        for campo in nuevos_campos:
            campo.solicitud = solicitud
        CampoFormulario.objects.bulk_create(nuevos_campos)
    return solicitud


def crear_borrador(
    *,
    tipo: TipoSolicitud,
    solicitante,
    resumen: str,
    campos: Iterable[CampoEntrada] | Mapping[str, Any] | None = (),
    padre: Solicitud | None = None,
) -> Solicitud:
    """Save a request without filing it: no number, no task; only its author sees it."""
    resumen = validar_texto(resumen, "resumen", minimo=5, maximo=500)
    if not puede_radicar(solicitante):
        raise AccionNoPermitida("No tiene permiso para radicar solicitudes.")
    if not tipo.activo:
        raise DatosInvalidos(
            "Datos inválidos.", campos={"tipo": ["El tipo de solicitud no está activo."]}
        )
    nuevos_campos = validar_campos(campos)
    validar_padre(padre)
    with transaction.atomic():
        ahora = timezone.now()
        solicitud = Solicitud.objects.create(
            tipo=tipo,
            area_id=tipo.area_id,
            resumen=resumen,
            solicitante=solicitante,
            padre=padre,
            estado=Estado.BORRADOR,
            creada_en=ahora,
            fecha_actualizacion=ahora,
        )
        for campo in nuevos_campos:
            campo.solicitud = solicitud
        CampoFormulario.objects.bulk_create(nuevos_campos)
        crear_evento(solicitud, Accion.BORRADOR, solicitante, ahora, "Guardada como borrador.")
    return solicitud


def radicar_borrador(*, solicitud: Solicitud, actor) -> Solicitud:
    """File a draft: its author (with `solicitudes.radicar`) gives it a number and a first task."""
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_estado(s, "radicar_borrador")
        if not puede_radicar(actor) or (s.solicitante_id != actor.pk and not actor.is_superuser):
            raise AccionNoPermitida("Solo quien creó el borrador puede radicarlo.")
        primera = primera_etapa(s.tipo)
        entrar_en_flujo(s, actor, timezone.now(), primera)
    return s


@dataclass(frozen=True)
class CasoMesaAyuda:
    """A validated help-desk ticket, ready to file (what a confirmation preview shows)."""

    tipo: TipoSolicitud
    asunto: str
    descripcion: str
    severidad: str
    modulo: str


def validar_mesa_ayuda(
    *,
    solicitante,
    asunto: str,
    descripcion: str,
    severidad: str = "error",
    modulo: str = "",
) -> CasoMesaAyuda:
    """Everything `radicar_mesa_ayuda` checks, without writing (for a two-step preview)."""
    asunto = validar_texto(asunto, "asunto", minimo=5, maximo=150)
    descripcion = validar_texto(descripcion, "descripcion", minimo=10, maximo=4000)
    modulo = validar_texto(modulo, "modulo", minimo=0, maximo=120, requerido=False)
    if severidad not in SEVERIDADES:
        raise DatosInvalidos(
            "Datos inválidos.",
            campos={"severidad": [f"Valores posibles: {', '.join(SEVERIDADES)}."]},
        )
    if not puede_radicar(solicitante):
        raise AccionNoPermitida("No tiene permiso para radicar solicitudes.")
    tipo = TipoSolicitud.objects.mesa_ayuda().first()
    if tipo is None or not tipo.etapas.exists():
        raise MesaAyudaNoConfigurada("La mesa de ayuda no está configurada.")
    return CasoMesaAyuda(tipo, asunto, descripcion, severidad, modulo)


def radicar_mesa_ayuda(
    *,
    solicitante,
    asunto: str,
    descripcion: str,
    severidad: str = "error",
    modulo: str = "",
) -> Solicitud:
    """A help-desk ticket: a request of the active help-desk type, filed by `solicitante`.

    Severity, module and description are stored as (non-sensitive) form fields.
    """
    caso = validar_mesa_ayuda(
        solicitante=solicitante,
        asunto=asunto,
        descripcion=descripcion,
        severidad=severidad,
        modulo=modulo,
    )
    return radicar(
        tipo=caso.tipo,
        solicitante=solicitante,
        actor=solicitante,
        resumen=caso.asunto,
        campos=[
            {"nombre": "descripcion", "etiqueta": "Descripción", "valor": caso.descripcion},
            {"nombre": "severidad", "etiqueta": "Severidad", "valor": caso.severidad},
            {"nombre": "modulo", "etiqueta": "Módulo", "valor": caso.modulo},
        ],
    )
