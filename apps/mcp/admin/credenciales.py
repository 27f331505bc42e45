"""API keys (created here, the secret shown once after a redirect) and personal tokens."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from apps.mcp import areas, services
from apps.mcp.admin.columnas import insignia
from apps.mcp.entrega import Entrega
from apps.mcp.models import ClaveApi, Credencial, TokenPersonal
from hub.administracion.acciones import AccionDeObjeto, AdminConAcciones, accion_masiva
from hub.administracion.sitio import fecha_corta

# The secret of a new key waits for the "key created" page (cookie path: the keys' admin).
ENTREGA_CLAVE = Entrega("clave", "/admin/mcp/claveapi/")


class FiltroEstado(admin.SimpleListFilter):
    """Active, expired or revoked (and, for tokens, active but not usable by its owner)."""

    title = "estado"
    parameter_name = "estado"

    def lookups(self, request, model_admin):
        opciones = [("activo", "Activo"), ("vencido", "Vencido"), ("revocado", "Revocado")]
        if model_admin.model is TokenPersonal:
            opciones.append(("no_utilizable", "No utilizable (el usuario no tiene acceso)"))
        return opciones

    def queryset(self, request, queryset):
        ahora = timezone.now()
        vigentes = queryset.filter(revocado_en__isnull=True).exclude(vence__lte=ahora)
        if self.value() == "activo":
            if queryset.model is TokenPersonal:
                return vigentes.filter(usuario_con_acceso=True)
            return vigentes
        if self.value() == "vencido":
            return queryset.filter(revocado_en__isnull=True, vence__lte=ahora)
        if self.value() == "revocado":
            return queryset.filter(revocado_en__isnull=False)
        if self.value() == "no_utilizable":
            return vigentes.filter(usuario_con_acceso=False)
        return queryset


def insignia_estado(credencial: Credencial) -> str:
    return insignia(credencial.estado, credencial.estado)


class ClaveApiForm(forms.ModelForm):
    class Meta:
        model = ClaveApi
        fields = ("nombre", "vence")
        help_texts = {
            "vence": "Fecha y hora en que la clave deja de funcionar. Una clave nueva sin fecha "
            f"vence en {settings.HUB_CLAVE_API_DIAS} días."
        }

    def clean_vence(self):
        vence = self.cleaned_data.get("vence")
        # An expiry already passed would create a dead key (or silently kill one): revoke instead.
        if vence is not None and "vence" in self.changed_data and vence <= timezone.now():
            raise forms.ValidationError(
                "La fecha de vencimiento ya pasó: elija una fecha futura. "
                "Para dejar de usar una clave, revóquela."
            )
        return vence


def _vigente(credencial: Credencial) -> bool:
    return credencial.revocado_en is None


REVOCAR_CLAVE = AccionDeObjeto(
    nombre="revocar",
    boton="Revocar la clave",
    titulo="¿Revocar esta clave de API?",
    aviso=(
        "La integración que la usa deja de funcionar de inmediato: el asistente responde "
        "401 a cada llamada con esta clave. La revocación no se puede deshacer; la clave queda "
        "en la lista (y en la auditoría) como revocada."
    ),
    operacion=lambda request, clave, datos: services.revocar_claves(ids=[clave.pk]),
    hecho="clave revocada.",
    disponible=_vigente,
    confirmar="Sí, revocar la clave",
)
REVOCAR_TOKEN = AccionDeObjeto(
    nombre="revocar",
    boton="Revocar el token",
    titulo="¿Revocar este token personal?",
    aviso=(
        "Su dueño deja de poder usar el asistente con este token de inmediato (puede crear "
        "otro en su perfil si conserva el acceso). La revocación no se puede deshacer."
    ),
    operacion=lambda request, token, datos: services.revocar_tokens(ids=[token.pk]),
    hecho="token revocado.",
    disponible=_vigente,
    confirmar="Sí, revocar el token",
)


class CredencialAdmin(AdminConAcciones):
    """What keys and tokens share in the admin: revoked, never deleted; the visible prefix."""

    def has_delete_permission(self, request, obj=None):
        return False  # revoked, never deleted: the audit log points at them

    @admin.display(description="prefijo", ordering="prefijo")
    def prefijo_visible(self, obj: Credencial) -> str:
        return format_html("<code>{}…</code>", obj.prefijo)


def _ids(queryset) -> list[int]:
    return list(queryset.values_list("pk", flat=True))


def _revocadas(singular: str, plural: str) -> Callable[[int], str]:
    """The summary of a revocation: «Se revocó 1 clave.» / «Se revocaron 3 claves.»"""
    return lambda n: f"Se revocó 1 {singular}." if n == 1 else f"Se revocaron {n} {plural}."


@admin.register(ClaveApi)
class ClaveApiAdmin(CredencialAdmin):
    form = ClaveApiForm
    list_display = ("nombre", "prefijo_visible", "creada", "vence_el", "estado", "usada")
    columnas_telefono = ("nombre", "estado")
    list_filter = (FiltroEstado, "creado")
    search_fields = ("nombre", "prefijo")
    # A key is feminine: its dates say "creada", "revocada" (the shared fields say "creado").
    readonly_fields = ("prefijo", "creada", "creada_por", "revocada_el", "usada")
    actions = ("revocar",)
    acciones_objeto = (REVOCAR_CLAVE,)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("nombre", "vence")
        return ("nombre", "vence", "prefijo", "creada", "creada_por", "revocada_el", "usada")

    def get_changeform_initial_data(self, request: HttpRequest) -> dict:
        vence = timezone.localtime() + timedelta(days=settings.HUB_CLAVE_API_DIAS)
        return {
            "vence": vence.replace(second=0, microsecond=0),
            **super().get_changeform_initial_data(request),
        }

    @admin.display(description="creada", ordering="creado")
    def creada(self, obj: ClaveApi) -> str:
        return fecha_corta(obj.creado)

    @admin.display(description="revocada", ordering="revocado_en")
    def revocada_el(self, obj: ClaveApi) -> str:
        return fecha_corta(obj.revocado_en)

    @admin.display(description="vence", ordering="vence")
    def vence_el(self, obj: ClaveApi) -> str:
        return fecha_corta(obj.vence) if obj.vence else "no vence"

    @admin.display(description="estado")
    def estado(self, obj: ClaveApi) -> str:
        return insignia_estado(obj)

    @admin.display(description="último uso", ordering="ultimo_uso")
    def usada(self, obj: ClaveApi) -> str:
        return fecha_corta(obj.ultimo_uso) if obj.ultimo_uso else "nunca"

    def save_model(self, request, obj: ClaveApi, form, change):
        if not change:
            # Handed to the next page by response_add only; never stored in clear.
            request._clave_mcp_creada = services.preparar_clave_api(obj, creada_por=request.user)
        super().save_model(request, obj, form, change)

    def response_add(self, request: HttpRequest, obj: ClaveApi, post_url_continue=None):
        """Redirect to the "key created" page; the secret crosses the redirect split in two."""
        secreto = request._clave_mcp_creada
        response = HttpResponseRedirect(reverse("admin:mcp_claveapi_creada", args=[obj.pk]))
        ENTREGA_CLAVE.guardar(request, response, ident=obj.pk, secreto=secreto)
        return response

    def get_urls(self):
        propias = [
            path(
                "<int:pk>/creada/",
                self.admin_site.admin_view(self.creada_view),
                name="mcp_claveapi_creada",
            )
        ]
        return propias + super().get_urls()

    def creada_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """GET: the new key's secret, once; a reload says it was already shown."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        clave = ClaveApi.objects.filter(pk=pk).first()
        if clave is None:
            raise Http404("No existe esa clave.")
        pendiente = ENTREGA_CLAVE.pendiente(request)
        secreto = None
        if pendiente is not None and pendiente.ident == clave.pk:
            secreto = ENTREGA_CLAVE.revelar(request, pendiente, clave.digest)
        contexto = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "clave": clave,
            "secreto": secreto,
            "vence": fecha_corta(clave.vence) if clave.vence else None,
            "title": "Clave de API creada" if secreto else "Clave de API",
            "subtitle": None,  # every variable the admin base uses is set: none is logged
        }
        response = TemplateResponse(request, "mcp/admin/clave_creada.html", contexto)
        response["Cache-Control"] = "no-store"
        ENTREGA_CLAVE.cerrar(request, response)
        return response

    revocar = accion_masiva(
        "Revocar las claves seleccionadas",
        lambda modeladmin, request, claves: services.revocar_claves(ids=_ids(claves)),
        _revocadas("clave", "claves"),
        aviso=REVOCAR_CLAVE.aviso,
    )


