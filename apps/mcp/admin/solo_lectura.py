"""The admin of rows the assistant writes about its calls (audit log, refusals): read-only."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest


class AdminSoloLectura(admin.ModelAdmin):
    """Nobody adds, changes or deletes these rows here: they leave only past their retention
    (`manage.py mantenimiento`)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
