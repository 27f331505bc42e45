"""The "Actividad del asistente" page in a real headless browser: readable at 1280 px and on a
phone (no horizontal scroll, no word broken), filters that work, captured under var/capturas/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.mcp import rechazos
from apps.mcp.models import RechazoAsistente, RegistroAuditoria
from tests.factories import CONTRASENA, UserFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token
from tests.navegador_csp import vigilar_csp
from tests.navegador_texto import ancho_de_pagina, capturar, palabras_partidas

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.navegador]


@pytest.fixture
def camila_con_actividad():
    camila = UserFactory(username="camila", permisos=["mcp.asistente.usar"])
    token, _ = nuevo_token(camila, nombre="Portátil")
    claude = nueva_aplicacion("Claude")
    ahora = timezone.now()
    filas = [
        ("buscar_documento", "ok", {"cliente_id": claude.pk, "cliente_nombre": "Claude"}, {}),
        ("estado_cdp", "SIN_PERMISO", {"token_prefijo": token.prefijo}, {}),
        (
            "radicar_mesa_ayuda",
            "ok",
            {"token_prefijo": token.prefijo, "argumentos": {"confirmar": True}},
            {"tipo": "solicitud", "texto": "MDA-2026-000012", "enlace": "/solicitudes/12"},
        ),
        (
            "comentar_solicitud",
            "ok",
            {"cliente_id": claude.pk, "cliente_nombre": "Claude", "argumentos": {}},
            {},
        ),
    ]
    for n, (herramienta, resultado, campos, objeto) in enumerate(filas):
        RegistroAuditoria.objects.create(
            usuario=camila,
            credencial="oauth" if "cliente_id" in campos else "token_personal",
            herramienta=herramienta,
            resultado=resultado,
            creado=ahora - timedelta(minutes=10 * n),
            objeto=objeto,
            **campos,
        )
    RechazoAsistente.objects.create(
        minuto=rechazos.minuto_actual() - timedelta(minutes=3),
        quien=f"u{camila.pk}",
        usuario=camila,
        estado=429,
        codigo="RATE_LIMIT",
        veces=12,
        pendiente=False,
    )
    return camila


@pytest.mark.parametrize(("ancho", "alto"), [(1280, 900), (390, 844)])
def test_the_activity_page_fits_the_screen_and_filters(
    camila_con_actividad, navegador, ancho, alto
):
    pagina = navegador(ancho, alto)
    violaciones = vigilar_csp(pagina)
    pagina.goto(pagina.base + "/cuentas/login/?next=/cuentas/perfil/actividad/")
    pagina.fill("input[name=username]", "camila")
    pagina.fill("input[name=password]", CONTRASENA)
    pagina.click("button[type=submit]")
    pagina.wait_for_selector("#llamadas")
    assert pagina.locator("#llamadas tbody tr").count() == 4
    assert pagina.locator("#rechazos tbody tr").count() == 1
    assert palabras_partidas(pagina, "#llamadas") == []
    assert ancho_de_pagina(pagina) <= ancho
    capturar(pagina, f"actividad_asistente_{ancho}")
    pagina.select_option("#id_resultado", "error")
    pagina.click("button:has-text('Filtrar')")
    pagina.wait_for_url("**resultado=error**")
    assert pagina.locator("#llamadas tbody tr").count() == 1
    assert "Sin permiso" in pagina.inner_text("#llamadas")
    assert violaciones == []
