from __future__ import annotations

from django.apps import AppConfig


class PresupuestoConfig(AppConfig):
    name = "apps.presupuesto"
    label = "presupuesto"
    verbose_name = "Presupuesto"
    default_auto_field = "django.db.models.BigAutoField"
