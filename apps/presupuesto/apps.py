from __future__ import annotations

from django.apps import AppConfig


class PresupuestoConfig(AppConfig):
    name = "apps.presupuesto"
    label = "presupuesto"
    verbose_name = "Presupuesto"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from apps.presupuesto import pantallas
        from apps.solicitudes import pantalla

        # The request page and the home show budget parts; the requests app imports none.
        pantalla.SECCIONES.agregar(("presupuesto", pantallas.de_la_solicitud))
        pantalla.EN_EL_INICIO.agregar(pantallas.en_el_inicio)
