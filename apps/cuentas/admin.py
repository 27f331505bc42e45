from __future__ import annotations

from datetime import datetime

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from apps.cuentas import bloqueos
from apps.cuentas.formularios import FormularioIngresoAdmin
from apps.cuentas.intentos import limitar_ingreso
from apps.cuentas.models import Area, BloqueoIngreso, User
from apps.cuentas.views import SalidaView
from hub.administracion.sitio import con_titulo

# The admin's sign-in and sign-out are this app's (hub.administracion.sitio.SitioAdmin names no
# app): the
# same form, failure limits and device cookie as the site's sign-in, and the same sign-out.
admin.site.login_form = FormularioIngresoAdmin
admin.site.limitar_ingreso = limitar_ingreso
admin.site.vista_salida = SalidaView


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
    list_filter = (
        "is_active",
        ("is_staff", con_titulo(admin.BooleanFieldListFilter, "acceso a la administración")),
        "groups",
        "areas",
    )


class EstadoBloqueo(admin.SimpleListFilter):
    """Activo / Levantado / Terminado, as the list's column says."""

    title = "estado"
    parameter_name = "estado"

    def lookups(self, request, model_admin):
        return [("activo", "Activo"), ("levantado", "Levantado"), ("terminado", "Terminado")]

    def queryset(self, request, queryset: QuerySet[BloqueoIngreso]):
        ahora = timezone.now()
        if self.value() == "activo":
            return queryset.activos()
        if self.value() == "levantado":
            return queryset.filter(levantado_en__isnull=False)
        if self.value() == "terminado":
            return queryset.filter(Q(levantado_en__isnull=True) & Q(hasta__lte=ahora))
        return queryset


def _corta(momento: datetime) -> str:
    """A date and time short enough for a list column (the detail shows the long form)."""
    return timezone.localtime(momento).strftime("%d/%m/%Y %H:%M")  # the admin's one style


@admin.register(BloqueoIngreso)
class BloqueoIngresoAdmin(admin.ModelAdmin):
    """Locks of accounts for unknown browsers: shown, never edited; an administrator ends one."""

    # Seven columns that fit at 1280 px; the number of failures and the times are in the detail.
    list_display = ("cuenta", "usuario", "inicio", "fin", "estado", "avisado", "levantado_por")
    list_filter = (EstadoBloqueo, "desde")
    list_select_related = ("usuario", "levantado_por")
    search_fields = ("cuenta", "usuario__username", "usuario__email")
    date_hierarchy = "desde"
    actions = ("levantar",)
    fields = (
        "cuenta",
        "usuario",
        "desde",
        "hasta",
        "estado",
        "fallos",
        "avisado_en",
        "levantado_en",
        "levantado_por",
        "desbloqueado_en",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a lock opens only by failed sign-ins

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        # The list's action needs "change"; an episode itself is evidence, never edited.
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description="estado")
    def estado(self, obj: BloqueoIngreso) -> str:
        return obj.estado

    @admin.display(description="desde", ordering="desde")
    def inicio(self, obj: BloqueoIngreso) -> str:
        return _corta(obj.desde)

    @admin.display(description="hasta", ordering="hasta")
    def fin(self, obj: BloqueoIngreso) -> str:
        return _corta(obj.hasta)

    @admin.display(description="avisado", boolean=True)
    def avisado(self, obj: BloqueoIngreso) -> bool:
        return obj.avisado_en is not None

    @admin.action(description="Levantar el bloqueo", permissions=["change"])
    def levantar(self, request: HttpRequest, queryset: QuerySet[BloqueoIngreso]) -> None:
        n = bloqueos.levantar(bloqueos=queryset, por=request.user)
        if n:
            texto = "Se levantó 1 bloqueo." if n == 1 else f"Se levantaron {n} bloqueos."
            self.message_user(request, texto, messages.SUCCESS)
        else:
            self.message_user(request, "Ninguno de los elegidos estaba activo.", messages.WARNING)
