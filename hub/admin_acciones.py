"""Admin actions that apply a service to the selected objects and say how it went.

An app's admin declares each action in one statement with these helpers instead of repeating
the loop, the refusal messages and the summary. Only Django is imported here, so the admin of
any app can use it without an import circle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest

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
) -> Callable:
    """An admin action whose service takes the whole selection at once and says how many."""

    def accion(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet):
        cuantos = operacion(modeladmin, request, queryset)
        modeladmin.message_user(request, resumen(cuantos), messages.SUCCESS)

    return admin.action(description=descripcion, permissions=permisos)(accion)
