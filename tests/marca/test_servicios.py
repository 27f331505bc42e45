"""Brand writes: the model's validators decide, for the admin and any other caller alike."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from apps.marca import services
from apps.marca.models import DEFAULTS, Marca

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("color", ["#12345", "azul", "#12345G", "", "#1234567"])
def test_an_invalid_colour_is_refused_and_nothing_is_saved(color):
    with pytest.raises(ValidationError) as exc:
        services.actualizar_marca(cambios={"nombre": "Otro", "color_primario": color})
    assert "color_primario" in exc.value.message_dict
    marca = Marca.cargar()  # the failed write left no row behind: defaults
    assert marca.nombre == DEFAULTS["nombre"]
    assert marca.color_primario == DEFAULTS["color_primario"]


def test_colours_are_stored_in_upper_case():
    marca = services.actualizar_marca(cambios={"color_acento": "#a1b2c3"})
    assert Marca.objects.get(pk=marca.pk).color_acento == "#A1B2C3"


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValidationError) as exc:
        services.actualizar_marca(cambios={"modo": "otro"})
    assert "modo" in exc.value.message_dict


@pytest.mark.parametrize(
    "frases",
    ["una frase", ["ok", ""], ["ok", 3], ["x" * 161], [f"f{i}" for i in range(9)]],
)
def test_invalid_phrases_are_refused(frases):
    with pytest.raises(ValidationError) as exc:
        services.actualizar_marca(cambios={"login_bullets": frases})
    assert "login_bullets" in exc.value.message_dict


def test_an_unknown_field_is_refused():
    with pytest.raises(ValidationError) as exc:
        services.actualizar_marca(cambios={"version": "abc"})
    assert exc.value.message_dict == {"version": ["Campo no permitido."]}


def test_an_invalid_contact_email_and_site_are_refused():
    with pytest.raises(ValidationError) as exc:
        services.actualizar_marca(
            cambios={"contacto_correo": "no-es-correo", "contacto_sitio": "javascript:alert(1)"}
        )
    assert set(exc.value.message_dict) == {"contacto_correo", "contacto_sitio"}


def test_the_brand_is_a_single_row():
    services.actualizar_marca(cambios={"nombre": "Uno"})
    services.actualizar_marca(cambios={"nombre": "Dos"})
    assert list(Marca.objects.values_list("pk", "nombre")) == [(1, "Dos")]
