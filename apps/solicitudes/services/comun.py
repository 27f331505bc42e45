"""Shared pieces of the services: input validation, the state machine, locking, tasks, events."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from apps.solicitudes.errores import (
    AccionNoPermitida,
    DatosInvalidos,
    SolicitudNoEncontrada,
    TransicionInvalida,
)
from apps.solicitudes.models import (
    Accion,
    CampoFormulario,
    Comentario,
    Consecutivo,
    Estado,
    Etapa,
    Evento,
    Solicitud,
    Tarea,
    TipoSolicitud,
    formatear_numero,
)
from apps.solicitudes.models.bandeja import ids_roles, usuario_valido
from hub.texto import limpiar

# Hours the filer has to send a correction back.
PLAZO_CORRECCION_HORAS = 120

SEVERIDADES: dict[str, str] = {
    "sugerencia": "Sugerencia",
    "error": "Error",
    "mejora_grave": "Mejora grave",
    "bloqueante": "Bloqueante",
}

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

_NOMBRE_CAMPO = re.compile(r"^[a-z0-9_]{1,60}$")
MAX_VALOR_CAMPO = 10_000
MAX_COMENTARIO = 2000
MAX_MOTIVO = 2000

CampoEntrada = Mapping[str, Any]


# --- validation helpers -------------------------------------------------------------------


def _texto(valor: Any, campo: str, *, minimo: int, maximo: int, requerido: bool = True) -> str:
    """Cleaned text (invisible characters removed, trimmed) within bounds, or DatosInvalidos."""
    if valor is None:
        valor = ""
    if not isinstance(valor, str):
        raise DatosInvalidos("Datos inválidos.", campos={campo: ["Debe ser texto."]})
    texto = limpiar(valor).strip()
    if not texto and not requerido:
        return ""
    if len(texto) < minimo:
        raise DatosInvalidos(
            "Datos inválidos.", campos={campo: [f"Debe tener al menos {minimo} caracteres."]}
        )
    if len(texto) > maximo:
        raise DatosInvalidos(
            "Datos inválidos.", campos={campo: [f"Debe tener como máximo {maximo} caracteres."]}
        )
    return texto


def _correo(valor: Any, campo: str) -> str:
    correo = _texto(valor, campo, minimo=3, maximo=150)
    try:
        validate_email(correo)
    except ValidationError:
        raise DatosInvalidos(
            "Datos inválidos.", campos={campo: ["Introduzca un correo electrónico válido."]}
        ) from None
    return correo


def _campos(campos: Iterable[CampoEntrada] | Mapping[str, Any] | None) -> list[CampoFormulario]:
    """Unsaved form fields from a list of {nombre, valor, etiqueta?, sensible?} or {nombre: valor}.

    Sensitivity is the explicit flag OR what the name/value suggest (identity documents, contact
    data): a caller forgetting the flag must not leak a document number into a summary.
    """
    if campos is None:
        return []
    if isinstance(campos, Mapping):
        campos = [{"nombre": k, "valor": v} for k, v in campos.items()]
    resultado: list[CampoFormulario] = []
    vistos: set[str] = set()
    for i, campo in enumerate(campos):
        if not isinstance(campo, Mapping):
            raise DatosInvalidos("Datos inválidos.", campos={f"campos.{i}": ["Campo inválido."]})
        nombre = str(campo.get("nombre") or "").strip().lower()
        if not _NOMBRE_CAMPO.match(nombre) or nombre in vistos:
            raise DatosInvalidos(
                "Datos inválidos.",
                campos={
                    f"campos.{i}.nombre": ["Nombre vacío, repetido o con caracteres no válidos."]
                },
            )
        vistos.add(nombre)
        valor = campo.get("valor")
        valor = "" if valor is None else str(valor)
        valor = _texto(
            valor, f"campos.{i}.valor", minimo=0, maximo=MAX_VALOR_CAMPO, requerido=False
        )
        etiqueta = _texto(
            campo.get("etiqueta") or nombre.replace("_", " ").capitalize(),
            f"campos.{i}.etiqueta",
            minimo=1,
            maximo=150,
        )
        sensible = bool(campo.get("sensible")) or CampoFormulario.parece_sensible(nombre, valor)
        resultado.append(
            CampoFormulario(
                orden=i, nombre=nombre, etiqueta=etiqueta, valor=valor, sensible=sensible
            )
        )
    return resultado


def _nombre(usuario) -> str:
    return usuario.nombre_visible if usuario is not None else "el sistema"


def _ids_roles(usuario) -> set[int]:
    return set(ids_roles(usuario))


def _puede_radicar(usuario) -> bool:
    return usuario_valido(usuario) and usuario.has_perm("solicitudes.radicar")


# --- building blocks ------------------------------------------------------------------------


def _numerar(solicitud: Solicitud, ahora: datetime) -> None:
    """Give the request its number: next of its type's prefix in the local year."""
    anio = timezone.localtime(ahora).year
    prefijo = solicitud.tipo.prefijo
    solicitud.numero_radicado = formatear_numero(prefijo, anio, Consecutivo.reservar(prefijo, anio))


