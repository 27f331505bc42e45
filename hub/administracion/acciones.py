"""Admin actions that apply a service to the selected objects and say how it went.

An app's admin declares each action in one statement with these helpers instead of repeating
the loop, the refusal messages and the summary; one object's actions are buttons on its page
that lead to a confirmation page (AdminConAcciones). Only Django is imported here, so the admin of
any app can use it without an import circle.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

# What an action does to one selected object: (model admin, request, object) → anything.
Operacion = Callable[[admin.ModelAdmin, HttpRequest, Model], object]


def texto_rechazo(exc: Exception) -> str:
    """A service's refusal in one line (every message of a ValidationError, joined)."""
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc)


def _hechos(hecho: str, cuantos: int) -> str:
    return f"{hecho}: {cuantos}."


@dataclass(frozen=True)
class AccionesDeServicio:
    """How one app's admin actions run its services: which refusals they report, and how.

    `rechazos` are the service errors reported per object (anything else is a bug and
    propagates); `resumen(hecho, cuantos)` is the success message; `orden`, when given, is
    the order the objects are taken in.
    """

    rechazos: type[Exception] | tuple[type[Exception], ...]
    nivel_rechazo: int = messages.ERROR
    resumen: Callable[[str, int], str] = _hechos
    orden: Sequence[str] = ()

    def aplicar(
        self,
        modeladmin: admin.ModelAdmin,
        request: HttpRequest,
        objetos: QuerySet | Iterable[Model],
        operacion: Callable[[Model], object],
        hecho: str,
    ) -> None:
        """Apply `operacion` to each object; report each refusal and then how many succeeded."""
        if self.orden:
            objetos = objetos.order_by(*self.orden)
        cuantos = 0
        for objeto in objetos:
            try:
                operacion(objeto)
            except self.rechazos as exc:
                mensaje = f"{objeto}: {texto_rechazo(exc)}"
                modeladmin.message_user(request, mensaje, self.nivel_rechazo)
            else:
                cuantos += 1
        if cuantos:
            modeladmin.message_user(request, self.resumen(hecho, cuantos), messages.SUCCESS)

    def accion(
        self,
        descripcion: str,
        operacion: Operacion,
        hecho: str,
        *,
        permisos: Sequence[str] | None = None,
    ) -> Callable:
        """An admin action (a class attribute of the ModelAdmin) that applies `operacion`."""

        def accion(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet):
            self.aplicar(
                modeladmin,
                request,
                queryset,
                lambda objeto: operacion(modeladmin, request, objeto),
                hecho,
            )

        return admin.action(description=descripcion, permissions=permisos)(accion)


