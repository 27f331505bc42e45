"""Workflow: assignment and every transition of the state machine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.solicitudes.errores import (
    AccionNoPermitida,
    DatosInvalidos,
    FirmaRequerida,
    SolicitudNoEncontrada,
    TransicionInvalida,
)
from apps.solicitudes.models import Accion, CampoFormulario, Estado, Solicitud, Tarea
from apps.solicitudes.models.bandeja import usuario_valido
from apps.solicitudes.services.ciclo import (
    bloquear,
    cerrar,
    crear_tarea_de_etapa,
    exigir_version,
    guardar_cambios,
)
from apps.solicitudes.services.historial import comentar_si_hay_texto, crear_evento, nombre_actor
from apps.solicitudes.services.transiciones import (
    PLAZO_CORRECCION_HORAS,
    TRANSICIONES,
    es_responsable,
    exigir_estado,
    exigir_responsable,
    puede_atender,
    tiene_el_rol,
)
from apps.solicitudes.services.validacion import (
    MAX_MOTIVO,
    CampoEntrada,
    validar_campos,
    validar_texto,
)

# The actions that move a request's current stage; each needs the stage's holder.
ACCIONES_DE_ETAPA = ("avanzar", "aprobar", "devolver", "rechazar", "marcar_atencion", "reanudar")


def puede_asignar(*, tarea: Tarea, actor) -> bool:
    """Whether `asignar` lets `actor` take this task (or hand it on): pending, of a role, the
    actor holds that role, and the task is unassigned or theirs (a superuser may reassign)."""
    if not tarea.pendiente or tarea.rol_id is None or not tiene_el_rol(actor, tarea.rol_id):
        return False
    return tarea.asignada_a_id in (None, actor.pk) or actor.is_superuser


def es_ultima_etapa(solicitud: Solicitud) -> bool:
    """No stage after the current one: `aprobar` may close it (`avanzar` approves too)."""
    return solicitud.etapa_actual is None or solicitud.etapa_actual.siguiente() is None


def _es_autor(solicitud: Solicitud, actor) -> bool:
    return solicitud.solicitante_id is not None and solicitud.solicitante_id == actor.pk


def puede_anular(*, solicitud: Solicitud, actor) -> bool:
    """Whether `anular` lets `actor` cancel the request now (its rule, without writing)."""
    if solicitud.estado not in TRANSICIONES["anular"] or not usuario_valido(actor):
        return False
    if actor.is_superuser or _es_autor(solicitud, actor):
        return True
    return solicitud.estado != Estado.BORRADOR and es_responsable(solicitud, actor)


def _corrige(solicitud: Solicitud, actor, correcciones: Iterable[Tarea]) -> bool:
    """Who sends the correction: the internal filer; for an outside filer, whoever may attend
    the correction task (the stage's role); superusers always."""
    if actor.is_superuser:
        return True
    if solicitud.solicitante_id is not None:
        return solicitud.solicitante_id == actor.pk
    return any(puede_atender(actor, t) for t in correcciones)


def puede_corregir(*, solicitud: Solicitud, actor) -> bool:
    """Whether `corregir` lets `actor` send the correction now (its rule, without writing)."""
    if solicitud.estado not in TRANSICIONES["corregir"] or not usuario_valido(actor):
        return False
    if solicitud.etapa_actual_id is None:
        return False
    correcciones = Tarea.objects.pendientes().correcciones().filter(solicitud=solicitud)
    return _corrige(solicitud, actor, correcciones)


def acciones_permitidas(*, solicitud: Solicitud, actor, tarea: Tarea | None = None) -> frozenset:
    """The workflow services `actor` may call now on `solicitud` (what a page offers them).

    The services' own checks, without writing: the state (TRANSICIONES), the stage's holder
    (`es_responsable`), the last stage for `aprobar`, the filer for `anular` and `corregir`,
    the task's role and holder for `asignar` (`tarea`: the pending task, if the caller has it),
    and, at a stage that requires a signature, `firmar` in place of `avanzar` and `aprobar`.
    """
    if not usuario_valido(actor):
        return frozenset()
    acciones: set[str] = set()
    if es_responsable(solicitud, actor):
        acciones.update(a for a in ACCIONES_DE_ETAPA if solicitud.estado in TRANSICIONES[a])
        if "aprobar" in acciones and not es_ultima_etapa(solicitud):
            acciones.discard("aprobar")
    if requiere_firma(solicitud):
        # Such a stage completes only by signing it, and only its holder signs.
        acciones -= {"avanzar", "aprobar"}
        if puede_firmar(solicitud=solicitud, actor=actor):
            acciones.add("firmar")
    if puede_anular(solicitud=solicitud, actor=actor):
        acciones.add("anular")
    if puede_corregir(solicitud=solicitud, actor=actor):
        acciones.add("corregir")
    if tarea is not None and puede_asignar(tarea=tarea, actor=actor):
        acciones.add("asignar")
    return frozenset(acciones)


def asignar(*, tarea: Tarea, usuario, actor, version: int | None = None) -> Tarea:
    """Take a task out of the common inbox for one person of its role (or hand it on).

    The actor must hold the task's role and the task must be unassigned or theirs (taking it
    for oneself or handing it to a colleague); a colleague does not take a task someone else
    holds (a superuser may reassign it). The new holder must be active and hold the role too.
    The filer's own correction task cannot be reassigned. `version`: the request's version the
    caller's form was drawn for (a stale one is refused: SolicitudCambio), as in every transition.
    """
    with transaction.atomic():
        # Lock order as in every transition (request, then its tasks): no deadlock.
        solicitud_id = (
            Tarea.objects.filter(pk=tarea.pk).values_list("solicitud_id", flat=True).first()
        )
        if solicitud_id is None:
            raise SolicitudNoEncontrada("La tarea no existe.")
        solicitud = bloquear(Solicitud(pk=solicitud_id))
        exigir_version(solicitud, version)
        t = Tarea.objects.select_for_update(of=("self",)).select_related("etapa").get(pk=tarea.pk)
        if not t.pendiente:
            raise TransicionInvalida("La tarea ya fue completada.")
        if t.rol_id is None:
            raise TransicionInvalida("La corrección del solicitante no se reasigna.")
        if not tiene_el_rol(actor, t.rol_id):
            raise AccionNoPermitida("Solo las personas del rol de la tarea pueden asignarla.")
        if not puede_asignar(tarea=t, actor=actor):
            raise AccionNoPermitida(
                "La tarea ya está asignada: solo quien la tiene puede pasarla a otra persona "
                "del rol."
            )
        if not tiene_el_rol(usuario, t.rol_id):
            raise DatosInvalidos(
                "Datos inválidos.",
                campos={"usuario": ["La persona debe estar activa y tener el rol de la tarea."]},
            )
        ahora = timezone.now()
        t.asignada_a = usuario
        t.save(update_fields=["asignada_a"])
        guardar_cambios(solicitud, ahora)
        que = t.etapa.nombre if t.etapa is not None else "corrección"
        crear_evento(
            solicitud,
            Accion.ASIGNADA,
            actor,
            ahora,
            f"Tarea «{que}» asignada a {nombre_actor(usuario)}.",
            origen=t.etapa,
            destino=t.etapa,
        )
    return t


def requiere_firma(solicitud: Solicitud) -> bool:
    """The current stage completes only by signing it (the stage says so, or its pending task
    was created so)."""
    if solicitud.etapa_actual_id is None:
        return False
    if solicitud.etapa_actual.requiere_firma:
        return True
    return (
        Tarea.objects.pendientes()
        .filter(solicitud=solicitud, es_correccion=False, requiere_firma=True)
        .exists()
    )


def exigir_sin_firma(solicitud: Solicitud) -> None:
    """FirmaRequerida at a stage that completes only by signing it."""
    if requiere_firma(solicitud):
        raise FirmaRequerida(
            f"La etapa «{solicitud.etapa_actual.nombre}» se completa con la firma de su "
            "responsable («Firmar»), no avanzándola."
        )


def puede_firmar(*, solicitud: Solicitud, actor) -> bool:
    """Whether `firmar` lets `actor` sign the current stage: it requires a signature, the state
    allows completing it, and the actor holds its task (or, unassigned, its role). No superuser
    bypass: a signature is personal."""
    # Signing completes the stage: it starts where advancing does.
    if solicitud.estado not in TRANSICIONES["avanzar"] or not usuario_valido(actor):
        return False
    if not requiere_firma(solicitud):
        return False
    tarea = (
        Tarea.objects.pendientes()
        .filter(solicitud=solicitud, es_correccion=False)
        .order_by("pk")
        .first()
    )
    return tarea is not None and puede_atender(actor, tarea)


def completar_etapa(s: Solicitud, actor, ahora, comentario: str | None = None) -> Solicitud:
    """Complete the locked request's stage: on to the next one, or approve after the last."""
    origen = s.etapa_actual
    siguiente = origen.siguiente() if origen is not None else None
    comentar_si_hay_texto(s, actor, comentario, ahora)
    if siguiente is None:
        return cerrar(
            s,
            actor,
            ahora,
            Estado.APROBADO,
            Accion.APROBADA,
            f"Aprobada por {nombre_actor(actor)} al completar la última etapa.",
        )
    Tarea.objects.pendientes().filter(solicitud=s).update(completada_en=ahora, completada_por=actor)
    crear_tarea_de_etapa(s, siguiente, ahora)
    guardar_cambios(
        s,
        ahora,
        estado=Estado.EN_TRAMITE,
        etapa_actual=siguiente,
        rol_responsable_id=siguiente.rol_id,
    )
    crear_evento(
        s,
        Accion.AVANZADA,
        actor,
        ahora,
        f"{nombre_actor(actor)} completó «{origen.nombre}»; pasa a «{siguiente.nombre}».",
        origen=origen,
        destino=siguiente,
    )
    return s


def avanzar(
    *, solicitud: Solicitud, actor, comentario: str | None = None, version: int | None = None
) -> Solicitud:
    """Complete the current stage: on to the next one (`en_tramite`), or approve after the last.

    Not a stage that requires a signature (FirmaRequerida: `firmar` completes it).
    """
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "avanzar")
        exigir_responsable(s, actor)
        exigir_sin_firma(s)
        return completar_etapa(s, actor, timezone.now(), comentario)


