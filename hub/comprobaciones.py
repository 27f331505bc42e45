"""`manage.py check --deploy`: what the production profile must not run without."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

# Backends that never deliver: they print (console, with the contact messages' personal data),
# keep in memory, write files or drop the message.
CORREO_QUE_NO_ENTREGA = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
}


@register(Tags.security, deploy=True)
def produccion(app_configs, **kwargs) -> list:
    """Under HUB_PRODUCCION: mail that is delivered, and the shared cache of several hosts."""
    if not settings.HUB_PRODUCCION:
        return []
    avisos: list = []
    if settings.EMAIL_BACKEND in CORREO_QUE_NO_ENTREGA:
        avisos.append(
            Error(
                f"Mail is not delivered: EMAIL_BACKEND is {settings.EMAIL_BACKEND}.",
                hint="Set EMAIL_URL (e.g. smtp+tls://user:password@smtp.example.org:587) or "
                "EMAIL_BACKEND and EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
                "EMAIL_USE_TLS. The console backend writes contact messages (personal data) to "
                "the log.",
                id="hub.E001",
            )
        )
    if not settings.REDIS_URL:
        avisos.append(
            Warning(
                "No REDIS_URL: rate limits, the brand and the assistant settings are shared by "
                "the processes of this host only (the file cache under HUB_CACHE_DIR).",
                hint="Set REDIS_URL when more than one host serves the hub.",
                id="hub.W001",
            )
        )
    return avisos