@admin.register(TokenPersonal)
class TokenPersonalAdmin(CredencialAdmin):
    list_display = ("usuario", "nombre", "prefijo_visible", "vence_el", "estado", "usado")
    columnas_telefono = ("usuario", "nombre", "estado")
    list_filter = (FiltroEstado, "vence")
    list_select_related = ("usuario",)
    search_fields = ("usuario__username", "nombre", "prefijo")
    fields = (
        "usuario",
        "nombre",
        "prefijo",
        "creado",
        "vence",
        "alcance_areas",
        "estado",
        "revocado_en",
        "ultimo_uso",
        "ultima_ip",
    )
    readonly_fields = fields
    actions = ("revocar",)
    acciones_objeto = (REVOCAR_TOKEN,)

    @admin.display(description="áreas")
    def alcance_areas(self, obj: TokenPersonal) -> str:
        """The areas it reaches, chosen by its owner at creation (empty: every area)."""
        elegidas = areas.ordenadas(areas.de_lista(obj.areas.split()))
        return ", ".join(areas.AREAS[a][0] for a in elegidas)

    def get_queryset(self, request):
        return super().get_queryset(request).con_acceso_del_usuario()

    def has_add_permission(self, request):
        return False  # each person creates their own on the profile page

    @admin.display(description="vence", ordering="vence")
    def vence_el(self, obj: TokenPersonal) -> str:
        return fecha_corta(obj.vence)

    @admin.display(description="estado")
    def estado(self, obj: TokenPersonal) -> str:
        # A token whose owner lost assistant access (or was blocked) gets 403: not usable.
        if obj.estado == "activo" and not getattr(obj, "usuario_con_acceso", True):
            return insignia("no-utilizable", "no utilizable (sin acceso)")
        return insignia_estado(obj)

    @admin.display(description="último uso", ordering="ultimo_uso")
    def usado(self, obj: TokenPersonal) -> str:
        if obj.ultimo_uso is None:
            return "nunca"
        if not obj.ultima_ip:
            return fecha_corta(obj.ultimo_uso)
        return format_html("{}<br><small>{}</small>", fecha_corta(obj.ultimo_uso), obj.ultima_ip)

    revocar = accion_masiva(
        "Revocar los tokens seleccionados",
        lambda modeladmin, request, tokens: services.revocar_tokens(ids=_ids(tokens)),
        _revocadas("token", "tokens"),
        aviso=REVOCAR_TOKEN.aviso,
    )
