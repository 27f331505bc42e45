"""The refusal counts in a real browser: every column within 1280 px, branded, and captured at
1280 px and on a phone (screenshots in var/capturas/)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.marca import demo as marca_demo
from apps.mcp.models import RechazoAsistente
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave
from tests.navegador_admin import ingresar_al_admin
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


@pytest.fixture
def organizacion():
    """The demo brand, an administrator and a morning of refusals, made before the browser."""
    from hub.operacion.demo import ContextoDemo

    marca_demo.cargar(ContextoDemo())
    UserFactory(username="marta", first_name="Marta", is_staff=True, is_superuser=True)
    camila = UserFactory(username="camila.rojas.diaz", first_name="Camila")
    clave, _ = nueva_clave(nombre="Asistente institucional de la mesa de ayuda")
    ahora = timezone.now().replace(second=0, microsecond=0)
    quienes = [
        dict(quien=f"u{camila.pk}", usuario=camila),
        dict(quien=f"k{clave.pk}", clave=clave),
        dict(quien="ip 2001:db8:85a3:8d3::/64", direccion="2001:db8:85a3:8d3::/64"),
        dict(quien="ip 203.0.113.66", direccion="203.0.113.66"),
    ]
    codigos = [
        (403, "SIN_PERMISO"),
        (429, "RATE_LIMIT"),
        (401, "TOKEN_MCP_INVALIDO"),
        (401, "NO_AUTENTICADO"),
    ]
    for n in range(24):
        estado, codigo = codigos[n % 4]
        RechazoAsistente.objects.create(
            minuto=ahora - timedelta(minutes=3 * n),
            estado=estado,
            codigo=codigo,
            veces=1 + 37 * n,
            pendiente=False,
            **quienes[n % 4],
        )


def test_the_refusal_list_shows_all_its_columns_at_1280_and_is_captured(organizacion, navegador):
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "marta")
    pagina.locator("#mcp-rechazoasistente").get_by_role(
        "link", name="Rechazos del asistente", exact=True
    ).click()
    pagina.wait_for_url(pagina.base + "/admin/mcp/rechazoasistente/")
    encabezados = pagina.locator("#result_list thead th")
    # The sorted column carries its sort priority ("1") before its name.
    textos = [t.strip().split("\n")[-1].strip().lower() for t in encabezados.all_inner_texts()]
    assert textos == [
        "minuto",
        "usuario",
        "integración",
        "dirección",
        "estado",
        "código",
        "veces",
    ]
    assert pagina.locator("#result_list tbody tr").count() == 24
    assert pagina.get_by_text("2001:db8:85a3:8d3::/64").first.is_visible()
    ancho = pagina.viewport_size["width"]
    for celda in [
        *encabezados.all(),
        *pagina.locator("#result_list tbody tr:first-child td").all(),
    ]:
        caja = celda.bounding_box()
        assert caja is not None and caja["x"] >= 0 and caja["x"] + caja["width"] <= ancho
    assert palabras_partidas(pagina, "#result_list tbody td") == []
    assert ancho_de_pagina(pagina) <= ancho
    filtros = pagina.locator("#changelist-filter")
    for titulo in ("Por código", "Por estado HTTP", "Por fecha"):
        assert filtros.get_by_text(titulo).is_visible()
    fondo = pagina.locator("#header").evaluate("e => getComputedStyle(e).backgroundColor")
    assert fondo == "rgb(11, 79, 108)"  # the demo brand's primary, #0B4F6C
    capturar(pagina, "admin_rechazos_1280")
    pagina.get_by_role("link", name="Sin permiso", exact=True).click()  # the code, in Spanish
    assert pagina.locator("#result_list tbody tr").count() == 6
    capturar(pagina, "admin_rechazos_filtrados_1280")
    assert violaciones == []


def test_the_refusal_list_on_a_phone_is_captured(organizacion, navegador):
    pagina = navegador(390, 844)
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "marta")
    respuesta = pagina.goto(pagina.base + "/admin/mcp/rechazoasistente/")
    assert respuesta.status == 200
    assert pagina.locator("#site-name .marca-admin-logo img").is_visible()
    capturar(pagina, "admin_rechazos_390")
    assert violaciones == []
