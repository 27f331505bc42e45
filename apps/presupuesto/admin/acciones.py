"""The budget admin's actions: the reason bar beside them and actions run through the services."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib.admin.helpers import ActionForm
from django.http import HttpRequest

from apps.presupuesto.services import ErrorPresupuesto
from hub.administracion.acciones import AccionesDeServicio, Operacion


class FormularioAccionMotivo(ActionForm):
    """The action bar with the reason and external number some actions need."""

    motivo = forms.CharField(label="Motivo", required=False, max_length=2000)
    numero_externo = forms.CharField(
        label="Número en el sistema financiero", required=False, max_length=30
    )


# A refused document is reported as an error beside the others' "Hecho: n." summary.
ACCIONES = AccionesDeServicio(rechazos=ErrorPresupuesto)


def accion(descripcion: str, operacion: Operacion, hecho: str) -> Callable:
    """A budget action: it changes what it touches, so it needs the change permission."""
    return ACCIONES.accion(descripcion, operacion, hecho, permisos=["change"])


def motivo(request: HttpRequest) -> str:
    """The reason typed in the action bar (empty when none)."""
    return request.POST.get("motivo", "")
