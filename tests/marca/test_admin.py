"""The brand's admin screen: one row, colour pickers, phrases per line, images with previews."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.marca.colores import contraste
from apps.marca.imagenes import TAMANO_MAXIMO
from apps.marca.models import DEFAULTS, ImagenMarca, Marca
from tests.factories import UserFactory
from tests.marca.factories import URL_MARCA, png, poner_imagen, svg
from tests.marca.formulario_admin import CAMBIO, formulario_marca

pytestmark = pytest.mark.django_db


def test_the_list_goes_straight_to_the_single_brand(admin_client):
    r = admin_client.get("/admin/marca/marca/")
    assert r.status_code == 302
    assert r["Location"] == CAMBIO
    assert Marca.objects.count() == 1


def test_the_form_has_colour_pickers_a_mode_select_phrases_and_upload_fields(admin_client):
    Marca.cargar()
    html = admin_client.get(CAMBIO).content.decode()
    # The hex value, editable, beside the browser's swatch (which carries no name).
    for campo, valor in (("primario", "#1F4E79"), ("acento", "#2E9E6B")):
        assert re.search(
            rf'<input type="color" value="{valor.lower()}" tabindex="-1" aria-hidden="true" '
            rf'data-muestra-de="id_color_{campo}"><input type="text" name="color_{campo}" '
            rf'value="{valor}"',
            html,
        )
    assert html.count('name="color_primario"') == 1  # the swatch only helps; the text is sent
    assert '<select name="modo"' in html
    assert 'value="marca_blanca"' in html
    frases = re.search(r'<textarea name="login_bullets"[^>]*>(.*?)</textarea>', html, re.S)
    assert frases.group(1).strip().splitlines() == DEFAULTS["login_bullets"]
    for slot in ("logo", "isotipo", "favicon"):
        assert f'<input type="file" name="{slot}_archivo"' in html
        assert f'<input type="checkbox" name="{slot}_quitar"' in html
    assert "Sin imagen" in html


def test_an_svg_preview_is_an_img_pointing_at_the_endpoint_never_inline(admin_client):
    poner_imagen("logo", svg("#ABCDEF"))
    version = admin_client.get(URL_MARCA).json()["data"]["version"]
    html = admin_client.get(CAMBIO).content.decode()
    assert f'<img src="/auth/api/v1/auth/marca/archivo/logo?v={version}"' in html
    assert "#ABCDEF" not in html


def test_saving_the_form_publishes_the_brand_with_phrases_one_per_line(admin_client):
    Marca.cargar()
    r = admin_client.post(CAMBIO, formulario_marca())
    assert r.status_code == 302
    data = admin_client.get(URL_MARCA).json()["data"]
    assert data["modo"] == "comarca"
    assert data["nombre"] == "IDGP en línea"
    assert data["color_primario"] == "#0B4F6C"
    assert data["color_acento"] == "#F2A541"
    assert data["login_bullets"] == ["Radique solicitudes.", "Consulte su presupuesto."]
    assert data["es_default"] is False


@pytest.mark.parametrize("color", ["#12345", "rojo", "#GGGGGG", "#1234567", "12"])
def test_an_invalid_colour_is_refused_with_a_spanish_error(admin_client, color):
    Marca.cargar()
    r = admin_client.post(CAMBIO, formulario_marca(color_acento=color))
    assert r.status_code == 200
    assert "Use un color hexadecimal de la forma #RRGGBB." in r.content.decode()
    assert Marca.objects.get().color_acento == DEFAULTS["color_acento"]


@pytest.mark.parametrize(
    ("escrito", "guardado"), [("0b4f6c", "#0B4F6C"), (" #0b4f6c ", "#0B4F6C"), ("#abc", "#AABBCC")]
)
def test_a_hex_value_is_accepted_as_people_type_it(admin_client, escrito, guardado):
    Marca.cargar()
    assert admin_client.post(CAMBIO, formulario_marca(color_primario=escrito)).status_code == 302
    assert Marca.objects.get().color_primario == guardado


def test_a_primary_too_light_on_white_is_saved_with_a_warning_and_links_fall_back(admin_client):
    Marca.cargar()
    r = admin_client.post(CAMBIO, formulario_marca(color_primario="#FFD966"), follow=True)
    html = r.content.decode()
    assert 'class="warning"' in html
    assert "El color primario #FFD966 se lee poco sobre blanco (contraste 1,4:1" in html
    assert "usarán #" in html
    enlace = re.search(r"usarán (#[0-9A-F]{6})", html).group(1)
    assert contraste(enlace, "#FFFFFF") >= 4.5
    pagina = Client().get("/cuentas/login/").content.decode()
    assert f"--color-enlace: {enlace};" in pagina
    assert f"--hub-enlace: {enlace};" in admin_client.get("/admin/").content.decode()


def test_a_readable_primary_gets_no_warning_and_is_the_link_colour(admin_client):
    Marca.cargar()
    r = admin_client.post(CAMBIO, formulario_marca(color_primario="#0B4F6C"), follow=True)
    assert "se lee poco sobre blanco" not in r.content.decode()
    assert "--color-enlace: #0B4F6C;" in Client().get("/cuentas/login/").content.decode()


def test_saving_says_la_marca_with_its_name_once(admin_client):
    Marca.cargar()
    r = admin_client.post(CAMBIO, formulario_marca(nombre="IDGP en línea"), follow=True)
    html = r.content.decode()
    enlace = '<a href="/admin/marca/marca/1/change/">IDGP en línea</a>'
    assert f"La marca «{enlace}» se guardó correctamente." in html
    assert "El marca" not in html and "Marca: IDGP" not in html


def test_too_many_phrases_are_refused(admin_client):
    Marca.cargar()
    nueve = "\n".join(f"F{i}" for i in range(9))
    r = admin_client.post(CAMBIO, formulario_marca(login_bullets=nueve))
    assert r.status_code == 200
    assert "Escriba como máximo 8 frases." in r.content.decode()


def test_a_png_uploaded_with_an_svg_name_is_stored_as_png(admin_client):
    Marca.cargar()
    archivo = SimpleUploadedFile("logo.svg", png(), content_type="image/svg+xml")
    r = admin_client.post(CAMBIO, formulario_marca(logo_archivo=archivo))
    assert r.status_code == 302
    assert ImagenMarca.objects.get(slot="logo").tipo == "png"
    logo = admin_client.get("/auth/api/v1/auth/marca/archivo/logo")
    assert logo["Content-Type"] == "image/png"


def test_garbage_upload_is_refused_in_spanish_and_nothing_is_saved(admin_client):
    Marca.cargar()
    archivo = SimpleUploadedFile("logo.png", b"esto no es una imagen", content_type="image/png")
    r = admin_client.post(CAMBIO, formulario_marca(logo_archivo=archivo))
    assert r.status_code == 200
    assert "Formato no admitido" in r.content.decode()
    assert not ImagenMarca.objects.exists()
    assert Marca.objects.get().nombre == DEFAULTS["nombre"]


def test_an_upload_over_512_kb_is_refused(admin_client):
    Marca.cargar()
    grande = SimpleUploadedFile("f.png", png() + b"\0" * TAMANO_MAXIMO, content_type="image/png")
    r = admin_client.post(CAMBIO, formulario_marca(favicon_archivo=grande))
    assert r.status_code == 200
    assert "el máximo es 512 KB" in r.content.decode()
    assert not ImagenMarca.objects.exists()


def test_the_clear_checkbox_removes_an_image(admin_client):
    poner_imagen("isotipo", svg())
    r = admin_client.post(CAMBIO, formulario_marca(isotipo_quitar="on"))
    assert r.status_code == 302
    assert not ImagenMarca.objects.filter(slot="isotipo").exists()
    assert admin_client.get(URL_MARCA).json()["data"]["isotipo_url"] is None


def test_upload_and_clear_together_is_refused(admin_client):
    Marca.cargar()
    archivo = SimpleUploadedFile("i.svg", svg(), content_type="image/svg+xml")
    r = admin_client.post(CAMBIO, formulario_marca(isotipo_archivo=archivo, isotipo_quitar="on"))
    assert r.status_code == 200
    assert "no ambas" in r.content.decode()
    assert not ImagenMarca.objects.exists()


def test_there_is_no_add_and_no_delete(admin_client):
    Marca.cargar()
    assert admin_client.get("/admin/marca/marca/add/").status_code == 403
    assert admin_client.get("/admin/marca/marca/1/delete/").status_code == 403
    assert admin_client.post("/admin/marca/marca/1/delete/", {"post": "yes"}).status_code == 403
    assert Marca.objects.count() == 1


def test_staff_without_permission_cannot_open_the_brand(client):
    client.force_login(UserFactory(is_staff=True))
    Marca.cargar()
    assert client.get(CAMBIO).status_code == 403


def test_the_preview_draws_the_sign_in_page_with_unsaved_values(admin_client):
    Marca.cargar()
    r = admin_client.get(
        "/admin/marca/marca/vista-previa/",
        {
            "nombre": "Nombre nuevo",
            "login_titulo": "Bienvenida de prueba",
            "login_bullets": "Uno\n\nDos",
            "color_primario": "7a1f5c",
            "color_acento": "no-es-color",
            "modo": "marca_blanca",
        },
    )
    assert r.status_code == 200
    html = r.content.decode()
    assert "<h1>Bienvenida de prueba</h1>" in html
    assert "<li>Uno</li>" in html and "<li>Dos</li>" in html
    assert "--color-primario: #7A1F5C;" in html
    assert f"--color-acento: {DEFAULTS['color_acento']};" in html  # a bad value keeps the saved one
    assert "Con tecnología Hub" not in html
    assert '<fieldset disabled class="vista-previa">' in html
    assert "csrfmiddlewaretoken" not in html
    assert "frame-ancestors 'self'" in r["Content-Security-Policy"]
    assert r["X-Frame-Options"] == "SAMEORIGIN"
    assert Marca.objects.get().nombre == DEFAULTS["nombre"]  # nothing saved
    assert Client().get("/cuentas/login/")["X-Frame-Options"] == "DENY"


def test_the_editor_embeds_the_preview(admin_client):
    Marca.cargar()
    html = admin_client.get(CAMBIO).content.decode()
    assert '<iframe class="marca-vista-ingreso" src="/admin/marca/marca/vista-previa/"' in html
    assert "/static/marca/editor.js" in html


def test_only_staff_with_the_brand_permission_sees_the_preview(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get("/admin/marca/marca/vista-previa/").status_code == 403
    client.logout()
    assert client.get("/admin/marca/marca/vista-previa/").status_code == 302


def test_restore_defaults_asks_first_then_puts_back_the_hubs_brand(admin_client):
    Marca.cargar()
    admin_client.post(CAMBIO, formulario_marca())
    poner_imagen("logo", png())
    confirmar = admin_client.get("/admin/marca/marca/restaurar/")
    assert confirmar.status_code == 200
    assert "Quitar también el logo, el isotipo y el favicon" in " ".join(
        confirmar.content.decode().split()
    )
    assert Marca.objects.get().nombre == "IDGP en línea"
    r = admin_client.post("/admin/marca/marca/restaurar/")
    assert r.status_code == 302 and r["Location"] == CAMBIO
    data = admin_client.get(URL_MARCA).json()["data"]
    assert (
        data["nombre"] == DEFAULTS["nombre"]
        and data["color_primario"] == DEFAULTS["color_primario"]
    )
    assert data["login_bullets"] == DEFAULTS["login_bullets"]
    assert data["logo_url"] is not None  # images kept unless asked
    admin_client.post("/admin/marca/marca/restaurar/", {"quitar_imagenes": "si"})
    data = admin_client.get(URL_MARCA).json()["data"]
    assert data["logo_url"] is None and data["es_default"] is True


def test_restoring_needs_the_change_permission(client):
    Marca.cargar()
    client.force_login(UserFactory(is_staff=True, permisos=["marca.view_marca"]))
    assert client.post("/admin/marca/marca/restaurar/").status_code == 403
