"""With DEBUG on (`make run`) people still get the branded Spanish error pages, never Django's
technical ones; HUB_DEBUG_TECNICO=true brings the technical pages back for a developer."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from apps.marca import demo as marca_demo
from apps.marca.models import Marca
from hub.demo import ContextoDemo
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hub.urls_paginas")]

TECNICA = ("Using the URLconf", "Traceback", "DEBUG = True", "Django tried these URL patterns")


@pytest.fixture(autouse=True)
def con_debug(settings):
    settings.DEBUG = True
    settings.HUB_DEBUG_TECNICO = False
    m = Marca.cargar()
    m.nombre = "Alcaldía de Villa Esperanza"
    m.save()
    Marca.olvidar()
    return settings


@pytest.fixture
def cliente():
    return Client(raise_request_exception=False)


def _marca(r, titulo: str) -> str:
    assert r["Content-Type"] == "text/html; charset=utf-8"
    texto = r.content.decode()
    assert f"<title>{titulo} · Alcaldía de Villa Esperanza</title>" in texto
    assert '<html lang="es">' in texto
    for pista in TECNICA:
        assert pista not in texto
    return texto


def test_an_unknown_path_is_the_branded_404_without_the_url_list(cliente):
    r = cliente.get("/no-existe/")
    assert r.status_code == 404
    texto = _marca(r, "Página no encontrada")
    assert "no existe o no está disponible para usted" in texto
    nonce = r["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<style nonce="{nonce}">' in texto  # the policy of every page, DEBUG or not
    assert "admin/" not in texto.replace('href="/admin/"', "")  # no pattern listed


def test_a_404_raised_by_a_view_is_the_branded_page_without_its_detail(cliente):
    cliente.force_login(UserFactory())
    r = cliente.get("/prueba/ausente")
    assert r.status_code == 404
    assert "detalle-interno-del-404" not in _marca(r, "Página no encontrada")


def test_a_request_the_person_may_not_see_is_the_branded_404(cliente):
    cliente.force_login(UserFactory())
    r = cliente.get("/solicitudes/999999")
    assert r.status_code == 404
    _marca(r, "Página no encontrada")


def test_an_internal_error_is_the_branded_500_and_the_traceback_goes_to_the_log(cliente, caplog):
    with caplog.at_level(logging.ERROR, logger="hub.errores"):
        r = cliente.get("/prueba/rota")
    assert r.status_code == 500
    texto = _marca(r, "Ocurrió un error")
    assert "detalle-interno-que-no-debe-salir" not in texto
    registro = [x for x in caplog.records if x.name == "hub.errores"]
    assert [x.getMessage() for x in registro] == ["error no controlado en GET /prueba/rota"]
    assert "detalle-interno-que-no-debe-salir" in str(registro[0].exc_info[1])


def test_a_bad_request_is_the_branded_400(cliente):
    r = cliente.get("/prueba/mala")
    assert r.status_code == 400
    assert "detalle-interno-de-la-peticion" not in _marca(r, "Solicitud no válida")


def test_a_forbidden_page_is_the_branded_403(cliente):
    r = cliente.get("/prueba/prohibida")
    assert r.status_code == 403
    _marca(r, "Sin permiso")


def test_api_paths_keep_the_json_envelope(cliente):
    r = cliente.get("/prueba/api/v1/rota")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "ERROR_INTERNO"
    r = cliente.get("/presupuesto/api/v1/nada")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "NO_ENCONTRADO"


def test_a_path_without_its_slash_is_still_redirected(cliente):
    r = cliente.get("/cuentas/login")
    assert r.status_code == 301
    assert r["Location"] == "/cuentas/login/"


def test_the_developer_flag_brings_the_technical_pages_back(cliente, con_debug):
    con_debug.HUB_DEBUG_TECNICO = True
    r = cliente.get("/no-existe/")
    assert r.status_code == 404
    assert "Django tried these URL patterns" in r.content.decode()
    r = cliente.get("/prueba/rota")
    assert r.status_code == 500
    assert "detalle-interno-que-no-debe-salir" in r.content.decode()


def test_without_debug_nothing_changes(cliente, con_debug):
    con_debug.DEBUG = False
    con_debug.HUB_DEBUG_TECNICO = True  # only means something with DEBUG
    r = cliente.get("/no-existe/")
    assert r.status_code == 404
    _marca(r, "Página no encontrada")


@pytest.mark.navegador
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_in_a_browser_the_demo_shows_the_branded_404(navegador, con_debug, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    UserFactory(username="limitado", first_name="Luis")
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/cuentas/login/?next=/presupuesto/cdp/999999")
    pagina.get_by_label("Usuario").fill("limitado")
    pagina.get_by_label("Contraseña", exact=True).fill("clave-de-prueba-123")
    with pagina.expect_response("**/presupuesto/cdp/999999") as llegada:
        pagina.get_by_role("button", name="Ingresar").click()
    assert llegada.value.status == 404
    assert pagina.get_by_role("heading", name="Página no encontrada").is_visible()
    texto = pagina.inner_text("body")
    for pista in TECNICA:
        assert pista not in texto
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"error_404_con_debug_{ancho}")
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
