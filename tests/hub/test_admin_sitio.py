"""The admin as people meet it: the organization's brand, Spanish that agrees with each model's
name, plain titles, singletons as forms, lower-case months and no favicon 404."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms import JSONField

from apps.calidad.models import Proceso
from apps.cuentas.models import Area
from apps.mcp.models import RegistroAuditoria
from hub.administracion import gramatica
from tests.factories import UserFactory
from tests.marca.factories import cambiar_marca, png, poner_imagen

pytestmark = pytest.mark.django_db


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_s", is_staff=True, is_superuser=True))
    return client


def test_every_admin_page_carries_the_brand_name_logo_colours_and_favicon(administra):
    cambiar_marca(nombre="IDGP en línea", color_primario="#0B4F6C", color_acento="#F2A541")
    poner_imagen("logo", png())
    html = administra.get("/admin/").content.decode()
    assert "<title>Administración | IDGP en línea</title>" in html
    assert re.search(r'<span class="marca-admin-logo"><img src="[^"]*/marca/archivo/logo\?v=', html)
    assert "--header-bg: #0B4F6C;" in html and "--accent: #F2A541;" in html
    assert '<link rel="icon" href="/favicon.ico?v=' in html
    assert "/static/hub/admin.css" in html
    assert "Administración del hub" not in html and "Django" not in html


def test_the_admin_sign_in_page_is_branded_too(client):
    cambiar_marca(nombre="IDGP en línea", color_primario="#0B4F6C")
    poner_imagen("favicon", png())
    html = client.get("/admin/login/").content.decode()
    assert "IDGP en línea" in html and "--header-bg: #0B4F6C;" in html
    assert re.search(
        r'<link rel="icon" href="[^"]*/marca/archivo/favicon\?v=[0-9a-f]+" type="image/png">', html
    )


def test_admin_pages_are_under_the_strict_policy_with_their_style_nonce(administra):
    r = administra.get("/admin/")
    nonce = re.search(r"'nonce-([^']+)'", r["Content-Security-Policy"]).group(1)
    assert f'<style nonce="{nonce}">' in r.content.decode()


def test_the_list_title_is_the_plural_name_not_a_select_to_change(administra):
    html = administra.get("/admin/mcp/claveapi/").content.decode()
    assert "<h1>Claves de API</h1>" in html
    assert "Escoja" not in html and "Seleccione" not in html


def test_the_left_menu_is_off_so_lists_keep_the_width(administra):
    html = administra.get("/admin/mcp/claveapi/").content.decode()
    assert 'id="nav-sidebar"' not in html


@pytest.mark.parametrize(
    ("ruta", "destino"),
    [
        ("/admin/mcp/ajustesasistente/", "/admin/mcp/ajustesasistente/1/change/"),
        ("/admin/hub/limites/", "/admin/hub/limites/1/change/"),
        ("/admin/marca/marca/", "/admin/marca/marca/1/change/"),
    ],
)
def test_singletons_open_their_form_directly_with_no_add_nor_delete(administra, ruta, destino):
    r = administra.get(ruta)
    assert r.status_code == 302 and r["Location"] == destino
    formulario = administra.get(destino).content.decode()
    assert 'class="deletelink"' not in formulario
    assert administra.get(ruta + "add/").status_code == 403
    assert administra.get(destino.replace("change", "delete")).status_code == 403


def test_a_singleton_saved_stays_on_its_form_with_a_message_that_agrees(administra):
    url = "/admin/hub/limites/1/change/"
    administra.get(url)
    datos = {
        "global_por_minuto": "900",
        "marca_por_minuto": "600",
        "verificacion_por_minuto": "60",
        "contacto_por_10_minutos": "3",
        "contacto_por_dia": "20",
    }
    r = administra.post(url, datos)
    assert r.status_code == 302 and r["Location"] == url
    html = administra.get(url).content.decode()
    assert "Los límites de uso se guardaron correctamente." in html
    assert "<h2>Límites de uso</h2>" not in html  # the name is not repeated under the title


def test_staff_without_permission_cannot_open_a_singleton(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get("/admin/hub/limites/").status_code == 403


def test_adding_a_feminine_model_says_la_or_el_before_a_stressed_a(administra):
    r = administra.post(
        "/admin/cuentas/area/add/", {"nombre": "Grupo de Archivo", "sigla": "GA", "activa": "on"}
    )
    html = administra.get(r["Location"]).content.decode()
    area = Area.objects.get(sigla="GA")
    assert (
        f'El área «<a href="/admin/cuentas/area/{area.pk}/change/">GA · Grupo de Archivo</a>» '
        "se agregó correctamente."
    ) in html


def test_adding_another_and_continuing_agree_with_the_gender(administra):
    r = administra.post(
        "/admin/calidad/proceso/add/",
        {"sigla": "GTH", "nombre": "Talento humano", "categoria": "apoyo", "_addanother": "1"},
        follow=True,
    )
    html = r.content.decode()
    assert "se agregó correctamente. Puede agregar otro proceso a continuación." in html
    proceso = Proceso.objects.get(sigla="GTH")
    r = administra.post(
        f"/admin/calidad/proceso/{proceso.pk}/change/",
        {"sigla": "GTH", "nombre": "Gestión humana", "categoria": "apoyo", "_continue": "1"},
        follow=True,
    )
    assert "El proceso «" in r.content.decode()
    assert "se guardó correctamente. Puede seguir editándolo abajo." in r.content.decode()


def test_deleting_agrees_with_the_gender(administra):
    proceso = Proceso.objects.create(sigla="X", nombre="Proceso X")
    r = administra.post(
        f"/admin/calidad/proceso/{proceso.pk}/delete/", {"post": "yes"}, follow=True
    )
    assert "El proceso «X · Proceso X» se eliminó correctamente." in r.content.decode()


def test_months_are_written_in_lower_case(administra):
    RegistroAuditoria.objects.create(
        herramienta="estado_cdp",
        resultado="ok",
        credencial="token_personal",
        creado=datetime(2026, 3, 5, 15, tzinfo=UTC),
    )
    html = administra.get("/admin/mcp/registroauditoria/?creado__year=2026&creado__month=3").content
    assert "5 de marzo" in html.decode()
    assert "Marzo" not in html.decode()


def test_djangos_own_messages_use_usted():
    with pytest.raises(ValidationError) as error:
        JSONField().clean("{no es json")
    assert error.value.messages == ["Ingrese un JSON válido."]


def test_every_model_in_the_admin_declares_its_grammatical_gender():
    modelos = set(admin.site._registry)
    for modelo_admin in admin.site._registry.values():
        modelos |= {i.model for i in modelo_admin.inlines}
    declarados = gramatica.FEMENINOS | gramatica.MASCULINOS
    faltan = sorted(m._meta.label_lower for m in modelos if m._meta.label_lower not in declarados)
    assert faltan == []
    assert not gramatica.FEMENINOS & gramatica.MASCULINOS
    existentes = {m._meta.label_lower for m in apps.get_models()}
    assert declarados | gramatica.SOLO_PLURAL <= existentes


@pytest.mark.parametrize(
    ("etiqueta", "esperado"),
    [
        ("marca.marca", "la marca"),
        ("mcp.claveapi", "la clave de API"),
        ("mcp.tokenpersonal", "el token personal"),
        ("mcp.ajustesasistente", "los ajustes del asistente"),
        ("cuentas.area", "el área"),
    ],
)
def test_names_take_their_article(etiqueta, esperado):
    assert gramatica.nombre(apps.get_model(etiqueta)._meta).con_articulo == esperado


def test_a_new_user_is_announced_with_what_comes_next(administra):
    r = administra.post(
        "/admin/cuentas/user/add/",
        {"username": "nuevo", "password1": "Clave-larga-2026!", "password2": "Clave-larga-2026!"},
        follow=True,
    )
    html = r.content.decode()
    assert "El usuario «" in html
    assert "se agregó correctamente. Puede seguir editándolo abajo." in html
