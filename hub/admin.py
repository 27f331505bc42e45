from __future__ import annotations

from django.contrib import admin

from hub.administracion.sitio import AdminUnico
from hub.models import Limites


@admin.register(Limites)
class LimitesAdmin(AdminUnico):
    """The public endpoints' limits: one form, opened straight from the admin index."""
