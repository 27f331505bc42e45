"""Transitional: apps/presupuesto/admin/planeacion.py (changed in parallel under issue 24) still
imports `certificado_celda` from here. At merge, point that import at
`apps.presupuesto.services.celdas` and delete this module; nothing else imports it."""

from __future__ import annotations

from apps.presupuesto.services.celdas import certificado_celda

__all__ = ["certificado_celda"]
