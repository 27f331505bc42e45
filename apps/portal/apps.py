from __future__ import annotations

from django.apps import AppConfig


class PortalConfig(AppConfig):
    """The person's pages that gather several apps (sign-in, profile, assistant activity): above
    the accounts, the assistant and its OAuth connections, none of which imports it. No models."""

    name = "apps.portal"
    label = "portal"
    verbose_name = "Portal de la persona"
