"""The profile's "Actividad del asistente": the person's own calls (newest first, connection,
tool, result in words, what a write created with its link), filters, paging, CSV of what is
filtered, refusals that named the person counted per minute; nobody else's, the admin's included."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.mcp import rechazos
from apps.mcp.actividad import POR_PAGINA
from apps.mcp.models import RechazoAsistente, RegistroAuditoria
from tests.factories import UserFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token
from tests.mcp_cliente import llamar

pytestmark = pytest.mark.django_db

URL = "/cuentas/perfil/actividad/"


def _fila(usuario, herramienta="buscar_documento", *, hace=0, **campos) -> RegistroAuditoria:
    """An audit row as the call machinery writes it (the rows are the page's only source)."""
    valores = {
        "usuario": usuario,
        "credencial": "token_personal",
        "herramienta": herramienta,
        "resultado": "ok",
        "creado": timezone.now() - timedelta(minutes=hace),
        **campos,
    }
    return RegistroAuditoria.objects.create(**valores)


def _filas_html(html: str) -> list[str]:
    if '<table id="llamadas">' not in html:
        return []
    cuerpo = html[html.index('<table id="llamadas">') : html.index("</table>")]
    return cuerpo.split("<tr data-herramienta=")[1:]


def _csv(respuesta) -> list[list[str]]:
    texto = b"".join(respuesta.streaming_content).decode("utf-8")
    assert texto.startswith("\ufeff")
    return list(csv.reader(io.StringIO(texto[1:]), delimiter=";"))


@pytest.fixture
def claude():
    return nueva_aplicacion("Claude")


@pytest.fixture
def actividad(persona, claude):
    """Camila's calls: by Claude (OAuth), by her token «Portátil», a write that filed a ticket;
    and one of another person's."""
    token, _ = nuevo_token(persona, nombre="Portátil")
    otra = UserFactory(username="otra", permisos=["mcp.asistente.usar"])
    filas = {
        "claude": _fila(
            persona,
            "buscar_solicitudes",
            hace=30,
            credencial="oauth",
            cliente_id=claude.pk,
            cliente_nombre="Claude",
        ),
        "error": _fila(
            persona,
            "estado_cdp",
            hace=20,
            resultado="SIN_PERMISO",
            token_prefijo=token.prefijo,
        ),
        "escritura": _fila(
            persona,
            "radicar_mesa_ayuda",
            hace=10,
            token_prefijo=token.prefijo,
            argumentos={"asunto": '=HYPERLINK("x")', "confirmar": True},
            objeto={"tipo": "solicitud", "texto": "=MDA-2026-000007", "enlace": "/solicitudes/7"},
        ),
        "ajena": _fila(otra, "mis_tareas", hace=5, cliente_id=claude.pk, cliente_nombre="Claude"),
    }
    return {"token": token, "otra": otra, **filas}


# --- who sees what --------------------------------------------------------------------------------


def test_the_owner_sees_her_calls_newest_first_in_words(navegante, actividad):
    r = navegante.get(URL)
    assert r.status_code == 200
    assert r["Cache-Control"].startswith("max-age=0")
    filas = _filas_html(r.content.decode())
    assert [f.split('"')[1] for f in filas] == [
        "radicar_mesa_ayuda",
        "estado_cdp",
        "buscar_solicitudes",
    ]
    escritura, error, claude = filas
    assert "Token «Portátil»" in escritura and "Correcta" in escritura
    assert '<a class="sin-corte" href="/solicitudes/7">=MDA-2026-000007</a>' in escritura
    assert "Sin permiso" in error and "estado-error" in error
    assert "Aplicación «Claude»" in claude
    assert not any("mis_tareas" in f for f in filas)  # another person's call


def test_another_person_sees_none_of_them_even_naming_the_connection(client, actividad, claude):
    client.force_login(actividad["otra"])
    r = client.get(URL, {"conexion": f"token-{actividad['token'].prefijo}"})
    assert r.status_code == 200
    assert _filas_html(r.content.decode()) == [] and b"Ninguna llamada" in r.content
    r = client.get(URL, {"conexion": f"app-{claude.pk}"})
    assert [f.split('"')[1] for f in _filas_html(r.content.decode())] == ["mis_tareas"]


def test_an_administrator_sees_only_her_own_activity_here(client, actividad):
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    r = client.get(URL)
    assert r.status_code == 200
    assert _filas_html(r.content.decode()) == []
    assert "Aún no hay llamadas en su nombre.".encode() in r.content
    assert len(_csv(client.get(URL, {"formato": "csv"}))) == 1  # the header alone


def test_without_signing_in_it_goes_to_the_sign_in_page(client, actividad):
    r = client.get(URL)
    assert r.status_code == 302 and r["Location"] == f"/cuentas/login/?next={URL}"


def test_a_real_call_with_a_token_appears_on_the_page(navegante, persona, client):
    _, secreto = nuevo_token(persona, nombre="Escritorio")
    respuesta = llamar(client, "mis_accesos", {}, **{"X-MCP-User-Token": secreto})
    assert respuesta.resultado["isError"] is False
    navegante.force_login(persona)
    filas = _filas_html(navegante.get(URL).content.decode())
    assert len(filas) == 1 and "mis_accesos" in filas[0] and "Token «Escritorio»" in filas[0]


# --- filters, paging, CSV -------------------------------------------------------------------------


def test_filters_by_connection_tool_result_and_dates(navegante, actividad, claude):
    def herramientas(**filtros):
        r = navegante.get(URL, filtros)
        assert r.status_code == 200
        return [f.split('"')[1] for f in _filas_html(r.content.decode())]

    assert herramientas(conexion=f"app-{claude.pk}") == ["buscar_solicitudes"]
    assert herramientas(conexion=f"token-{actividad['token'].prefijo}") == [
        "radicar_mesa_ayuda",
        "estado_cdp",
    ]
    assert herramientas(herramienta="estado_cdp") == ["estado_cdp"]
    assert herramientas(resultado="error") == ["estado_cdp"]
    assert herramientas(resultado="ok") == ["radicar_mesa_ayuda", "buscar_solicitudes"]
    hoy = timezone.localdate()
    assert len(herramientas(desde=hoy.isoformat(), hasta=hoy.isoformat())) == 3
    assert herramientas(hasta=(hoy - timedelta(days=1)).isoformat()) == []


def test_a_bad_filter_rerenders_the_form_with_its_error_and_no_rows(navegante, actividad):
    hoy = timezone.localdate()
    r = navegante.get(
        URL, {"desde": hoy.isoformat(), "hasta": (hoy - timedelta(days=2)).isoformat()}
    )
    assert r.status_code == 200
    assert b"La fecha final es anterior a la inicial." in r.content
    assert b'<table id="llamadas">' not in r.content
    r = navegante.get(URL, {"resultado": "INVENTADO", "conexion": "app-x"})
    assert r.status_code == 200 and b"Corrija los filtros" in r.content


def test_pages_hold_a_fixed_number_of_rows_and_keep_the_filters(navegante, persona):
    for i in range(POR_PAGINA + 3):
        _fila(persona, "buscar_documento", hace=i)
    r = navegante.get(URL, {"herramienta": "buscar_documento"})
    assert len(_filas_html(r.content.decode())) == POR_PAGINA
    assert b"herramienta=buscar_documento&amp;pagina=2" in r.content
    r = navegante.get(URL, {"herramienta": "buscar_documento", "pagina": 2})
    assert len(_filas_html(r.content.decode())) == 3
    assert b"P\xc3\xa1gina 2 de 2" in r.content


def test_the_csv_holds_only_the_filtered_rows_with_formulas_neutralized(navegante, actividad):
    r = navegante.get(URL, {"conexion": f"token-{actividad['token'].prefijo}", "formato": "csv"})
    assert r.status_code == 200
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert r["Content-Disposition"].startswith('attachment; filename="actividad-asistente-')
    filas = _csv(r)
    assert filas[0] == [
        "Fecha",
        "Conexión",
        "Herramienta",
        "Resultado",
        "Código",
        "Qué escribió",
        "Enlace",
    ]
    assert [f[2] for f in filas[1:]] == ["radicar_mesa_ayuda", "estado_cdp"]
    escritura = filas[1]
    assert escritura[5] == "'=MDA-2026-000007"  # a formula is text in a spreadsheet
    assert escritura[6] == f"{settings.HUB_URL_PUBLICA}/solicitudes/7"
    assert filas[2][3:5] == ["Sin permiso", "SIN_PERMISO"]


def test_the_number_of_queries_does_not_grow_with_the_rows(navegante, persona, claude):
    token, _ = nuevo_token(persona, nombre="Portátil")

    def consultas() -> int:
        with CaptureQueriesContext(connection) as capturadas:
            assert navegante.get(URL).status_code == 200
        return len(capturadas)

    _fila(persona, token_prefijo=token.prefijo)
    consultas()  # the brand and limits rows are made and cached by the first page
    pocas = consultas()
    for i in range(POR_PAGINA):
        _fila(persona, hace=i, credencial="oauth", cliente_id=claude.pk, cliente_nombre="Claude")
        _fila(persona, "radicar_mesa_ayuda", hace=i, token_prefijo=token.prefijo)
    assert consultas() == pocas
    assert pocas <= 9


# --- refusals -------------------------------------------------------------------------------------


def test_refusals_that_named_the_person_appear_counted_per_minute_and_401_stays_out(
    navegante, persona
):
    otra = UserFactory(username="otra")
    minuto = rechazos.minuto_actual()
    RechazoAsistente.objects.create(
        minuto=minuto - timedelta(minutes=5),
        quien=f"u{persona.pk}",
        usuario=persona,
        estado=429,
        codigo="RATE_LIMIT",
        veces=7,
        pendiente=False,
    )
    pendiente = RechazoAsistente.objects.create(
        minuto=minuto, quien=f"u{persona.pk}", usuario=persona, estado=403, codigo="SIN_PERMISO"
    )
    cache.set(rechazos.llave_cache(pendiente), 4, 600)  # the minute still counting in the cache
    RechazoAsistente.objects.create(
        minuto=minuto, quien=f"u{persona.pk}x", usuario=persona, estado=401, codigo="NO_AUTENTICADO"
    )
    RechazoAsistente.objects.create(
        minuto=minuto, quien=f"u{otra.pk}", usuario=otra, estado=403, codigo="SIN_PERMISO", veces=9
    )
    html = navegante.get(URL).content.decode()
    tabla = html[html.index('<table id="rechazos">') : html.rindex("</table>")]
    filas = tabla.split("<tr data-estado=")[1:]
    assert [f.split('"')[1] for f in filas] == ["403", "429"]
    assert "Sin acceso: Sin permiso" in filas[0]
    assert '<td data-etiqueta="Veces">4</td>' in filas[0]
    assert '<td data-etiqueta="Motivo">Límite de uso superado</td>' in filas[1]
    assert ">7</td>" in filas[1]
    assert "NO_AUTENTICADO" not in tabla and "Sin credencial" not in tabla


# --- the profile links each connection to its activity --------------------------------------------


def test_each_token_and_connected_app_on_the_profile_links_to_its_activity(navegante, persona):
    from tests.mcp.factories import nuevo_token_oauth

    token, _ = nuevo_token(persona, nombre="Portátil")
    app = nueva_aplicacion("Claude")
    nuevo_token_oauth(persona, aplicacion=app)
    html = navegante.get("/cuentas/perfil/").content.decode()
    assert f'href="{URL}?conexion=token-{token.prefijo}"' in html
    assert f'href="{URL}?conexion=app-{app.pk}"' in html
    r = navegante.get(URL, {"conexion": f"app-{app.pk}"})
    assert r.status_code == 200 and b"Ninguna llamada coincide" in r.content
