from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from apps.cuentas.models import Area, User


@admin.register(Area)
class AreaAdmin(admin.ModelAdmin):
    list_display = ("sigla", "nombre", "activa")
    list_filter = ("activa",)
    search_fields = ("nombre", "sigla")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Organización", {"fields": ("cargo", "areas")}),
    )
    filter_horizontal = ("groups", "user_permissions", "areas")
    list_display = ("username", "first_name", "last_name", "email", "is_active", "is_staff")
    list_filter = ("is_active", "is_staff", "groups", "areas")