def aprobar(
    *, solicitud: Solicitud, actor, comentario: str | None = None, version: int | None = None
) -> Solicitud:
    """Approve and close; only at the last stage (earlier ones must be completed first), and not
    at one that requires a signature (`firmar` approves it)."""
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "aprobar")
        exigir_responsable(s, actor)
        exigir_sin_firma(s)
        if not es_ultima_etapa(s):
            raise TransicionInvalida(
                "Faltan etapas por completar: la solicitud se aprueba en la última etapa."
            )
        ahora = timezone.now()
        comentar_si_hay_texto(s, actor, comentario, ahora)
        return cerrar(
            s,
            actor,
            ahora,
            Estado.APROBADO,
            Accion.APROBADA,
            f"Aprobada por {nombre_actor(actor)}.",
        )


def devolver(*, solicitud: Solicitud, actor, motivo: str, version: int | None = None) -> Solicitud:
    """Send the request back to its filer for a correction (state `devuelto`).

    The correction task goes to the internal filer; for an outside filer it goes to the common
    inbox of the stage's role (staff contact the person and record the correction).
    """
    motivo = validar_texto(motivo, "motivo", minimo=3, maximo=MAX_MOTIVO)
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "devolver")
        exigir_responsable(s, actor)
        ahora = timezone.now()
        etapa = s.etapa_actual
        Tarea.objects.pendientes().filter(solicitud=s).update(
            completada_en=ahora, completada_por=actor
        )
        Tarea.objects.create(
            solicitud=s,
            etapa=etapa,
            rol_id=None if s.solicitante_id else (etapa.rol_id if etapa else None),
            asignada_a_id=s.solicitante_id,
            es_correccion=True,
            instrucciones=motivo,
            recibida_en=ahora,
            vence_en=ahora + timedelta(hours=PLAZO_CORRECCION_HORAS),
        )
        guardar_cambios(s, ahora, estado=Estado.DEVUELTO, rol_responsable=None)
        crear_evento(
            s,
            Accion.DEVUELTA,
            actor,
            ahora,
            f"Devuelta al solicitante por {nombre_actor(actor)}. Motivo: {motivo}",
            origen=etapa,
        )
    return s


