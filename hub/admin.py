from __future__ import annotations

from django.contrib import admin

from hub.models import Limites
from hub.sitio_admin import AdminUnico


@admin.register(Limites)
class LimitesAdmin(AdminUnico):
    """The public endpoints' limits: one form, opened straight from the admin index."""
