"""What a text search costs in queries on the database under test."""

from __future__ import annotations

from django.db import connection


def vocabulario(busquedas: int = 1) -> int:
    """Queries of `busquedas` text filters beyond their own: on PostgreSQL each first looks its
    words up in the vocabulary (hub/busqueda.py); SQLite filters with LIKE alone."""
    return busquedas if connection.vendor == "postgresql" else 0
