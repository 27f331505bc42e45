"""A request's life: locked for a change, entering the workflow at its first stage, closed."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from apps.solicitudes.errores import DatosInvalidos, SolicitudCambio, SolicitudNoEncontrada
from apps.solicitudes.models import (
    Accion,
    Consecutivo,
    Estado,
    Etapa,
    Solicitud,
    Tarea,
    TipoSolicitud,
    formatear_numero,
)
from apps.solicitudes.services.historial import crear_evento, nombre_actor


def bloquear(solicitud: Solicitud) -> Solicitud:
    """A fresh copy of the request, its row locked until the transaction ends."""
    try:
        return (
            Solicitud.objects.select_for_update(of=("self",))
            .select_related("tipo", "etapa_actual", "solicitante")
            .get(pk=solicitud.pk)
        )
    except Solicitud.DoesNotExist:
        raise SolicitudNoEncontrada("La solicitud no existe.") from None


CAMBIO = (
    "La solicitud cambió mientras usted la veía: {que} Revise cómo está ahora antes de volver a "
    "actuar."
)


def exigir_version(solicitud: Solicitud, version: int | None) -> None:
    """SolicitudCambio unless the form was drawn for the request's current version.

    `version` None: a caller without a drawn form (a tool, whose confirmation token is its
    marker; the demo), checked by the state alone.
    """
    if version is not None and version != solicitud.version:
        raise SolicitudCambio(CAMBIO.format(que="nada se hizo con lo que envió."))


def guardar_cambios(solicitud: Solicitud, ahora: datetime, **cambios: Any) -> None:
    """Set and save these fields, the update date, and one more version (under the row lock)."""
    for campo, valor in cambios.items():
        setattr(solicitud, campo, valor)
    solicitud.fecha_actualizacion = ahora
    solicitud.version += 1  # the row is locked (bloquear): nobody else raised it meanwhile
    solicitud.save(update_fields=[*cambios, "fecha_actualizacion", "version"])


def _numerar(solicitud: Solicitud, ahora: datetime) -> None:
    """Give the request its number: next of its type's prefix in the local year."""
    anio = timezone.localtime(ahora).year
    prefijo = solicitud.tipo.prefijo
    solicitud.numero_radicado = formatear_numero(prefijo, anio, Consecutivo.reservar(prefijo, anio))


def crear_tarea_de_etapa(solicitud: Solicitud, etapa: Etapa, ahora: datetime) -> Tarea:
    """The stage's task, in the common inbox of the stage's role."""
    return Tarea.objects.create(
        solicitud=solicitud,
        etapa=etapa,
        rol_id=etapa.rol_id,
        requiere_firma=etapa.requiere_firma,
        recibida_en=ahora,
        vence_en=ahora + timedelta(hours=etapa.plazo_horas),
    )


def primera_etapa(tipo: TipoSolicitud) -> Etapa:
    """The first stage of an active type, or DatosInvalidos."""
    if not tipo.activo:
        raise DatosInvalidos(
            "Datos inválidos.", campos={"tipo": ["El tipo de solicitud no está activo."]}
        )
    primera = tipo.primera_etapa()
    if primera is None:
        raise DatosInvalidos(
            "Datos inválidos.", campos={"tipo": ["El tipo de solicitud no tiene etapas."]}
        )
    return primera


def entrar_en_flujo(solicitud: Solicitud, actor, ahora: datetime, primera: Etapa) -> None:
    """Number, first stage, its common-inbox task and the 'radicada' event."""
    _numerar(solicitud, ahora)
    solicitud.estado = Estado.RADICADO
    solicitud.etapa_actual = primera
    solicitud.rol_responsable_id = primera.rol_id
    solicitud.fecha_radicacion = ahora
    solicitud.fecha_actualizacion = ahora
    solicitud.version += 1
    solicitud.save()
    crear_tarea_de_etapa(solicitud, primera, ahora)
    quien = nombre_actor(actor) if actor is not None else "canal externo"
    crear_evento(
        solicitud,
        Accion.RADICADA,
        actor,
        ahora,
        f"Radicada por {quien} como {solicitud.numero_radicado}. Pasa a «{primera.nombre}».",
        destino=primera,
    )


def cerrar(
    solicitud: Solicitud,
    actor,
    ahora: datetime,
    estado: str,
    accion: str,
    descripcion: str,
) -> Solicitud:
    """Finish the request: every pending task done, no stage or role left, closing date set."""
    origen = solicitud.etapa_actual
    Tarea.objects.pendientes().filter(solicitud=solicitud).update(
        completada_en=ahora, completada_por=actor
    )
    guardar_cambios(
        solicitud,
        ahora,
        estado=estado,
        etapa_actual=None,
        rol_responsable=None,
        fecha_cierre=ahora,
    )
    crear_evento(solicitud, accion, actor, ahora, descripcion, origen=origen)
    return solicitud
