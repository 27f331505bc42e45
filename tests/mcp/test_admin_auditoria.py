"""The audit list in the admin: key columns, local times with seconds, filters, CSV of the list."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.contrib.admin.templatetags.admin_list import result_headers
from django.utils.text import capfirst

from apps.mcp.models import RegistroAuditoria
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave

pytestmark = pytest.mark.django_db

LISTA = "/admin/mcp/registroauditoria/"
EXPORTAR = LISTA + "exportar/"


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_a", is_staff=True, is_superuser=True))
    return client


def _fila(herramienta="estado_cdp", resultado="ok", usuario=None, creado=None, **extra):
    return RegistroAuditoria.objects.create(
        herramienta=herramienta,
        resultado=resultado,
        usuario=usuario,
        credencial="token_personal",
        ip="203.0.113.9",
        duracion_ms=42,
        creado=creado or datetime(2026, 3, 5, 2, 4, 9, tzinfo=UTC),
        **extra,
    )


def _csv(respuesta) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(respuesta.streaming_content).decode())))


def test_the_list_shows_tool_result_and_duration_with_local_seconds(administra):
    clave, _ = nueva_clave(nombre="Chat")
    _fila(usuario=UserFactory(username="camila"), clave=clave, resultado="NO_ENCONTRADO")
    r = administra.get(LISTA)
    html = r.content.decode()
    encabezados = [str(h["text"]) for h in result_headers(r.context["cl"])]
    assert [capfirst(e) for e in encabezados[1:]] == [
        "Fecha",
        "Usuario",
        "Integración",
        "Herramienta",
        "Resultado",
        "Duración",
    ]
    # 02:04:09 UTC is 21:04:09 of the day before in Bogotá (UTC-5).
    assert '<span class="nowrap">04/03/2026 21:04:09</span>' in html
    assert "estado_cdp" in html and "NO_ENCONTRADO" in html and "42 ms" in html
    assert ">Chat<" in html


def test_the_heading_and_the_field_of_a_row_show_the_same_local_time(administra):
    fila = _fila()
    html = administra.get(f"{LISTA}{fila.pk}/change/").content.decode()
    assert str(fila) == "04/03/2026 21:04:09 estado_cdp · Correcta"
    assert "<h2>04/03/2026 21:04:09 estado_cdp · Correcta</h2>" in html
    assert '<span class="nowrap">04/03/2026 21:04:09</span>' in html
    assert "02:04" not in html


def test_the_list_counts_rows_in_spanish_plural(administra):
    for _ in range(3):
        _fila()
    assert "3 registros de auditoría" in administra.get(LISTA).content.decode()


def test_the_list_filters_by_tool_result_person_and_date(administra):
    camila = UserFactory(username="camila")
    _fila(herramienta="estado_cdp", usuario=camila)
    _fila(herramienta="estado_rp", resultado="SIN_PERMISO")
    _fila(herramienta="estado_rp", creado=datetime(2025, 6, 1, 15, tzinfo=UTC))
    r = administra.get(LISTA)
    titulos = {f.title for f in r.context["cl"].filter_specs}
    assert {"fecha", "herramienta", "resultado", "usuario"} <= titulos

    def herramientas(**filtros):
        lista = administra.get(LISTA, filtros).context["cl"].result_list
        return sorted(f.herramienta for f in lista)

    assert herramientas(herramienta="estado_rp") == ["estado_rp", "estado_rp"]
    assert herramientas(resultado="SIN_PERMISO") == ["estado_rp"]
    assert herramientas(usuario__id__exact=camila.pk) == ["estado_cdp"]
    assert herramientas(creado__year="2025") == ["estado_rp"]


def test_the_csv_export_holds_exactly_the_filtered_rows_of_every_page(administra):
    for _ in range(120):  # more than one page of the list (100 per page)
        _fila(herramienta="estado_rp")
    _fila(herramienta="estado_cdp")
    html = administra.get(LISTA, {"herramienta": "estado_rp"}).content.decode()
    assert f'href="{EXPORTAR}?herramienta=estado_rp"' in html
    assert "Exportar CSV (120 filas)" in html
    r = administra.get(EXPORTAR, {"herramienta": "estado_rp"})
    assert r.status_code == 200
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert r["Content-Disposition"].startswith('attachment; filename="auditoria-asistente-')
    filas = _csv(r)
    assert filas[0][0] == "fecha" and len(filas) == 121
    assert {f[5] for f in filas[1:]} == {"estado_rp"}
    assert filas[1][0] == "2026-03-04 21:04:09"


def test_the_csv_export_follows_the_search_too(administra):
    _fila(herramienta="estado_cdp", usuario=UserFactory(username="camila"))
    _fila(herramienta="estado_cdp", usuario=UserFactory(username="andres"))
    filas = _csv(administra.get(EXPORTAR, {"q": "camila"}))
    assert [f[1] for f in filas[1:]] == ["camila"]


def test_a_bad_filter_in_the_export_goes_back_to_the_list(administra):
    r = administra.get(EXPORTAR, {"creado__gte": "no-es-fecha"})
    assert r.status_code == 302 and r["Location"] == LISTA


def test_staff_without_the_audit_permission_cannot_export(client):
    _fila()
    client.force_login(UserFactory(username="sin_permiso", is_staff=True))
    assert client.get(EXPORTAR).status_code == 403


def test_the_ip_is_on_the_rows_page_and_found_by_search(administra):
    fila = _fila(herramienta="estado_rp")
    otra = RegistroAuditoria.objects.create(
        herramienta="estado_cdp", resultado="ok", credencial="clave_api", ip="2001:db8::7"
    )
    assert "203.0.113.9" in administra.get(f"{LISTA}{fila.pk}/change/").content.decode()
    encontradas = administra.get(LISTA, {"q": "2001:db8::7"}).context["cl"].result_list
    assert [f.pk for f in encontradas] == [otra.pk]
    assert administra.get(LISTA, {"q": "camila"}).status_code == 200
