"""estado_solicitud: status of a request by its exact number (verified access)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.solicitudes.herramientas.formato import fecha
from apps.solicitudes.models import Estado, Solicitud
from apps.solicitudes.selectors import RELACIONES_ESTADO, solicitud_publica, solicitud_visible
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import (
    ENCONTRADO_FALSO,
    Acceso,
    ErrorHerramienta,
    Llamada,
    Resultado,
    Verificacion,
    herramienta,
)
from hub.http.serializadores import Estricto

# One answer for "does not exist", "you cannot see it" and "the e-mail does not match":
# nothing tells a guesser which one it was.
NO_ENCONTRADA = (
    "No se encontró una solicitud con ese número a la que tenga acceso "
    "(o el correo no corresponde a quien la radicó)."
)


class ArgsEstadoSolicitud(Estricto):
    numero_radicado = serializers.CharField(
        min_length=3, max_length=60, help_text="Número exacto de radicado, p. ej. SOL-2026-000123."
    )
    correo_solicitante = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Correo de quien radicó; obligatorio solo cuando no hay usuario conectado.",
    )


_TEXTO = {"type": "string"}
_FECHA = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$"}
_ESTADOS = list(Estado.values)
_PUBLICOS = [
    "numero_radicado",
    "estado",
    "tipo",
    "etapa_actual",
    "fecha_radicacion",
    "fecha_actualizacion",
    "encontrado",
]
SALIDA_ESTADO_SOLICITUD: dict[str, Any] = {
    "type": "object",
    "properties": {
        "numero_radicado": _TEXTO,
        "id_solicitud": {"type": "integer"},
        "enlace": _TEXTO,
        "estado": {"type": "string", "enum": _ESTADOS},
        "tipo": _TEXTO,
        "etapa_actual": _TEXTO,
        "rol_responsable": _TEXTO,
        "resumen": _TEXTO,
        "fecha_radicacion": _FECHA,
        "fecha_actualizacion": _FECHA,
        "fecha_cierre": {"anyOf": [_FECHA, {"type": "null"}]},
        "radicado_padre": {"type": ["string", "null"]},
        "radicados_hijos": {"type": "array", "items": _TEXTO},
        "encontrado": {"type": "boolean", "const": True},
    },
    "required": _PUBLICOS,
}


def _publico(s: Solicitud) -> dict[str, Any]:
    return {
        "numero_radicado": s.numero_radicado,
        "estado": s.estado,
        "tipo": limpiar(s.tipo.nombre),
        "etapa_actual": limpiar(s.nombre_etapa_actual),
        "fecha_radicacion": fecha(s.fecha_radicacion or s.creada_en),
        "fecha_actualizacion": fecha(s.fecha_actualizacion),
        "encontrado": True,
    }


def _completo(s: Solicitud) -> dict[str, Any]:
    return {
        "numero_radicado": s.numero_radicado,
        "id_solicitud": s.pk,
        "enlace": s.enlace,
        "estado": s.estado,
        "tipo": limpiar(s.tipo.nombre),
        "etapa_actual": limpiar(s.nombre_etapa_actual),
        "rol_responsable": limpiar(s.nombre_rol_responsable),
        "resumen": limpiar(s.resumen),
        "fecha_radicacion": fecha(s.fecha_radicacion or s.creada_en),
        "fecha_actualizacion": fecha(s.fecha_actualizacion),
        "fecha_cierre": fecha(s.fecha_cierre),
        "radicado_padre": s.radicado_padre,
        "radicados_hijos": s.radicados_hijos,
        "encontrado": True,
    }


def _no_encontrada() -> ErrorHerramienta:
    return ErrorHerramienta("NO_ENCONTRADO", NO_ENCONTRADA, encontrado=False)


def _resumen(datos: dict[str, Any]) -> str:
    partes = [
        f"La solicitud {datos['numero_radicado']} ({datos['tipo']}) está en estado "
        f"«{datos['estado']}»"
    ]
    if datos["etapa_actual"]:
        partes.append(f"etapa actual: {datos['etapa_actual']}")
    if datos.get("rol_responsable"):
        partes.append(f"responsable: {datos['rol_responsable']}")
    partes.append(f"última actualización: {datos['fecha_actualizacion']}")
    return "; ".join(partes) + "."


@herramienta(
    nombre="estado_solicitud",
    area="solicitudes",
    titulo="Estado de una solicitud",
    descripcion=(
        "Estado actual de una solicitud (radicado) por su número exacto. Con una persona "
        "conectada: solo solicitudes a las que ella tiene acceso, con el detalle completo. Sin "
        "persona: exige correo_solicitante (el correo de quien radicó) y devuelve un resumen "
        "mínimo. Si la solicitud no existe o no hay acceso, la respuesta es la misma."
    ),
    acceso=Acceso.VERIFICADA,
    # Without a person the assistant requires the e-mail, and limits and counts the misses.
    verificacion=Verificacion("correo_solicitante", "el correo de quien radicó"),
    argumentos=ArgsEstadoSolicitud,
    salida=SALIDA_ESTADO_SOLICITUD,
    salida_error={"encontrado": ENCONTRADO_FALSO},
)
def estado_solicitud(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    numero = datos["numero_radicado"]
    if llamada.usuario is not None:
        solicitud = solicitud_visible(llamada.usuario, numero, RELACIONES_ESTADO)
        if solicitud is None:
            raise _no_encontrada()
        estructura = _completo(solicitud)
        return Resultado(_resumen(estructura), estructura)

    solicitud = solicitud_publica(numero, datos["correo_solicitante"])
    if solicitud is None:
        raise _no_encontrada()
    estructura = _publico(solicitud)
    return Resultado(_resumen(estructura), estructura)
