"""Content-Security-Policy: every HTML page has the strict policy with a fresh nonce; JSON answers
do not need it; a policy chosen by the view (brand images, API docs) is kept."""

from __future__ import annotations

import re
import uuid

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import include, path

from apps.marca.models import Marca
from hub import urls as raiz
from tests.factories import UserFactory
from tests.marca.factories import png, poner_imagen, svg
from tests.solicitudes.conftest import flujo  # noqa: F401 - fixture used by the detail page

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

PATRON = re.compile(
    r"^default-src 'self'; script-src 'self' 'nonce-(?P<n>[A-Za-z0-9_-]{24})'; "
    r"style-src 'self' 'nonce-(?P=n)'; img-src 'self' data:; font-src 'self'; "
    r"connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; "
    r"form-action 'self'$"
)
CSP_PROPIA = "default-src 'none'; script-src 'self' 'unsafe-inline'"


def _falla(request):
    raise RuntimeError("falla de prueba")


def _csp_propia(request):
    return HttpResponse("<p>docs</p>", headers={"Content-Security-Policy": CSP_PROPIA})


urlpatterns = [
    path("prueba-html/falla", _falla),
    path("prueba-html/csp-propia", _csp_propia),
    path("", include(raiz)),
]
handler400 = raiz.handler400
handler403 = raiz.handler403
handler404 = raiz.handler404
handler500 = raiz.handler500


def _persona(client, **kwargs):
    usuario = UserFactory(**kwargs)
    client.force_login(usuario)
    return usuario


def _staff(client):
    return _persona(client, is_staff=True, is_superuser=True)


def _ingreso(client, datos):
    return "/cuentas/login/"


def _perfil(client, datos):
    _persona(client, permisos=["mcp.asistente.usar"])
    return "/cuentas/perfil/"


def _verificacion(client, datos):
    return f"/presupuesto/verificar/{uuid.uuid4()}"


def _verificacion_malformada(client, datos):
    return "/presupuesto/verificar/no-es-un-codigo"


def _solicitud(client, datos):
    s = datos.radicar()
    client.force_login(datos.solicitante)
    return s.enlace


def _admin_ingreso(client, datos):
    return "/admin/login/"


def _admin_inicio(client, datos):
    _staff(client)
    return "/admin/"


def _admin_marca(client, datos):
    _staff(client)
    return f"/admin/marca/marca/{Marca.cargar().pk}/change/"


def _admin_auditoria(client, datos):
    _staff(client)
    return "/admin/mcp/registroauditoria/"


def _no_encontrada(client, datos):
    return "/no-existe/"


def _error_interno(client, datos):
    client.raise_request_exception = False
    return "/prueba-html/falla"


PAGINAS = {
    "ingreso": (_ingreso, 200),
    "perfil": (_perfil, 200),
    "verificacion de firma": (_verificacion, 404),
    "verificacion con codigo malformado": (_verificacion_malformada, 404),
    "detalle de solicitud": (_solicitud, 200),
    "admin ingreso": (_admin_ingreso, 200),
    "admin inicio": (_admin_inicio, 200),
    "admin editor de marca": (_admin_marca, 200),
    "admin auditoria del asistente": (_admin_auditoria, 200),
    "pagina no encontrada": (_no_encontrada, 404),
    "error interno": (_error_interno, 500),
}


@pytest.mark.parametrize("nombre", list(PAGINAS))
def test_every_html_page_carries_the_strict_policy(client, flujo, nombre):  # noqa: F811
    preparar, estado = PAGINAS[nombre]
    r = client.get(preparar(client, flujo))
    assert r.status_code == estado
    assert r["Content-Type"].startswith("text/html")
    assert PATRON.match(r["Content-Security-Policy"]), r["Content-Security-Policy"]


def test_inline_style_blocks_carry_the_nonce_of_their_own_answer(client):
    primera = client.get("/cuentas/login/")
    segunda = client.get("/cuentas/login/")
    nonces = [PATRON.match(r["Content-Security-Policy"])["n"] for r in (primera, segunda)]
    assert nonces[0] != nonces[1]
    for r, nonce in zip((primera, segunda), nonces, strict=True):
        html = r.content.decode()
        assert html.count("<style") == html.count(f'<style nonce="{nonce}">') == 2
        assert "<script>" not in html and " onclick=" not in html and " style=" not in html


def test_the_profile_page_has_no_inline_script_and_loads_the_copy_button_from_static(client):
    _perfil(client, None)
    r = client.post(
        "/cuentas/perfil/",
        {
            "accion": "crear",
            "nombre": "Portátil",
            "dias": 30,
            "areas": ["solicitudes", "presupuesto", "calidad"],
        },
    )
    html = client.get(r["Location"]).content.decode()
    assert 'data-copiar="valor-token"' in html
    assert '<script src="/static/hub/copiar.js" defer></script>' in html
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
    assert " onclick=" not in html and " style=" not in html


def test_the_page_showing_a_new_api_key_copies_it_without_inline_handlers(admin_client):
    r = admin_client.post(
        "/admin/mcp/claveapi/add/",
        {"nombre": "Integración", "vence_0": "", "vence_1": ""},
        follow=True,
    )
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="clave-api"' in html
    assert PATRON.match(r["Content-Security-Policy"])
    assert 'data-copiar="clave-api"' in html
    assert " onclick=" not in html
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []


def test_the_brand_editor_previews_images_without_style_attributes(admin_client):
    poner_imagen("logo", png())
    r = admin_client.get(f"/admin/marca/marca/{Marca.cargar().pk}/change/")
    html = r.content.decode()
    assert 'class="marca-vista-previa"' in html
    assert "/static/marca/admin.css" in html
    assert " style=" not in html


def test_the_csrf_failure_page_carries_the_policy():
    r = Client(enforce_csrf_checks=True).post("/cuentas/login/", {"username": "x"})
    assert r.status_code == 403
    assert PATRON.match(r["Content-Security-Policy"])


@pytest.mark.parametrize(
    "ruta",
    ["/auth/api/v1/ping", "/auth/api/v1/auth/marca", "/salud/", "/auth/api/v1/no-existe"],
)
def test_json_answers_do_not_carry_it(client, ruta):
    r = client.get(ruta)
    assert not r["Content-Type"].startswith("text/html")
    assert "Content-Security-Policy" not in r


def test_the_mcp_endpoint_answers_without_it(client):
    r = client.post("/mcp/api/mcp", data="{}", content_type="application/json")
    assert r["Content-Type"].startswith("application/json")
    assert "Content-Security-Policy" not in r


def test_a_policy_set_by_the_view_wins(client):
    r = client.get("/prueba-html/csp-propia")
    assert r["Content-Security-Policy"] == CSP_PROPIA


def test_the_brand_image_keeps_its_sandbox_policy(client):
    poner_imagen("logo", svg())
    r = client.get("/auth/api/v1/auth/marca/archivo/logo")
    assert r.status_code == 200
    assert r["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'; sandbox"


def test_django_debug_pages_are_left_alone_because_they_are_inline(client, settings):
    settings.DEBUG = True
    settings.HUB_DEBUG_TECNICO = True  # the technical pages, for a developer
    r = client.get("/no-existe/")
    assert r.status_code == 404
    assert "Content-Security-Policy" not in r
    settings.DEBUG = False
    assert PATRON.match(client.get("/no-existe/")["Content-Security-Policy"])


def test_the_branded_error_pages_under_debug_keep_the_policy(client, debug_de_la_demo):
    r = client.get("/no-existe/")
    assert r.status_code == 404
    assert PATRON.match(r["Content-Security-Policy"])
