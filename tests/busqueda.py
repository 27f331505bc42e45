"""Text searches in tests: the fields of the items the search tools answer and the states they
filter by (the interface's), and what a search costs in queries on the database under test."""

from __future__ import annotations

from django.db import connection

# How the requests tools' answers name a request: number, id, both links, type and state.
REFERENCIA_SOLICITUD = {"numero_radicado", "id_solicitud", "enlace", "url", "tipo", "estado"}
# An item of buscar_solicitudes, and of busqueda_global's requests.
CAMPOS_SOLICITUD = REFERENCIA_SOLICITUD | {
    "etapa_actual",
    "resumen",
    "fecha_radicacion",
    "fecha_actualizacion",
}
# The states of a request, in the order of the estado filter's enum.
ESTADOS_SOLICITUD = [
    "borrador",
    "radicado",
    "en_tramite",
    "aprobado",
    "rechazado",
    "devuelto",
    "anulado",
    "requiere_atencion",
]
# An item of buscar_documento, and of busqueda_global's quality documents.
CAMPOS_DOCUMENTO = {
    "id",
    "uid",
    "codigo_publicado",
    "codigos_anteriores",
    "titulo",
    "version",
    "tipo",
    "proceso",
    "estado",
    "fecha_publicacion",
    "enlace",
    "url",
}


def vocabulario(busquedas: int = 1) -> int:
    """Queries of `busquedas` text filters beyond their own: on PostgreSQL each first looks its
    words up in the vocabulary (hub/busqueda/columnas.py); SQLite filters with LIKE alone."""
    return busquedas if connection.vendor == "postgresql" else 0