def corregir(
    *,
    solicitud: Solicitud,
    actor,
    comentario: str | None = None,
    resumen: str | None = None,
    campos: Iterable[CampoEntrada] | Mapping[str, Any] | None = None,
    version: int | None = None,
) -> Solicitud:
    """The filer sends the correction: back to the stage that returned it (`en_tramite`).

    `resumen` and `campos` (by name: replaced or added) change the filed data if given.
    """
    nuevo_resumen = (
        None if resumen is None else validar_texto(resumen, "resumen", minimo=5, maximo=500)
    )
    nuevos_campos = validar_campos(campos)
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "corregir")
        if not usuario_valido(actor):
            raise AccionNoPermitida("Se requiere una persona activa para esta acción.")
        correcciones = list(Tarea.objects.pendientes().correcciones().filter(solicitud=s))
        if not _corrige(s, actor, correcciones):
            raise AccionNoPermitida("Solo el solicitante puede enviar la corrección.")
        ahora = timezone.now()
        etapa = s.etapa_actual
        if etapa is None:
            raise TransicionInvalida("La solicitud no tiene una etapa a la cual volver.")
        for campo in nuevos_campos:
            CampoFormulario.objects.update_or_create(
                solicitud=s,
                nombre=campo.nombre,
                defaults={
                    "etiqueta": campo.etiqueta,
                    "valor": campo.valor,
                    "sensible": campo.sensible,
                },
            )
        Tarea.objects.filter(pk__in=[t.pk for t in correcciones]).update(
            completada_en=ahora, completada_por=actor
        )
        crear_tarea_de_etapa(s, etapa, ahora)
        cambios: dict[str, Any] = {"estado": Estado.EN_TRAMITE, "rol_responsable_id": etapa.rol_id}
        if nuevo_resumen is not None:
            cambios["resumen"] = nuevo_resumen
        guardar_cambios(s, ahora, **cambios)
        comentar_si_hay_texto(s, actor, comentario, ahora)
        crear_evento(
            s,
            Accion.CORREGIDA,
            actor,
            ahora,
            f"{nombre_actor(actor)} envió la corrección; vuelve a «{etapa.nombre}».",
            destino=etapa,
        )
    return s


