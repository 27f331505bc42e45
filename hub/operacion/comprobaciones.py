"""`manage.py check --deploy`: what the production profile should not run without.

Mail that is delivered, DEBUG off and an https public address are refused earlier, when the
settings load (hub/settings.py): the start stops there, before any check can run.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def produccion(app_configs, **kwargs) -> list:
    """Under HUB_PRODUCCION: the shared cache of several hosts."""
    if not settings.HUB_PRODUCCION:
        return []
    avisos: list = []
    if not settings.REDIS_URL:
        avisos.append(
            Warning(
                "Sin REDIS_URL: los límites de tasa, la marca y los ajustes del asistente se "
                "comparten solo entre los procesos de este servidor (la caché en archivos de "
                "HUB_CACHE_DIR).",
                hint="Defina REDIS_URL cuando más de un servidor (host) atienda el hub.",
                id="hub.W001",
            )
        )
    return avisos
