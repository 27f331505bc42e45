from __future__ import annotations

from django.apps import AppConfig


class CuentasConfig(AppConfig):
    name = "apps.cuentas"
    label = "cuentas"
    verbose_name = "Cuentas y áreas"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from apps.cuentas import intentos  # noqa: F401 - connects the failed sign-in counter