def accion_masiva(
    descripcion: str,
    operacion: Callable[[admin.ModelAdmin, HttpRequest, QuerySet], int],
    resumen: Callable[[int], str],
    *,
    permisos: Sequence[str] | None = None,
    aviso: str | None = None,
) -> Callable:
    """An admin action whose service takes the whole selection at once and says how many.

    With `aviso` (what the action cannot undo), it first shows the selection and the warning on
    a confirmation page, and runs only when that page is sent back.
    """

    def accion(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet):
        if aviso is not None and request.POST.get("confirmado") != "si":
            contexto = {
                **modeladmin.admin_site.each_context(request),
                "opts": modeladmin.opts,
                "title": f"{descripcion}: ¿confirma?",
                "subtitle": None,
                "aviso": aviso,
                "descripcion": descripcion,
                "objetos": queryset,
                "accion": request.POST.get("action", ""),
                "casilla": admin.helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/acciones/confirmar_masiva.html", contexto)
        cuantos = operacion(modeladmin, request, queryset)
        modeladmin.message_user(request, resumen(cuantos), messages.SUCCESS)
        return None

    return admin.action(description=descripcion, permissions=permisos)(accion)


@dataclass(frozen=True)
class AccionDeObjeto:
    """A button on one object's admin page that asks for confirmation, then runs a service.

    `operacion(request, objeto, datos)` is the service call (`datos`: the confirmation form's
    cleaned data, empty without a form); `formulario` asks for what the service needs (a
    reason); `disponible(objeto)` hides the button where it no longer applies (already
    revoked); `permiso` is the model admin's permission the person needs ("change").
    """

    nombre: str
    boton: str
    titulo: str
    aviso: str
    operacion: Callable[[HttpRequest, Model, dict], object]
    hecho: str
    disponible: Callable[[Model], bool] = lambda objeto: True
    formulario: type[forms.Form] | None = None
    permiso: str = "change"
    rechazos: tuple[type[Exception], ...] = (ValidationError,)
    confirmar: str = "Confirmar"


class AdminConAcciones(admin.ModelAdmin):
    """A model admin whose change page shows `acciones_objeto` as buttons (object tools)."""

    acciones_objeto: Sequence[AccionDeObjeto] = ()
    change_form_template = "admin/acciones/change_form.html"

    def get_urls(self):
        opts = self.opts
        propias = [
            path(
                f"<path:object_id>/{accion.nombre}/",
                self.admin_site.admin_view(functools.partial(self.accion_view, accion=accion)),
                name=f"{opts.app_label}_{opts.model_name}_{accion.nombre}",
            )
            for accion in self.acciones_objeto
        ]
        return propias + super().get_urls()

    def puede(self, request: HttpRequest, accion: AccionDeObjeto) -> bool:
        """Whether the person holds the permission the action needs (on the model)."""
        return getattr(self, f"has_{accion.permiso}_permission")(request)

    def botones(self, request: HttpRequest, objeto: Model) -> list[tuple[AccionDeObjeto, str]]:
        """The actions this person may take on this object now, with their addresses."""
        opts = self.opts
        return [
            (
                accion,
                reverse(
                    f"admin:{opts.app_label}_{opts.model_name}_{accion.nombre}",
                    args=[quote(objeto.pk)],
                    current_app=self.admin_site.name,
                ),
            )
            for accion in self.acciones_objeto
            if accion.disponible(objeto) and self.puede(request, accion)
        ]

    def render_change_form(
        self, request: HttpRequest, context, add=False, change=False, form_url="", obj=None
    ):
        # The object Django already read for the page: its buttons cost no second read.
        context["acciones_objeto"] = self.botones(request, obj) if obj is not None else []
        return super().render_change_form(request, context, add, change, form_url, obj)

    def accion_view(self, request: HttpRequest, object_id: str, accion: AccionDeObjeto):
        """GET: what will happen, and the reason when one is needed. POST: do it, once."""
        objeto = self.get_object(request, unquote(object_id))
        if objeto is None:
            raise Http404("No existe ese registro.")
        if not self.puede(request, accion):
            raise PermissionDenied
        opts = self.opts
        pagina = reverse(
            f"admin:{opts.app_label}_{opts.model_name}_change",
            args=[quote(objeto.pk)],
            current_app=self.admin_site.name,
        )
        if not accion.disponible(objeto):
            self.message_user(request, f"{objeto}: ya no aplica.", messages.WARNING)
            return HttpResponseRedirect(pagina)
        datos = request.POST if request.method == "POST" else None
        form = accion.formulario(datos) if accion.formulario else None
        if request.method == "POST" and (form is None or form.is_valid()):
            try:
                accion.operacion(request, objeto, form.cleaned_data if form else {})
            except accion.rechazos as exc:
                if form is None:
                    self.message_user(request, texto_rechazo(exc), messages.ERROR)
                    return HttpResponseRedirect(pagina)
                form.add_error(None, texto_rechazo(exc))
            else:
                self.log_change(request, objeto, accion.hecho)
                self.message_user(request, f"{objeto}: {accion.hecho}", messages.SUCCESS)
                return HttpResponseRedirect(pagina)
        contexto = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "title": accion.titulo,
            "subtitle": None,
            "objeto": objeto,
            "accion": accion,
            "form": form,
            "pagina": pagina,
        }
        return TemplateResponse(request, "admin/acciones/confirmar.html", contexto)