def _tarea_de_etapa(solicitud: Solicitud, etapa: Etapa, ahora: datetime) -> Tarea:
    """The stage's task, in the common inbox of the stage's role."""
    return Tarea.objects.create(
        solicitud=solicitud,
        etapa=etapa,
        rol_id=etapa.rol_id,
        requiere_firma=etapa.requiere_firma,
        recibida_en=ahora,
        vence_en=ahora + timedelta(hours=etapa.plazo_horas),
    )


def _evento(
    solicitud: Solicitud,
    accion: str,
    actor,
    ahora: datetime,
    descripcion: str,
    *,
    origen: Etapa | None = None,
    destino: Etapa | None = None,
) -> Evento:
    return Evento.objects.create(
        solicitud=solicitud,
        actor=actor,
        creado_en=ahora,
        accion=accion,
        descripcion=descripcion,
        etapa_origen=origen,
        etapa_destino=destino,
    )


def _comentario_opcional(solicitud: Solicitud, actor, texto: str | None, ahora: datetime) -> None:
    """An optional note given with a transition goes to the chat, in the actor's name."""
    if texto is None or not limpiar(texto).strip() or actor is None:
        return
    Comentario.objects.create(
        solicitud=solicitud,
        autor=actor,
        creado_en=ahora,
        texto=_texto(texto, "comentario", minimo=1, maximo=MAX_COMENTARIO),
    )


def _guardar(solicitud: Solicitud, ahora: datetime, **cambios: Any) -> None:
    for campo, valor in cambios.items():
        setattr(solicitud, campo, valor)
    solicitud.fecha_actualizacion = ahora
    solicitud.save(update_fields=[*cambios, "fecha_actualizacion"])


def _bloquear(solicitud: Solicitud) -> Solicitud:
    """A fresh copy of the request, its row locked until the transaction ends."""
    try:
        return (
            Solicitud.objects.select_for_update(of=("self",))
            .select_related("tipo", "etapa_actual", "solicitante")
            .get(pk=solicitud.pk)
        )
    except Solicitud.DoesNotExist:
        raise SolicitudNoEncontrada("La solicitud no existe.") from None


def _exigir_estado(solicitud: Solicitud, accion: str) -> None:
    if solicitud.estado not in TRANSICIONES[accion]:
        raise TransicionInvalida(
            f"No se puede {_VERBOS[accion]} una solicitud en estado "
            f"«{solicitud.get_estado_display()}»."
        )


def _tarea_pendiente_de_etapa(solicitud: Solicitud) -> Tarea | None:
    return (
        Tarea.objects.pendientes()
        .filter(solicitud=solicitud, es_correccion=False)
        .order_by("pk")
        .first()
    )


def _puede_atender(usuario, tarea: Tarea) -> bool:
    if tarea.asignada_a_id is not None:
        return tarea.asignada_a_id == usuario.pk
    return tarea.rol_id is not None and tarea.rol_id in _ids_roles(usuario)


def _exigir_responsable(solicitud: Solicitud, actor) -> None:
    """Only whoever holds the current stage's task (or, if unassigned, its role) may move it.

    While the request is back with the filer (no stage task pending) the stage's role decides.
    Superusers may act on any request (administrative fixes).
    """
    if not usuario_valido(actor):
        raise AccionNoPermitida("Se requiere una persona activa para esta acción.")
    if actor.is_superuser:
        return
    tarea = _tarea_pendiente_de_etapa(solicitud)
    if tarea is not None:
        permitido = _puede_atender(actor, tarea)
    else:
        etapa = solicitud.etapa_actual
        permitido = etapa is not None and etapa.rol_id in _ids_roles(actor)
    if not permitido:
        raise AccionNoPermitida(
            "Solo quien tiene la tarea de la etapa actual, o su rol si no está asignada, "
            "puede hacerlo."
        )


def _cerrar(
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
    _guardar(
        solicitud,
        ahora,
        estado=estado,
        etapa_actual=None,
        rol_responsable=None,
        fecha_cierre=ahora,
    )
    _evento(solicitud, accion, actor, ahora, descripcion, origen=origen)
    return solicitud


def _entrar_en_flujo(solicitud: Solicitud, actor, ahora: datetime, primera: Etapa) -> None:
    """Number, first stage, its common-inbox task and the 'radicada' event."""
    _numerar(solicitud, ahora)
    solicitud.estado = Estado.RADICADO
    solicitud.etapa_actual = primera
    solicitud.rol_responsable_id = primera.rol_id
    solicitud.fecha_radicacion = ahora
    solicitud.fecha_actualizacion = ahora
    solicitud.save()
    _tarea_de_etapa(solicitud, primera, ahora)
    quien = _nombre(actor) if actor is not None else "canal externo"
    _evento(
        solicitud,
        Accion.RADICADA,
        actor,
        ahora,
        f"Radicada por {quien} como {solicitud.numero_radicado}. Pasa a «{primera.nombre}».",
        destino=primera,
    )


def _primera_etapa(tipo: TipoSolicitud) -> Etapa:
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


def _validar_padre(padre: Solicitud | None) -> None:
    if padre is not None and not padre.numero_radicado:
        raise DatosInvalidos(
            "Datos inválidos.", campos={"padre": ["La solicitud padre debe estar radicada."]}
        )
