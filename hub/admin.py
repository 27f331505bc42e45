from __future__ import annotations

from django.contrib import admin

from hub.models import Limites


@admin.register(Limites)
class LimitesAdmin(admin.ModelAdmin):
    list_display = ("__str__", "global_por_minuto", "marca_por_minuto", "verificacion_por_minuto")

    def has_add_permission(self, request):
        return not Limites.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
