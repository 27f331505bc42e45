"""What a change leaves in the request's history: its event, and the note given with it."""

from __future__ import annotations

from datetime import datetime

from apps.solicitudes.models import Comentario, Etapa, Evento, Solicitud
from apps.solicitudes.services.validacion import MAX_COMENTARIO, validar_texto
from hub.busqueda.texto import limpiar


def nombre_actor(usuario) -> str:
    """How the history names whoever acted (nobody: the system)."""
    return usuario.nombre_visible if usuario is not None else "el sistema"


def crear_evento(
    solicitud: Solicitud,
    accion: str,
    actor,
    ahora: datetime,
    descripcion: str,
    *,
    origen: Etapa | None = None,
    destino: Etapa | None = None,
) -> Evento:
    """One row of the request's history."""
    return Evento.objects.create(
        solicitud=solicitud,
        actor=actor,
        creado_en=ahora,
        accion=accion,
        descripcion=descripcion,
        etapa_origen=origen,
        etapa_destino=destino,
    )


def comentar_si_hay_texto(solicitud: Solicitud, actor, texto: str | None, ahora: datetime) -> None:
    """An optional note given with a transition goes to the chat, in the actor's name."""
    if texto is None or not limpiar(texto).strip() or actor is None:
        return
    Comentario.objects.create(
        solicitud=solicitud,
        autor=actor,
        creado_en=ahora,
        texto=validar_texto(texto, "comentario", minimo=1, maximo=MAX_COMENTARIO),
    )
