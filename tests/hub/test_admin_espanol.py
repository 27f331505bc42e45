"""Every admin page in correct Spanish: each registered model's list, add and change pages are
walked with a superuser over the demo data, and none shows the slips people met (unaccented
"area", Django's gender-blind "areas elegidos", English permission names, "por Instituto…")."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from hub.administracion.permisos import nombre_permiso
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# What finding 5 of issue 26 saw, as regular expressions over the visible text of a page.
DESLICES = [
    r"\b[Aa]reas?\b",  # "Areas:", "Por area": the noun without its accent
    r"\w+ Disponibles\b",  # "areas Disponibles": a capital mid-phrase
    r"\belegidos\b",
    r"Seleccionar todos \w",
    r"\bCan (add|change|delete|view)\b",
    r"registrada por (?!el |la |los |las |la entidad)[A-ZÁÉÍÓÚ]",
    r"\bPor (es|requiere|firmado en|recibido)\b",  # filter titles that do not read after "Por"
]


def texto_visible(contenido: str) -> str:
    """The text a person reads: no scripts, styles or tags; entities decoded."""
    sin_codigo = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", contenido)
    return html.unescape(re.sub(r"<[^>]+>", " ", sin_codigo))


def deslices(contenido: str) -> list[str]:
    texto = texto_visible(contenido)
    return [m.group(0) for patron in DESLICES for m in re.finditer(patron, texto, re.S)]


@pytest.fixture
def demo(db):
    call_command("demo_data", stdout=io.StringIO(), stderr=io.StringIO())


@pytest.fixture
def superusuario(client):
    usuario = UserFactory(username="raiz_es", is_staff=True, is_superuser=True)
    client.force_login(usuario)
    return usuario


def _paginas(superusuario) -> list[str]:
    """The list, add and first change page of every registered model admin."""
    peticion = RequestFactory().get("/admin/")
    peticion.user = superusuario
    rutas = []
    for modelo, modelo_admin in admin.site._registry.items():
        opts = modelo._meta
        base = f"admin:{opts.app_label}_{opts.model_name}"
        rutas.append(reverse(f"{base}_changelist"))
        if modelo_admin.has_add_permission(peticion):
            rutas.append(reverse(f"{base}_add"))
        objeto = modelo_admin.get_queryset(peticion).order_by("pk").first()
        if objeto is not None:
            rutas.append(reverse(f"{base}_change", args=[objeto.pk]))
    return rutas


def test_no_admin_list_add_or_change_page_shows_a_spanish_slip(demo, superusuario, client):
    encontrados = {}
    rutas = _paginas(superusuario)
    assert len(rutas) > 60  # every model, most with a demo object
    for ruta in rutas:
        respuesta = client.get(ruta, follow=True)
        assert respuesta.status_code == 200, ruta
        hallados = deslices(respuesta.content.decode())
        # One mark for an empty cell: "—", never Django's "-" beside it.
        hallados += re.findall(
            r'<(?:td|th|div) class="(?:field-[\w-]+|readonly)[^"]*">\s*-\s*</',
            respuesta.content.decode(),
        )
        if hallados:
            encontrados[ruta] = hallados
    assert encontrados == {}


def test_the_slip_detector_sees_each_slip_people_met():
    for pagina in (
        "<label>Areas:</label>",
        "<h3>Por area</h3>",
        "<p>Can add log entry</p>",
        "<p>registrada por Instituto Distrital</p>",
    ):
        assert deslices(pagina), pagina
    assert deslices("<label>Áreas:</label> <a href='/admin/cuentas/area/'>áreas</a>") == []


def test_no_permission_of_any_model_keeps_its_english_name(demo):
    assert (
        list(Permission.objects.filter(name__startswith="Can ").values_list("name", flat=True))
        == []
    )
    assert (
        Permission.objects.get(codename="add_logentry").name == "Puede agregar entradas de registro"
    )
    assert Permission.objects.get(codename="view_area").name == "Puede ver áreas"
    assert Permission.objects.get(codename="delete_session").name == "Puede eliminar sesiones"


def test_a_permission_name_is_built_from_the_plural_so_it_agrees_with_any_gender():
    assert nombre_permiso("change", "claves de API") == "Puede cambiar claves de API"
    assert nombre_permiso("view", "tokens personales") == "Puede ver tokens personales"


def test_the_user_page_names_areas_with_their_accent_and_its_chooser_agrees(superusuario, client):
    contenido = client.get(
        reverse("admin:cuentas_user_change", args=[superusuario.pk])
    ).content.decode()
    assert 'data-field-name="áreas"' in contenido
    assert "Áreas:" in texto_visible(contenido)
    with translation.override("es-co"):
        peticion = RequestFactory().get("/admin/jsi18n/")
        catalogo = JavaScriptCatalog.as_view(packages=["django.contrib.admin"])(peticion)
    textos = json.loads(
        re.search(r"const newcatalog = (\{.*?\});", catalogo.content.decode(), re.S)[1]
    )
    assert {clave: textos[clave] for clave in SELECTOR} == SELECTOR


# The two-box chooser's texts (SelectFilter2.js) take the field's plural noun, any gender.
SELECTOR = {
    "Available %s": "Opciones disponibles",
    "Chosen %s": "Opciones elegidas",
    "Choose all %s": "Elegir todas",
    "Choose selected %s": "Elegir las marcadas",
    "Remove selected %s": "Quitar las marcadas",
    "Remove all %s": "Quitar todas",
}


def test_one_api_key_is_feminine_in_its_list_and_its_page(demo, superusuario, client):
    lista = texto_visible(client.get(reverse("admin:mcp_claveapi_changelist")).content.decode())
    from apps.mcp.models import ClaveApi

    clave = ClaveApi.objects.order_by("pk").first()
    pagina = texto_visible(
        client.get(reverse("admin:mcp_claveapi_change", args=[clave.pk])).content.decode()
    )
    assert "Creada" in lista and "Creada por:" in pagina and "Creada:" in pagina
    assert "Creado" not in lista + pagina


@pytest.mark.parametrize(
    "modelo",
    [
        "mcp.tokenpersonal",
        "solicitudes.tarea",
        "solicitudes.consecutivo",
        "notificaciones.mensajecontacto",
    ],
)
def test_a_record_with_nothing_to_edit_has_no_save_buttons(demo, superusuario, client, modelo):
    from django.apps import apps

    clase = apps.get_model(modelo)
    objeto = clase.objects.order_by("pk").first()
    assert objeto is not None
    opts = clase._meta
    ruta = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[objeto.pk])
    contenido = client.get(ruta).content.decode()
    assert 'name="_save"' not in contenido and 'name="_continue"' not in contenido


def test_a_record_with_editable_fields_keeps_its_save_button(demo, superusuario, client):
    from apps.cuentas.models import Area

    area = Area.objects.order_by("pk").first()
    contenido = client.get(reverse("admin:cuentas_area_change", args=[area.pk])).content.decode()
    assert 'name="_save"' in contenido
