"""The admin site: the organization's brand, Spanish that agrees, singletons opened as forms,
and the same throttled sign-in and sign-out as the staff pages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import PermissionDenied
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst

from hub.administracion import gramatica
from hub.administracion.nulos import sin_nulos

if TYPE_CHECKING:  # not at import: this module loads with the settings, before the apps
    from django.contrib.auth.views import LogoutView

Vista = Callable[..., HttpResponse]


def fecha_corta(valor, formato: str = "%d/%m/%Y %H:%M", *, solo_dia: bool = False) -> str:
    """A date, or a moment in local time, for a list column ("19/11/2026 18:46"): the style of
    the staff pages and of the admin's formats (hub.formatos)."""
    if not valor:
        return "—"
    if isinstance(valor, datetime):
        texto = timezone.localtime(valor).strftime("%d/%m/%Y" if solo_dia else formato)
    else:
        texto = valor.strftime("%d/%m/%Y")
    return format_html('<span class="nowrap">{}</span>', texto)


def columna_fecha(campo: str, descripcion: str, *, solo_dia: bool = False) -> Callable:
    """A list column (a model admin's method) with the date `campo` written short."""

    @admin.display(description=descripcion, ordering=campo)
    def columna(modeladmin, obj) -> str:
        return fecha_corta(getattr(obj, campo), solo_dia=solo_dia)

    return columna


def columna_corta(campo: str, descripcion: str, maximo: int, *, ordenar: bool = True) -> Callable:
    """A list column (a model admin's method) with the text `campo` cut to `maximo` characters."""

    @admin.display(description=descripcion, ordering=campo if ordenar else None)
    def columna(modeladmin, obj) -> str:
        texto = getattr(obj, campo)
        return texto if len(texto) <= maximo else texto[: maximo - 1] + "…"

    return columna


def columna_de(ruta: str, descripcion: str) -> Callable:
    """A list column (a model admin's method) with the value at `ruta` across relations
    ("area__sigla" is the area's acronym), sorted by it. The admin selects the related rows
    (`list_select_related`), or each row costs a query."""
    campos = ruta.split(LOOKUP_SEP)

    @admin.display(description=descripcion, ordering=ruta)
    def columna(modeladmin, obj):
        valor = obj
        for campo in campos:
            if valor is None:  # an empty relation on the way: the admin's "—"
                return None
            valor = getattr(valor, campo)
        return valor

    return columna


