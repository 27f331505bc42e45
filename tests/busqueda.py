"""Text searches in tests: the fields of the items the search tools answer (the interface's),
and what a search costs in queries on the database under test."""

from __future__ import annotations

from django.db import connection

# An item of buscar_solicitudes, and of busqueda_global's requests.
CAMPOS_SOLICITUD = {
    "numero_radicado",
    "id_solicitud",
    "enlace",
    "url",
    "tipo",
    "estado",
    "etapa_actual",
    "resumen",
    "fecha_radicacion",
    "fecha_actualizacion",
}
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
    words up in the vocabulary (hub/busqueda.py); SQLite filters with LIKE alone."""
    return busquedas if connection.vendor == "postgresql" else 0
