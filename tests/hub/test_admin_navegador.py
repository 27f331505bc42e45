"""The admin in a real browser: singletons open as forms, the audit list shows every column at
1280 px, and each changed admin screen at 1280 px and on a phone (screenshots in var/capturas/)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.marca import demo as marca_demo
from apps.mcp.models import RegistroAuditoria
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.navegador_admin import ingresar_al_admin
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


@pytest.fixture
def organizacion():
    """The demo brand, an administrator, credentials and audit rows, made before the browser."""
    from hub.operacion.demo import ContextoDemo

    marca_demo.cargar(ContextoDemo())
    marta = UserFactory(
        username="marta", first_name="Marta", last_name="Cárdenas", is_staff=True, is_superuser=True
    )
    camila = UserFactory(username="camila", first_name="Camila", last_name="Rojas Díaz")
    lucia = UserFactory(username="lucia", first_name="Lucía", last_name="Martínez Ortiz")
    clave, _ = nueva_clave(nombre="Asistente institucional de la mesa de ayuda")
    nueva_clave(nombre="Portal de transparencia")
    nuevo_token(camila, nombre="Asistente de escritorio")
    nuevo_token(lucia, nombre="Portátil")
    ahora = timezone.now()
    resultados = ["ok", "NO_ENCONTRADO", "SIN_PERMISO", "DATOS_INVALIDOS", "ok", "RATE_LIMIT"]
    herramientas = ["resumen_ejecutivo", "estado_cdp", "busqueda_global", "radicar_mesa_ayuda"]
    for n in range(24):
        RegistroAuditoria.objects.create(
            creado=ahora - timedelta(minutes=7 * n, seconds=n),
            usuario=camila if n % 3 else None,
            clave=clave,
            token_prefijo="sgimcp_Ab12Cd",
            credencial="clave_y_token" if n % 3 else "clave_api",
            ip=f"2001:db8:85a3::8a2e:370:{7334 + n}",
            herramienta=herramientas[n % len(herramientas)],
            argumentos={"numero": f"CDP-2026-{n:05d}"},
            resultado=resultados[n % len(resultados)],
            duracion_ms=12345 + n,
            request_id=f"{n:032x}",
        )
    return marta


def test_singletons_open_as_forms_from_the_index(organizacion, navegador):
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "marta")
    for fila, enlace, url, campo in (
        (
            "mcp-ajustesasistente",
            "Ajustes del asistente",
            "/admin/mcp/ajustesasistente/1/change/",
            "token_max_dias",
        ),
        ("hub-limites", "Límites de uso", "/admin/hub/limites/1/change/", "global_por_minuto"),
        ("marca-marca", "Marca", "/admin/marca/marca/1/change/", "nombre"),
    ):
        pagina.goto(pagina.base + "/admin/")
        pagina.locator(f"#{fila}").get_by_role("link", name=enlace, exact=True).click()
        pagina.wait_for_url(pagina.base + url)
        assert pagina.is_visible(f"form [name={campo}]")
        assert pagina.locator("#result_list").count() == 0  # no one-row list on the way
    assert violaciones == []


def test_the_audit_list_shows_all_its_columns_at_1280(organizacion, navegador):
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    ingresar_al_admin(pagina, "marta")
    pagina.goto(pagina.base + "/admin/mcp/registroauditoria/")
    encabezados = pagina.locator("#result_list thead th")
    textos = [t.strip().lower() for t in encabezados.all_inner_texts()]
    assert textos[1:] == [
        "fecha",
        "usuario",
        "integración",
        "herramienta",
        "resultado",
        "duración",
    ]
    ancho = pagina.viewport_size["width"]
    for celda in [
        *encabezados.all(),
        *pagina.locator("#result_list tbody tr:first-child td").all(),
    ]:
        caja = celda.bounding_box()
        assert caja is not None and caja["x"] >= 0 and caja["x"] + caja["width"] <= ancho
    contenedor = pagina.locator(".results")
    assert contenedor.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert palabras_partidas(pagina, "#result_list tbody td") == []
    assert ancho_de_pagina(pagina) <= ancho
    assert violaciones == []


PANTALLAS = [
    ("admin_indice", "/admin/"),
    ("admin_ajustes_asistente", "/admin/mcp/ajustesasistente/"),
    ("admin_limites", "/admin/hub/limites/"),
    ("admin_marca", "/admin/marca/marca/"),
    ("admin_marca_restaurar", "/admin/marca/marca/restaurar/"),
    ("admin_claves", "/admin/mcp/claveapi/"),
    ("admin_clave_nueva", "/admin/mcp/claveapi/add/"),
    ("admin_tokens", "/admin/mcp/tokenpersonal/"),
    ("admin_auditoria", "/admin/mcp/registroauditoria/"),
]


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_each_changed_admin_screen_is_branded_and_captured(organizacion, navegador, ancho, alto):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/admin/login/")
    assert pagina.locator("#site-name .marca-admin-logo img").is_visible()
    capturar(pagina, f"admin_ingreso_{ancho}")
    ingresar_al_admin(pagina, "marta")
    for nombre, ruta in PANTALLAS:
        respuesta = pagina.goto(pagina.base + ruta)
        assert respuesta.status == 200, ruta
        assert pagina.locator("#site-name .marca-admin-logo img").is_visible()
        fondo = pagina.locator("#header").evaluate("e => getComputedStyle(e).backgroundColor")
        assert fondo == "rgb(11, 79, 108)"  # the demo brand's primary, #0B4F6C
        if ancho == 1280:
            assert ancho_de_pagina(pagina) <= ancho, ruta
        capturar(pagina, f"{nombre}_{ancho}")
    fila = RegistroAuditoria.objects.order_by("-creado").first()
    pagina.goto(pagina.base + f"/admin/mcp/registroauditoria/{fila.pk}/change/")
    capturar(pagina, f"admin_auditoria_fila_{ancho}")
    pagina.goto(pagina.base + "/admin/mcp/claveapi/add/")
    pagina.fill("input[name=nombre]", "Integración de pruebas")
    pagina.click("input[name=_save]")
    pagina.wait_for_selector("#clave-api")
    capturar(pagina, f"admin_clave_creada_{ancho}")
    pagina.reload()
    pagina.wait_for_selector("#ya-mostrada")
    assert violaciones == []
