"""The state machine: which action may start from which state, and who may take it."""

from __future__ import annotations

from apps.solicitudes.errores import AccionNoPermitida, TransicionInvalida
from apps.solicitudes.models import Estado, Solicitud, Tarea
from apps.solicitudes.models.bandeja import ids_roles, usuario_valido

# Hours the filer has to send a correction back.
PLAZO_CORRECCION_HORAS = 120

# action -> states it may start from (the target state is fixed by the action).
TRANSICIONES: dict[str, frozenset[str]] = {
    "radicar_borrador": frozenset({Estado.BORRADOR}),
    "avanzar": frozenset({Estado.RADICADO, Estado.EN_TRAMITE}),
    "aprobar": frozenset({Estado.RADICADO, Estado.EN_TRAMITE}),
    "devolver": frozenset({Estado.RADICADO, Estado.EN_TRAMITE, Estado.REQUIERE_ATENCION}),
    "corregir": frozenset({Estado.DEVUELTO}),
    "rechazar": frozenset(
        {Estado.RADICADO, Estado.EN_TRAMITE, Estado.DEVUELTO, Estado.REQUIERE_ATENCION}
    ),
    "anular": frozenset(
        {
            Estado.BORRADOR,
            Estado.RADICADO,
            Estado.EN_TRAMITE,
            Estado.DEVUELTO,
            Estado.REQUIERE_ATENCION,
        }
    ),
    "marcar_atencion": frozenset({Estado.RADICADO, Estado.EN_TRAMITE}),
    "reanudar": frozenset({Estado.REQUIERE_ATENCION}),
}

_VERBOS = {
    "radicar_borrador": "radicar",
    "avanzar": "avanzar",
    "aprobar": "aprobar",
    "devolver": "devolver",
    "corregir": "corregir",
    "rechazar": "rechazar",
    "anular": "anular",
    "marcar_atencion": "marcar para atención",
    "reanudar": "reanudar",
}


def exigir_estado(solicitud: Solicitud, accion: str) -> None:
    """TransicionInvalida unless `accion` may start from the request's state."""
    if solicitud.estado not in TRANSICIONES[accion]:
        raise TransicionInvalida(
            f"No se puede {_VERBOS[accion]} una solicitud en estado "
            f"«{solicitud.get_estado_display()}»."
        )


def roles_de(usuario) -> set[int]:
    """The ids of the person's roles (groups)."""
    return set(ids_roles(usuario))


def puede_radicar(usuario) -> bool:
    """An active person with the permission to file requests."""
    return usuario_valido(usuario) and usuario.has_perm("solicitudes.radicar")


def _tarea_pendiente_de_etapa(solicitud: Solicitud) -> Tarea | None:
    return (
        Tarea.objects.pendientes()
        .filter(solicitud=solicitud, es_correccion=False)
        .order_by("pk")
        .first()
    )


def tiene_el_rol(usuario, rol_id: int | None) -> bool:
    """An active person holding the role `rol_id` (superusers hold every role)."""
    if not usuario_valido(usuario) or rol_id is None:
        return False
    return usuario.is_superuser or rol_id in roles_de(usuario)


def puede_atender(usuario, tarea: Tarea) -> bool:
    """The task's holder, or anyone of its role while it sits in the common inbox."""
    if tarea.asignada_a_id is not None:
        return tarea.asignada_a_id == usuario.pk
    return tarea.rol_id is not None and tarea.rol_id in roles_de(usuario)


def es_responsable(solicitud: Solicitud, actor) -> bool:
    """Whether `exigir_responsable` lets `actor` move the request's current stage (a page offers
    the actions from this same rule)."""
    if not usuario_valido(actor):
        return False
    if actor.is_superuser:
        return True
    tarea = _tarea_pendiente_de_etapa(solicitud)
    if tarea is not None:
        return puede_atender(actor, tarea)
    etapa = solicitud.etapa_actual
    return etapa is not None and etapa.rol_id in roles_de(actor)


def exigir_responsable(solicitud: Solicitud, actor) -> None:
    """Only whoever holds the current stage's task (or, if unassigned, its role) may move it.

    While the request is back with the filer (no stage task pending) the stage's role decides.
    Superusers may act on any request (administrative fixes).
    """
    if not usuario_valido(actor):
        raise AccionNoPermitida("Se requiere una persona activa para esta acción.")
    if not es_responsable(solicitud, actor):
        raise AccionNoPermitida(
            "Solo quien tiene la tarea de la etapa actual, o su rol si no está asignada, "
            "puede hacerlo."
        )
