"""Signing in lands on the home (the person's tasks) unless `next` says otherwise; staff find
the administration in the header of every page, other people do not."""

from __future__ import annotations

import pytest

from apps.marca import demo as marca_demo
from hub.operacion.demo import ContextoDemo
from tests.factories import UserFactory
from tests.navegador_csp import vigilar_csp
from tests.navegador_menu import abrir_menu
from tests.navegador_texto import ancho_de_pagina, capturar

pytestmark = pytest.mark.django_db

CLAVE = "clave-de-prueba-123"
LOGIN = "/cuentas/login/"
ENLACE_ADMIN = '<a href="/admin/">Administración</a>'


def test_signing_in_lands_on_the_home(client):
    UserFactory(username="camila")
    r = client.post(LOGIN, {"username": "camila", "password": CLAVE})
    assert r.status_code == 302
    assert r["Location"] == "/"


def test_a_safe_next_still_wins_over_the_home(client):
    UserFactory(username="camila")
    r = client.post(f"{LOGIN}?next=/cuentas/perfil/", {"username": "camila", "password": CLAVE})
    assert r.status_code == 302
    assert r["Location"] == "/cuentas/perfil/"


@pytest.mark.parametrize("ruta", ["/", "/cuentas/perfil/"])
def test_staff_see_the_admin_link_in_the_header(client, ruta):
    client.force_login(UserFactory(is_staff=True))
    r = client.get(ruta)
    assert r.status_code == 200
    assert ENLACE_ADMIN in r.content.decode()


@pytest.mark.parametrize("ruta", ["/", "/cuentas/perfil/"])
def test_people_without_staff_status_see_no_admin_link(client, ruta):
    client.force_login(UserFactory(is_staff=False))
    r = client.get(ruta)
    assert r.status_code == 200
    assert 'href="/admin/"' not in r.content.decode()


@pytest.mark.navegador
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_in_a_browser_staff_sign_in_to_their_tasks_and_reach_the_admin(navegador, ancho, alto):
    marca_demo.cargar(ContextoDemo())
    UserFactory(username="camila", first_name="Camila", is_staff=True)
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + LOGIN)
    pagina.get_by_label("Usuario").fill("camila")
    pagina.get_by_label("Contraseña", exact=True).fill(CLAVE)
    pagina.get_by_role("button", name="Ingresar").click()
    pagina.wait_for_url(pagina.base + "/")
    assert pagina.get_by_role("heading", name="Hola, Camila").is_visible()
    abrir_menu(pagina)
    enlace = pagina.locator("header.barra").get_by_role("link", name="Administración")
    assert enlace.is_visible()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"inicio_tras_ingresar_{ancho}")
    enlace.click()
    pagina.wait_for_url("**/admin/")
    pagina.wait_for_load_state("networkidle")
    assert violaciones == []
