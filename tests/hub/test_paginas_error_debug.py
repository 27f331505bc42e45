"""With DEBUG on (`make run`) people still get the branded Spanish error pages, never Django's
technical ones; HUB_DEBUG_TECNICO=true brings the technical pages back for a developer."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from apps.marca import demo as marca_demo
from apps.marca.models import Marca
from hub.operacion.demo import ContextoDemo
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.hub.urls_paginas")]

TECNICA = ("Using the URLconf", "Traceback", "DEBUG = True", "Django tried these URL patterns")


@pytest.fixture(autouse=True)
def con_debug(debug_de_la_demo):
    m = Marca.cargar()
    m.nombre = "Alcaldía de Villa Esperanza"
    m.save()
    Marca.olvidar()
    return debug_de_la_demo


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
    with caplog.at_level(logging.ERROR, logger="django.request"):
        r = cliente.get("/prueba/rota")
    assert r.status_code == 500
    texto = _marca(r, "Ocurrió un error")
    assert "detalle-interno-que-no-debe-salir" not in texto
    registro = [x for x in caplog.records if x.name == "django.request"]  # as in production
    assert [x.getMessage() for x in registro] == ["Internal Server Error: /prueba/rota"]
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


# Errors raised before any view (inside a middleware, by the resolver or by process_view) reach
# Django's response_for_exception directly: under DEBUG it drew its technical page.


@pytest.mark.parametrize("debug", [True, False])
def test_a_host_not_allowed_is_the_branded_400(cliente, con_debug, debug, caplog):
    con_debug.DEBUG = debug
    with caplog.at_level(logging.ERROR, logger="hub.errores"):
        r = cliente.get("/", HTTP_HOST="atacante.example")
    assert r.status_code == 400
    texto = _marca(r, "Solicitud no válida")  # the brand's page, not the plain fallback
    for pista in ("DisallowedHost", "ALLOWED_HOSTS", "atacante.example"):
        assert pista not in texto
    assert [x for x in caplog.records if x.name == "hub.errores"] == []


@pytest.mark.parametrize("debug", [True, False])
def test_a_post_to_a_path_without_its_slash_is_redirected_as_in_production(
    cliente, con_debug, debug
):
    con_debug.DEBUG = debug
    r = cliente.post("/cuentas/login?next=/x", {"username": "a"})
    assert r.status_code == 301
    assert r["Location"] == "/cuentas/login/?next=/x"


def test_a_post_with_too_many_fields_is_the_branded_400(con_debug):
    con_debug.DATA_UPLOAD_MAX_NUMBER_FIELDS = 3
    cliente = Client(raise_request_exception=False, enforce_csrf_checks=True)
    cliente.cookies["csrftoken"] = "a" * 32  # so CSRF gets as far as reading the form
    r = cliente.post("/cuentas/login/", {f"c{i}": "x" for i in range(10)})
    assert r.status_code == 400  # CsrfViewMiddleware reads the body in process_view
    assert "TooManyFieldsSent" not in _marca(r, "Solicitud no válida")


class _Falla:
    """A middleware that raises what its request asks for (before any view runs)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.core.exceptions import BadRequest, PermissionDenied
        from django.http import Http404

        errores = {
            "404": Http404("detalle-interno-del-404"),
            "403": PermissionDenied("detalle-interno"),
            "400": BadRequest("detalle-interno-de-la-peticion"),
            "500": RuntimeError("detalle-interno-que-no-debe-salir"),
        }
        if (que := request.GET.get("falla")) in errores:
            raise errores[que]
        return self.get_response(request)


@pytest.mark.parametrize(
    ("falla", "status", "titulo"),
    [
        ("404", 404, "Página no encontrada"),
        ("403", 403, "Sin permiso"),
        ("400", 400, "Solicitud no válida"),
        ("500", 500, "Ocurrió un error"),
    ],
)
@pytest.mark.parametrize("donde", ["primero", "ultimo"])
def test_an_error_raised_inside_a_middleware_is_the_branded_page(
    con_debug, falla, status, titulo, donde
):
    falla_mw = f"{__name__}._Falla"
    mw = list(con_debug.MIDDLEWARE)
    con_debug.MIDDLEWARE = [falla_mw, *mw] if donde == "primero" else [*mw, falla_mw]
    cliente = Client(raise_request_exception=False)
    r = cliente.get(f"/cuentas/login/?falla={falla}")
    assert r.status_code == status
    texto = r.content.decode()
    assert f"<title>{titulo}" in texto
    for pista in (*TECNICA, "detalle-interno"):
        assert pista not in texto


def test_an_error_raised_inside_a_middleware_under_api_keeps_the_envelope(con_debug):
    con_debug.MIDDLEWARE = [*con_debug.MIDDLEWARE, f"{__name__}._Falla"]
    r = Client(raise_request_exception=False).get("/prueba/api/v1/rota?falla=404")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "NO_ENCONTRADO"


def test_the_developer_flag_brings_the_technical_400_of_a_bad_host_back(cliente, con_debug):
    con_debug.HUB_DEBUG_TECNICO = True
    r = cliente.get("/", HTTP_HOST="atacante.example")
    assert r.status_code == 400
    assert "DisallowedHost" in r.content.decode()
