"""Models of the requests domain (one module per concern, all importable from here)."""

from __future__ import annotations

from apps.solicitudes.models.bandeja import (
    HORAS_POR_VENCER,
    Accion,
    Comentario,
    Evento,
    Tarea,
    TareaQuerySet,
)
from apps.solicitudes.models.flujo import (
    Consecutivo,
    Etapa,
    TipoSolicitud,
    TipoSolicitudQuerySet,
    formatear_numero,
)
from apps.solicitudes.models.solicitud import (
    ESTADOS_ABIERTOS,
    ESTADOS_CERRADOS,
    CampoFormulario,
    Estado,
    Solicitud,
    SolicitudQuerySet,
)

__all__ = [
    "ESTADOS_ABIERTOS",
    "ESTADOS_CERRADOS",
    "HORAS_POR_VENCER",
    "Accion",
    "CampoFormulario",
    "Comentario",
    "Consecutivo",
    "Estado",
    "Etapa",
    "Evento",
    "Solicitud",
    "SolicitudQuerySet",
    "Tarea",
    "TareaQuerySet",
    "TipoSolicitud",
    "TipoSolicitudQuerySet",
    "formatear_numero",
]
