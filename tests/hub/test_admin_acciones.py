"""hub.administracion.acciones: an action applies a service to each object and reports what it
refused."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.core.exceptions import ValidationError

from hub.administracion.acciones import AccionesDeServicio, accion_masiva


class _Admin:
    """Just what the helper uses of a ModelAdmin: message_user."""

    def __init__(self):
        self.mensajes: list[tuple[int, str]] = []

    def message_user(self, request, mensaje, nivel):
        self.mensajes.append((nivel, mensaje))


def _operacion(objeto):
    if objeto == "mal":
        raise ValidationError(["No se puede.", "Tampoco así."])
    if objeto == "roto":
        raise KeyError(objeto)


def test_each_refusal_is_reported_with_every_message_and_the_rest_are_counted():
    modeladmin = _Admin()
    acciones = AccionesDeServicio(rechazos=ValidationError)
    acciones.aplicar(modeladmin, None, ["uno", "mal", "dos"], _operacion, "Hechos")
    assert modeladmin.mensajes == [
        (messages.ERROR, "mal: No se puede. Tampoco así."),
        (messages.SUCCESS, "Hechos: 2."),
    ]


def test_no_summary_when_nothing_was_done_and_the_app_chooses_level_and_wording():
    modeladmin = _Admin()
    acciones = AccionesDeServicio(
        rechazos=ValidationError,
        nivel_rechazo=messages.WARNING,
        resumen=lambda hecho, cuantos: f"{cuantos} cosa(s) {hecho}.",
    )
    acciones.aplicar(modeladmin, None, ["mal"], _operacion, "hechas")
    assert modeladmin.mensajes == [(messages.WARNING, "mal: No se puede. Tampoco así.")]
    acciones.aplicar(modeladmin, None, ["uno"], _operacion, "hechas")
    assert modeladmin.mensajes[-1] == (messages.SUCCESS, "1 cosa(s) hechas.")


def test_an_error_that_is_not_a_refusal_is_a_bug_and_propagates():
    with pytest.raises(KeyError):
        AccionesDeServicio(rechazos=ValidationError).aplicar(
            _Admin(), None, ["uno", "roto"], _operacion, "Hechos"
        )


def test_the_action_carries_its_description_and_permissions():
    accion = AccionesDeServicio(rechazos=ValueError).accion(
        "Hacer algo", lambda modeladmin, request, o: None, "Hechos", permisos=["change"]
    )
    assert (accion.short_description, accion.allowed_permissions) == ("Hacer algo", ["change"])
    sin_permisos = AccionesDeServicio(rechazos=ValueError).accion("Otra", lambda *a: None, "x")
    assert not hasattr(sin_permisos, "allowed_permissions")


def test_a_bulk_action_reports_what_its_service_counted():
    modeladmin = _Admin()
    accion = accion_masiva(
        "Marcar", lambda m, request, qs: len(qs), lambda n: f"{n} marcado(s).", permisos=["change"]
    )
    accion(modeladmin, None, ["a", "b", "c"])
    assert modeladmin.mensajes == [(messages.SUCCESS, "3 marcado(s).")]
    assert (accion.short_description, accion.allowed_permissions) == ("Marcar", ["change"])
