"""The admin lists people complained about, in a real browser at 1280 px and on a phone (390 px):
no horizontal scroll, key columns in view, amounts and codes never broken; the confirmation
pages; amounts on the site's pages and the assistant's address on the profile on a phone.
Screenshots in var/capturas/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from apps.marca import demo as marca_demo
from apps.mcp.models import RegistroAuditoria
from tests.factories import UserFactory
from tests.firmas.factories import firma_anulada, firmar
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas
from tests.notificaciones.factories import MensajeContactoFactory
from tests.presupuesto.factories import cdp_expedido, celda, rp_expedido

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]

CLAVE = "clave-de-prueba-123"

# (screenshot name, list, key columns that must be in view at both widths)
LISTAS = [
    (
        "admin_mensajes_contacto",
        "/admin/notificaciones/mensajecontacto/",
        ["referencia", "asunto_corto", "atendido"],
    ),
    ("admin_rp", "/admin/presupuesto/rp/", ["numero", "valor_actual_pesos", "estado"]),
    ("admin_cdp", "/admin/presupuesto/cdp/", ["numero", "saldo_pesos", "estado"]),
    ("admin_firmas", "/admin/firmas/firma/", ["token_corto", "documento_visible", "estado"]),
    (
        "admin_auditoria_lista",
        "/admin/mcp/registroauditoria/",
        ["fecha", "herramienta", "resultado_visible"],
    ),
    ("admin_claves_lista", "/admin/mcp/claveapi/", ["nombre", "estado"]),
    ("admin_tokens_lista", "/admin/mcp/tokenpersonal/", ["usuario", "nombre", "estado"]),
]
# Only at 1280 px: the columns a phone hides (AdminEspanol.columnas_telefono) are in view too.
COMPLETAS = {
    "/admin/notificaciones/mensajecontacto/": ["recibido", "nombre_corto", "leido", "reenviado"],
    "/admin/firmas/firma/": ["enlaces_qr", "firmado", "tipo_documento"],
    "/admin/presupuesto/rp/": ["cdp", "beneficiario_corto", "obligado_pesos", "expedicion"],
}


@pytest.fixture
def organizacion():
    """Long names and large amounts, as people meet them; made before the browser starts."""
    from hub.operacion.demo import ContextoDemo

    marca_demo.cargar(ContextoDemo())
    marta = UserFactory(username="marta", is_staff=True, is_superuser=True)
    camila = UserFactory(username="camila", first_name="Camila", last_name="Rojas Díaz")
    for n in range(6):
        MensajeContactoFactory(
            nombre="María Alejandra Rodríguez Villamizar de la Torre",
            correo=f"maria.alejandra.rodriguez.villamizar{n}@correo-institucional.gov.co",
            asunto="Solicitud de certificado laboral con funciones y salario para trámite bancario",
            leido=n % 2 == 0,
            atendido=n % 3 == 0,
        )
    proyecto, area = celda("900000000.00", tope="2000000000.00")
    cdp = cdp_expedido(proyecto, area, "480000000.00")
    rp = rp_expedido(
        cdp,
        "10400000.00",
        beneficiario="Consorcio de Servicios Tecnológicos e Infraestructura del Distrito",
    )
    firmar(cdp, firmante="María Fernanda López Rincón de los Ríos")
    firma_anulada(cdp, firmante="Jorge Enrique Pardo")
    firmar(rp)
    clave, _ = nueva_clave(nombre="Asistente institucional de la mesa de ayuda")
    nuevo_token(camila, nombre="Asistente de escritorio del despacho")
    ahora = timezone.now()
    for n, resultado in enumerate(["ok", "DATOS_INVALIDOS", "SIN_PERMISO", "RATE_LIMIT"] * 3):
        RegistroAuditoria.objects.create(
            creado=ahora - timedelta(minutes=5 * n),
            usuario=camila,
            clave=clave,
            credencial="clave_y_token",
            herramienta="resumen_ejecutivo",
            resultado=resultado,
            duracion_ms=120 + n,
        )
    return {"usuario": marta, "clave": clave, "firma": firmar(cdp), "cdp": cdp}


def _ingresar(pagina) -> None:
    pagina.goto(pagina.base + "/admin/login/?next=/admin/")
    pagina.fill("input[name=username]", "marta")
    pagina.fill("input[name=password]", CLAVE)
    pagina.click("input[type=submit]")
    pagina.wait_for_selector("#user-tools")


def _en_vista(pagina, selector: str, ancho: int) -> bool:
    caja = pagina.locator(selector).first.bounding_box()
    return caja is not None and caja["x"] >= 0 and caja["x"] + caja["width"] <= ancho + 0.5


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_named_admin_lists_fit_and_keep_their_key_columns(organizacion, navegador, ancho, alto):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina)
    for nombre, ruta, claves in LISTAS:
        assert pagina.goto(pagina.base + ruta).status == 200, ruta
        capturar(pagina, f"{nombre}_{ancho}")
        assert ancho_de_pagina(pagina) <= ancho, ruta
        resultados = pagina.locator(".results")
        assert resultados.evaluate("e => e.scrollWidth <= e.clientWidth"), ruta
        columnas = claves + (COMPLETAS.get(ruta, []) if ancho == 1280 else [])
        for columna in columnas:
            assert _en_vista(pagina, f"#result_list thead th.column-{columna}", ancho), (
                ruta,
                columna,
            )
        assert palabras_partidas(pagina, "#result_list tbody td, #result_list tbody th") == [], ruta
    assert violaciones == []


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_confirmation_pages_are_readable(organizacion, navegador, ancho, alto):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    _ingresar(pagina)
    clave, firma = organizacion["clave"], organizacion["firma"]
    pagina.goto(pagina.base + f"/admin/mcp/claveapi/{clave.pk}/change/")
    pagina.get_by_role("link", name="Revocar la clave").click()
    pagina.wait_for_url(f"**/admin/mcp/claveapi/{clave.pk}/revocar/")
    assert pagina.get_by_role("heading", name="¿Revocar esta clave de API?").is_visible()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"admin_confirmar_revocar_clave_{ancho}")
    pagina.goto(pagina.base + f"/admin/firmas/firma/{firma.pk}/change/")
    pagina.get_by_role("link", name="Anular la firma").click()
    pagina.wait_for_url(f"**/admin/firmas/firma/{firma.pk}/anular/")
    assert pagina.locator("textarea[name=motivo]").is_visible()
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"admin_confirmar_anular_firma_{ancho}")
    pagina.get_by_role("button", name="Sí, anular la firma").click()
    expect(pagina.locator(".errorlist").first).to_be_visible()  # the reason is required
    pagina.fill("textarea[name=motivo]", "Se firmó la versión equivocada del documento.")
    pagina.get_by_role("button", name="Sí, anular la firma").click()
    pagina.wait_for_url(f"**/admin/firmas/firma/{firma.pk}/change/")
    assert pagina.get_by_text("firma anulada.").is_visible()
    if ancho == 390:
        pagina.goto(pagina.base + "/admin/mcp/claveapi/")
        pagina.locator("input[name=_selected_action]").first.check()
        pagina.select_option("select[name=action]", "revocar")
        # The confirmation comes back at the same address: wait for its button, not the URL.
        with pagina.expect_navigation():
            pagina.locator("button[name=index]").click()
        expect(pagina.get_by_role("button", name="Sí, continuar")).to_be_visible()
        assert ancho_de_pagina(pagina) <= ancho
        capturar(pagina, "admin_confirmar_revocar_claves_390")
    assert violaciones == []


def test_amounts_on_a_budget_page_never_break_on_a_phone(organizacion, navegador):
    pagina = navegador(390, 844)
    _ingresar(pagina)
    cdp = organizacion["cdp"]
    assert pagina.goto(pagina.base + cdp.enlace).status == 200
    assert pagina.locator(".cifras dd").first.inner_text() == "$ 480.000.000,00"
    assert palabras_partidas(pagina, ".cifras dd, .tabla .numero") == []
    assert ancho_de_pagina(pagina) <= 390
    capturar(pagina, "cdp_cifras_390")


def test_the_assistant_address_wraps_inside_its_card_on_a_phone(navegador):
    UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    pagina = navegador(390, 844)
    pagina.goto(pagina.base + "/cuentas/login/?next=/cuentas/perfil/")
    pagina.fill("input[name=username]", "camila")
    pagina.fill("input[name=password]", CLAVE)
    pagina.click("button[type=submit]")
    pagina.wait_for_url("**/cuentas/perfil/**")
    # An organization's real address is longer than the test server's.
    pagina.locator("#endpoint").evaluate(
        "e => e.textContent = 'https://asistente-institucional.instituto-distrital-de-gestion"
        "-publica.gov.co/api/mcp'"
    )
    direccion = pagina.locator("#endpoint").bounding_box()
    tarjeta = pagina.locator("#endpoint").evaluate(
        "e => { const r = e.parentElement.getBoundingClientRect(); return r.x + r.width; }"
    )
    assert direccion["x"] + direccion["width"] <= tarjeta + 0.5
    assert ancho_de_pagina(pagina) <= 390
    capturar(pagina, "perfil_direccion_390")


def test_every_admin_list_fits_1280_with_the_demo_data(navegador):
    import io

    from django.contrib import admin
    from django.core.management import call_command
    from django.urls import reverse

    call_command("demo_data", stdout=io.StringIO(), stderr=io.StringIO())
    UserFactory(username="marta", is_staff=True, is_superuser=True)
    pagina = navegador(1280, 900)
    _ingresar(pagina)
    anchas = []
    for modelo in admin.site._registry:
        opts = modelo._meta
        ruta = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        assert pagina.goto(pagina.base + ruta).status == 200, ruta
        resultados = pagina.locator(".results")
        if ancho_de_pagina(pagina) > 1280 or (
            resultados.count() and not resultados.evaluate("e => e.scrollWidth <= e.clientWidth")
        ):
            anchas.append(ruta)
            capturar(pagina, "ancha_" + opts.model_name)
    assert anchas == []
