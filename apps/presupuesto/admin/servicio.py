"""Budget admin screens whose objects a service creates, tried first as a dry run."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db import transaction
from django.db.models import Model

from apps.presupuesto.services import ErrorPresupuesto
from hub.busqueda.columnas import filtrar_texto


class _Ensayo(Exception):
    """Raised to roll back a dry run of a service."""


class FormularioServicio(forms.ModelForm):
    """An add form whose object is created by a service, tried in clean() as a dry run.

    The dry run runs the real service inside a savepoint that is always rolled back, so the
    form shows exactly the errors the service would raise; save_model then runs it for real.
    """

    def crear(self) -> Model:  # pragma: no cover - each form defines it
        raise NotImplementedError

    def clean(self):
        datos = super().clean()
        if self.errors or self.instance.pk:
            return datos
        try:
            with transaction.atomic():
                self.crear()
                raise _Ensayo
        except _Ensayo:
            pass
        except ErrorPresupuesto as exc:
            poner_errores(self, exc)
        return datos


def poner_errores(form: forms.Form, exc: ErrorPresupuesto) -> None:
    """Attach a service error to the form's fields when it names them, else to the form."""
    if hasattr(exc, "error_dict"):
        for campo, errores in exc.message_dict.items():
            form.add_error(campo if campo in form.fields else None, errores)
    else:
        form.add_error(None, exc.messages)


class AdminServicio(admin.ModelAdmin):
    """Objects are created through the form's service; existing ones change only by actions."""

    action_form = None  # set per admin when its actions need a reason

    def get_form(self, request, obj=None, change=False, **kwargs):
        # The service records who created the object (the form's `crear` reads it).
        form = super().get_form(request, obj, change, **kwargs)
        form.usuario = request.user
        return form

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        creado = form.crear()
        obj.__dict__.update(creado.__dict__)

    def has_delete_permission(self, request, obj=None) -> bool:
        # Budget documents are annulled, never deleted (their numbers and signatures stay).
        return False

    def get_search_results(self, request, queryset, search_term):
        """Accent- and case-insensitive search on the normalized column."""
        if not search_term:
            return queryset, False
        return filtrar_texto(queryset, search_term), False
