"""Filed form fields: identity documents and contact data never reach the public selector."""

from __future__ import annotations

import pytest

from apps.solicitudes import selectors
from apps.solicitudes.errores import DatosInvalidos
from apps.solicitudes.models import CampoFormulario

pytestmark = pytest.mark.django_db

CAMPOS = [
    {"nombre": "objeto", "etiqueta": "Objeto", "valor": "Compra de papelería"},
    {"nombre": "numero_documento", "etiqueta": "Cédula", "valor": "1032456789"},
    {"nombre": "telefono", "etiqueta": "Teléfono", "valor": "3104567890"},
    {"nombre": "correo_respuesta", "etiqueta": "Correo", "valor": "ana@correo.com"},
    {"nombre": "direccion", "etiqueta": "Dirección", "valor": "Calle 1 # 2-3"},
    {"nombre": "observaciones", "etiqueta": "Observaciones", "valor": "Escribir a ana@correo.com"},
    {"nombre": "reservado", "etiqueta": "Reservado", "valor": "Historia clínica", "sensible": True},
    {"nombre": "vacio", "etiqueta": "Vacío", "valor": ""},
    {"nombre": "justificacion", "etiqueta": "Justificación", "valor": "Inicio de vigencia"},
]  # fmt: skip


def test_public_fields_leave_out_sensitive_and_empty_ones(flujo):
    s = flujo.radicar(campos=CAMPOS)
    assert selectors.campos_publicos(s) == [
        {"nombre": "objeto", "etiqueta": "Objeto", "valor": "Compra de papelería"},
        {"nombre": "justificacion", "etiqueta": "Justificación", "valor": "Inicio de vigencia"},
    ]
    sensibles = set(s.campos.filter(sensible=True).values_list("nombre", flat=True))
    assert sensibles == {
        "numero_documento",
        "telefono",
        "correo_respuesta",
        "direccion",
        "observaciones",
        "reservado",
    }


def test_no_sensitive_value_appears_anywhere_in_the_public_answer(flujo):
    s = flujo.radicar(campos=CAMPOS)
    texto = repr(selectors.campos_publicos(s))
    for secreto in ("1032456789", "3104567890", "ana@correo.com", "Calle 1", "clínica"):
        assert secreto not in texto


@pytest.mark.parametrize(
    ("nombre", "valor"),
    [
        ("telefono2", "3104567890"),
        ("celular1", "3001112233"),
        ("documento2", "52789456"),
        ("doc_identidad", "1032456789"),
        ("identidad", "CC 1032456789"),
    ],
)
def test_a_numbered_or_identity_named_field_is_sensitive_too(flujo, nombre, valor):
    # Forms often number repeated contacts (telefono2) or say "identidad": a filer forgetting
    # the flag must not get the number into a summary all the same.
    s = flujo.radicar(campos=[{"nombre": nombre, "valor": valor}])
    assert s.campos.get().sensible is True
    assert selectors.campos_publicos(s) == []
    assert CampoFormulario.parece_sensible(nombre, valor) is True


def test_an_explicit_false_does_not_unmark_a_document_field(flujo):
    s = flujo.radicar(campos=[{"nombre": "cedula", "valor": "52789456", "sensible": False}])
    assert s.campos.get().sensible is True
    assert selectors.campos_publicos(s) == []


def test_fields_keep_their_order_and_get_a_label(flujo):
    s = flujo.radicar(campos={"fecha_inicio": "2026-12-01", "destino": "Cali"})
    assert list(s.campos.values_list("orden", "nombre", "etiqueta")) == [
        (0, "fecha_inicio", "Fecha inicio"),
        (1, "destino", "Destino"),
    ]


def test_the_public_queryset_matches_the_selector(flujo):
    s = flujo.radicar(campos=CAMPOS)
    publicos = CampoFormulario.objects.publicos().filter(solicitud=s)
    assert [c.nombre for c in publicos] == ["objeto", "justificacion"]


@pytest.mark.parametrize(
    "campos",
    [
        [{"nombre": "Con espacios", "valor": "x"}],
        [{"nombre": "a", "valor": "x"}, {"nombre": "a", "valor": "y"}],
        [{"nombre": "", "valor": "x"}],
        ["no es un objeto"],
    ],
)
def test_malformed_fields_are_refused_before_anything_is_stored(flujo, campos):
    with pytest.raises(DatosInvalidos) as error:
        flujo.radicar(campos=campos)
    assert all(clave.startswith("campos.") for clave in error.value.campos)
    assert CampoFormulario.objects.count() == 0