def con_titulo(base: type[admin.ListFilter], titulo: str) -> type[admin.ListFilter]:
    """A field's list filter under a title that reads well after Django's "Por" ("Por fecha de
    firma", not "Por firmado en"; "Por corrección", not "Por es corrección")."""

    class Titulado(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.title = titulo

    Titulado.__name__ = f"{base.__name__}Titulado"
    return Titulado


class AdminEspanol(admin.ModelAdmin):
    """Titles in plain Spanish and save/delete messages that agree with the model's name."""

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        # "Claves de API" rather than the catalogue's "Escoja clave de API a modificar".
        contexto = {
            "title": capfirst(self.opts.verbose_name_plural),
            "columnas_ocultas_telefono": self.ocultas_en_telefono(request),
            **(extra_context or {}),
        }
        return super().changelist_view(request, contexto)

    def ocultas_en_telefono(self, request: HttpRequest) -> list[str]:
        """The list's columns a phone does not show: all but the model admin's
        `columnas_telefono` (its key columns; templates/admin/change_list.html hides the others
        below 768 px). Read with getattr: this class comes first in every admin's MRO, so a
        default here would hide the admin's own value."""
        claves = getattr(self, "columnas_telefono", ())
        if not claves:
            return []
        return [c for c in self.get_list_display(request) if isinstance(c, str) and c not in claves]

    def view_on_site(self, obj) -> str | None:
        """ "Ver en el sitio" on the change page of a record that has a page on the site."""
        return getattr(obj, "enlace", None) or None

    def render_change_form(
        self, request: HttpRequest, context, add=False, change=False, form_url="", obj=None
    ):
        # A record with nothing to edit (every field read-only, no editable inline) is shown
        # without "Guardar" buttons that would save nothing.
        if change and not add and not self.hay_que_editar(context):
            context.update(
                show_save=False, show_save_and_continue=False, show_save_and_add_another=False
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    @staticmethod
    def hay_que_editar(context) -> bool:
        """Whether the change page holds any editable field or inline."""
        formulario = context.get("adminform")
        if formulario is not None and formulario.form.fields:
            return True
        return any(
            f.has_add_permission or f.has_change_permission or f.has_delete_permission
            for f in context.get("inline_admin_formsets", [])
        )

    def response_add(self, request: HttpRequest, obj, post_url_continue=None) -> HttpResponse:
        enlace = None
        if self.has_change_permission(request, obj):
            enlace = reverse(
                f"admin:{self.opts.app_label}_{self.opts.model_name}_change",
                args=[obj.pk],
                current_app=self.admin_site.name,
            )
        request._hub_guardado = ("agregar", obj, enlace)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request: HttpRequest, obj) -> HttpResponse:
        request._hub_guardado = ("cambiar", obj, request.path)
        return super().response_change(request, obj)

    def response_delete(self, request: HttpRequest, obj_display: str, obj_id) -> HttpResponse:
        request._hub_guardado = ("eliminar", obj_display, None)
        return super().response_delete(request, obj_display, obj_id)

    def message_user(self, request, message, level=messages.INFO, *args, **kwargs) -> None:
        # Django's own success message of the save or delete just made is replaced by ours,
        # written when Django writes its own: by then POST says what comes next (UserAdmin, for
        # one, turns a plain "save" of a new user into "save and continue").
        guardado = getattr(request, "_hub_guardado", None)
        if guardado is not None and level == messages.SUCCESS:
            request._hub_guardado = None
            accion, objeto, enlace = guardado
            message = gramatica.mensaje_guardado(
                self.opts,
                accion,
                objeto,
                enlace=enlace,
                seguir=accion != "eliminar" and "_continue" in request.POST,
                otro=accion != "eliminar" and "_addanother" in request.POST,
            )
        super().message_user(request, message, level, *args, **kwargs)


class AdminUnico(admin.ModelAdmin):
    """A singleton (`hub.cache.singleton.ModeloUnico`): its list opens the one form; no add, no
    delete."""

    change_form_template = "admin/unico/change_form.html"

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        fila = self.model.fila()
        return HttpResponseRedirect(
            reverse(
                f"admin:{self.opts.app_label}_{self.opts.model_name}_change",
                args=[fila.pk],
                current_app=self.admin_site.name,
            )
        )

    def response_post_save_change(self, request: HttpRequest, obj) -> HttpResponse:
        return HttpResponseRedirect(request.path)  # back to the one form, not to a list

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the single row is created on first read

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class SitioAdmin(admin.AdminSite):
    """The admin under the brand (templates/admin/base_site.html draws it)."""

    site_header = "Administración"
    site_title = "Administración"
    index_title = "Administración"
    # The left menu took a quarter of a 1280 px screen from every list; the index lists all.
    enable_nav_sidebar = False
    # One mark for an empty cell everywhere (Django's default is "-"; the hub writes "—").
    empty_value_display = "—"
    # How people sign in and leave belongs to the accounts app, which sets these at start from its
    # admin.py (as every app registers its models here); hub names no app. Unset: Django's own.
    login_form = None
    limitar_ingreso: Callable[[Vista], Vista] | None = None
    vista_salida: type[LogoutView] | None = None

    def register(self, model_or_iterable, admin_class=None, **options) -> None:
        """Every model admin speaks the same Spanish (AdminEspanol), including Django's own."""
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, AdminEspanol):
            admin_class = type(
                admin_class.__name__,
                (AdminEspanol, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)

    def admin_view(self, view: Vista, cacheable: bool = False) -> Vista:
        """Every admin view (lists, forms, the apps' own admin pages) behind the NUL guard."""
        return super().admin_view(sin_nulos(view), cacheable)

    def login(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        vista = super().login
        if self.limitar_ingreso is not None:
            vista = self.limitar_ingreso(vista)
        return vista(request, extra_context)

    def logout(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        if self.vista_salida is None:
            return super().logout(request, extra_context)
        siguiente = reverse("admin:login", current_app=self.name)
        return self.vista_salida.as_view(next_page=siguiente)(request)


class AdminHubConfig(AdminConfig):
    """django.contrib.admin with SitioAdmin as the default site."""

    default_site = "hub.administracion.sitio.SitioAdmin"
