"""The refusal counts in the admin, beside the audit log: read-only, filters by code and date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.admin.templatetags.admin_list import result_headers
from django.utils.text import capfirst

from apps.mcp import rechazos
from apps.mcp.models import RechazoAsistente
from tests.factories import UserFactory
from tests.mcp.factories import nueva_clave, rechazo_contado_en_cache

pytestmark = pytest.mark.django_db

LISTA = "/admin/mcp/rechazoasistente/"
# 02:04 UTC of 5 March is 21:04 of 4 March in Bogotá (UTC-5).
MINUTO = datetime(2026, 3, 5, 2, 4, tzinfo=UTC)


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_r", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def conocidos():
    camila = UserFactory(username="camila_r")
    clave, _ = nueva_clave(nombre="Chat de la mesa")
    filas = [
        dict(quien=f"u{camila.pk}", usuario=camila, estado=403, codigo="SIN_PERMISO", veces=4),
        dict(
            quien="ip 203.0.113.66",
            direccion="203.0.113.66",
            estado=401,
            codigo="NO_AUTENTICADO",
            veces=120,
        ),
        dict(
            quien=f"k{clave.pk}",
            clave=clave,
            estado=429,
            codigo="RATE_LIMIT",
            veces=7,
            minuto=MINUTO + timedelta(days=1),
        ),
    ]
    for fila in filas:
        RechazoAsistente.objects.create(**{"minuto": MINUTO, "pendiente": False, **fila})
    return camila, clave


def _filas(respuesta) -> list[tuple]:
    return [(f.codigo, f.veces) for f in respuesta.context["cl"].result_list]


def test_the_list_shows_when_who_status_code_and_count_in_local_time(administra, conocidos):
    r = administra.get(LISTA)
    assert r.status_code == 200
    encabezados = [str(h["text"]) for h in result_headers(r.context["cl"])]
    assert [capfirst(e) for e in encabezados] == [  # no actions: no checkbox column
        "Minuto",
        "Usuario",
        "Integración",
        "Dirección",
        "Estado",
        "Código",
        "Veces",
    ]
    html = r.content.decode()
    assert "Rechazos del asistente" in html
    for texto in ("camila_r", "Chat de la mesa", "203.0.113.66", "04/03/2026 21:04", "120"):
        assert texto in html
    # Newest minute first.
    assert _filas(r)[0] == ("RATE_LIMIT", 7)


def test_the_list_filters_by_code_status_and_date(administra, conocidos):
    assert _filas(administra.get(LISTA, {"codigo": "SIN_PERMISO"})) == [("SIN_PERMISO", 4)]
    assert _filas(administra.get(LISTA, {"estado": "429"})) == [("RATE_LIMIT", 7)]
    por_dia = administra.get(LISTA, {"minuto__year": 2026, "minuto__month": 3, "minuto__day": 4})
    assert sorted(_filas(por_dia)) == [("NO_AUTENTICADO", 120), ("SIN_PERMISO", 4)]
    # As the date filter's own links write a local day.
    desde = administra.get(
        LISTA,
        {"minuto__gte": "2026-03-05 00:00:00-05:00", "minuto__lt": "2026-03-06 00:00:00-05:00"},
    )
    assert _filas(desde) == [("RATE_LIMIT", 7)]


def test_the_list_is_read_only(administra, conocidos):
    fila = RechazoAsistente.objects.get(codigo="SIN_PERMISO")
    assert administra.get(LISTA + "add/").status_code == 403
    assert administra.get(f"{LISTA}{fila.pk}/delete/").status_code == 403
    pagina = administra.get(f"{LISTA}{fila.pk}/change/")
    assert pagina.status_code == 200
    assert b'name="veces"' not in pagina.content
    administra.post(f"{LISTA}{fila.pk}/change/", {"veces": 1})
    fila.refresh_from_db()
    assert fila.veces == 4


def test_staff_without_the_view_permission_cannot_see_it(client, conocidos):
    client.force_login(UserFactory(username="staff_r", is_staff=True))
    assert client.get(LISTA).status_code == 403


def test_the_list_shows_the_counts_still_in_the_cache(administra, monkeypatch):
    minuto = datetime.now(UTC).replace(second=0, microsecond=0)
    monkeypatch.setattr(rechazos, "minuto_actual", lambda: minuto)
    rechazo_contado_en_cache(57)
    assert _filas(administra.get(LISTA)) == [("NO_AUTENTICADO", 57)]


def test_it_sits_beside_the_audit_log_in_the_index(administra):
    html = administra.get("/admin/").content.decode()
    rechazos_en = html.index("Rechazos del asistente")
    auditoria_en = html.index("Registros de auditoría")
    assert 0 < auditoria_en - rechazos_en < 600