def rechazar(*, solicitud: Solicitud, actor, motivo: str, version: int | None = None) -> Solicitud:
    """Close the request with an unfavourable answer."""
    motivo = validar_texto(motivo, "motivo", minimo=3, maximo=MAX_MOTIVO)
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "rechazar")
        exigir_responsable(s, actor)
        return cerrar(
            s,
            actor,
            timezone.now(),
            Estado.RECHAZADO,
            Accion.RECHAZADA,
            f"Rechazada por {nombre_actor(actor)}. Motivo: {motivo}",
        )


def anular(*, solicitud: Solicitud, actor, motivo: str, version: int | None = None) -> Solicitud:
    """Cancel the request (error or withdrawal): by its internal filer or the stage's holder."""
    motivo = validar_texto(motivo, "motivo", minimo=3, maximo=MAX_MOTIVO)
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "anular")
        if not usuario_valido(actor):
            raise AccionNoPermitida("Se requiere una persona activa para esta acción.")
        if not _es_autor(s, actor) and not actor.is_superuser:
            if s.estado == Estado.BORRADOR:
                raise AccionNoPermitida("Solo quien creó el borrador puede anularlo.")
            exigir_responsable(s, actor)
        return cerrar(
            s,
            actor,
            timezone.now(),
            Estado.ANULADO,
            Accion.ANULADA,
            f"Anulada por {nombre_actor(actor)}. Motivo: {motivo}",
        )


def marcar_atencion(
    *, solicitud: Solicitud, actor, motivo: str, version: int | None = None
) -> Solicitud:
    """Stop the request for a non-routine action (`requiere_atencion`); its task stays pending."""
    motivo = validar_texto(motivo, "motivo", minimo=3, maximo=MAX_MOTIVO)
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "marcar_atencion")
        exigir_responsable(s, actor)
        ahora = timezone.now()
        guardar_cambios(s, ahora, estado=Estado.REQUIERE_ATENCION)
        crear_evento(
            s,
            Accion.ATENCION,
            actor,
            ahora,
            f"{nombre_actor(actor)} la marcó para atención. Motivo: {motivo}",
            origen=s.etapa_actual,
        )
    return s


def reanudar(
    *, solicitud: Solicitud, actor, comentario: str | None = None, version: int | None = None
) -> Solicitud:
    """Resume a request that required attention: back to `en_tramite` at the same stage."""
    with transaction.atomic():
        s = bloquear(solicitud)
        exigir_version(s, version)
        exigir_estado(s, "reanudar")
        exigir_responsable(s, actor)
        ahora = timezone.now()
        comentar_si_hay_texto(s, actor, comentario, ahora)
        guardar_cambios(s, ahora, estado=Estado.EN_TRAMITE)
        crear_evento(
            s,
            Accion.REANUDADA,
            actor,
            ahora,
            f"{nombre_actor(actor)} reanudó el trámite.",
            origen=s.etapa_actual,
            destino=s.etapa_actual,
        )
    return s
