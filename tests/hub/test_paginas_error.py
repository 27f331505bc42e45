"""Branded Spanish error pages for people (DEBUG off, as in tests); /api/ keeps the envelope."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.marca.models import Marca
from hub.http import paginas_error
from hub.models import Limites
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hub.urls_paginas")]


@pytest.fixture(autouse=True)
def marca():
    m = Marca.cargar()
    m.nombre = "Alcaldía de Villa Esperanza"
    m.color_primario = "#7A1F5C"
    m.save()
    Marca.olvidar()
    return m


@pytest.fixture
def cliente():
    return Client(raise_request_exception=False)


def _html(r) -> str:
    assert r["Content-Type"] == "text/html; charset=utf-8"
    return r.content.decode()


def _con_marca_y_salida(texto: str, titulo: str) -> None:
    assert f"<title>{titulo} · Alcaldía de Villa Esperanza</title>" in texto
    assert "--color-primario: #7A1F5C;" in texto
    assert '<html lang="es">' in texto
    assert 'href="/">Ir al inicio</a>' in texto


def test_a_missing_page_is_branded_spanish_with_a_way_back(cliente):
    r = cliente.get("/no-existe/")
    assert r.status_code == 404
    texto = _html(r)
    _con_marca_y_salida(texto, "Página no encontrada")
    assert "no existe o no está disponible para usted" in texto
    assert "Ingresar" in texto  # anonymous: offered to sign in
    nonce = r["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<style nonce="{nonce}">' in texto


def test_a_signed_in_person_sees_their_name_and_no_sign_in_button(cliente):
    cliente.force_login(UserFactory(first_name="Paula", last_name="Herrera"))
    texto = _html(cliente.get("/no-existe/"))
    assert "Paula Herrera" in texto
    assert ">Ingresar<" not in texto


def test_a_forbidden_page_is_branded_403(cliente):
    r = cliente.get("/prueba/prohibida")
    assert r.status_code == 403
    texto = _html(r)
    _con_marca_y_salida(texto, "Sin permiso")
    assert "No tiene permiso para ver esta página" in texto


def test_an_internal_error_is_branded_500_without_the_detail(cliente):
    r = cliente.get("/prueba/rota")
    assert r.status_code == 500
    texto = _html(r)
    _con_marca_y_salida(texto, "Ocurrió un error")
    assert "detalle-interno" not in texto
    assert r["X-Request-ID"] in texto  # the code support can look up


def test_a_429_raised_by_a_page_is_a_page_with_its_retry_after(cliente):
    r = cliente.get("/prueba/limitada")
    assert r.status_code == 429
    assert r["Retry-After"] == "17"
    texto = _html(r)
    _con_marca_y_salida(texto, "Demasiadas solicitudes")
    assert "Espere <strong>17 segundos</strong>" in texto


def test_the_global_limit_answers_a_page_to_people_and_the_envelope_to_apis(cliente):
    limites = Limites.cargar()
    limites.global_por_minuto = 2
    limites.save()
    for _ in range(2):
        cliente.get("/calidad/api/v1/ping")
    pagina = cliente.get("/no-existe/")
    assert pagina.status_code == 429
    assert "Demasiadas solicitudes" in _html(pagina)
    assert int(pagina["Retry-After"]) >= 1
    api = cliente.get("/calidad/api/v1/ping")
    assert api.status_code == 429
    assert api.json()["error"]["code"] == "RATE_LIMIT"


def test_a_form_without_its_csrf_token_gets_the_branded_csrf_page():
    cliente = Client(enforce_csrf_checks=True)
    r = cliente.post("/cuentas/login/", {"username": "x", "password": "y"})
    assert r.status_code == 403
    texto = _html(r)
    _con_marca_y_salida(texto, "El formulario venció")
    assert "recárguela" in texto


@pytest.mark.parametrize(
    ("ruta", "status", "codigo"),
    [
        ("/prueba/api/v1/no-hay", 404, "NO_ENCONTRADO"),
        ("/prueba/api/v1/prohibida", 403, "SIN_PERMISO"),
        ("/prueba/api/v1/rota", 500, "ERROR_INTERNO"),
        ("/presupuesto/api/v1/nada", 404, "NO_ENCONTRADO"),
    ],
)
def test_api_paths_keep_the_json_envelope(cliente, ruta, status, codigo):
    r = cliente.get(ruta)
    assert r.status_code == status
    assert r["Content-Type"] == "application/json"
    assert r.json()["error"]["code"] == codigo


def test_if_the_page_itself_cannot_be_drawn_a_plain_one_answers(cliente, monkeypatch):
    def falla(*args, **kwargs):
        raise RuntimeError("la base no responde")

    monkeypatch.setattr(paginas_error, "render_to_string", falla)
    r = cliente.get("/prueba/rota")
    assert r.status_code == 500
    texto = _html(r)
    assert "<h1>Ocurrió un error</h1>" in texto
    assert 'href="/">Ir al inicio</a>' in texto
    nonce = r["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<style nonce="{nonce}">' in texto


def test_without_debug_django_handles_exceptions_with_its_own_function():
    """The branded pages under DEBUG replace a Django internal: production must not run it."""
    from django.core.handlers import exception

    assert exception.response_for_exception.__module__ == "django.core.handlers.exception"


def test_with_debug_the_replacement_keeps_djangos_own_function_underneath():
    """If Django renames or drops response_for_exception, the DEBUG pages stop here, visibly."""
    from django.core.handlers import exception

    paginas_error.instalar()
    try:
        assert exception.response_for_exception is paginas_error.respuesta_de_excepcion
    finally:
        paginas_error.desinstalar()
    assert exception.response_for_exception.__module__ == "django.core.handlers.exception"
