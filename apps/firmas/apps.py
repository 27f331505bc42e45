from __future__ import annotations

from django.apps import AppConfig


class FirmasConfig(AppConfig):
    name = "apps.firmas"
    label = "firmas"
    verbose_name = "Firmas electrónicas"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.apps import apps
        from django.db.models.signals import post_delete, post_save

        from apps.firmas.models import Firma
        from apps.firmas.selectors import olvidar_verificaciones

        def olvidar(sender, **kwargs) -> None:
            olvidar_verificaciones()

        # A signature, or any document that can be signed (its summary is in the answer).
        firmables = [m for m in apps.get_models() if callable(getattr(m, "resumen_firma", None))]
        for modelo in [Firma, *firmables]:
            post_save.connect(olvidar, sender=modelo, weak=False, dispatch_uid=f"verif-{modelo}")
            post_delete.connect(
                olvidar, sender=modelo, weak=False, dispatch_uid=f"verif-d-{modelo}"
            )
