"""One date style on the staff pages and in the admin (27/11/2026 15:35), and a task's due time
said as a person says it; the API keeps ISO 8601."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.utils import formats, timezone

from hub.templatetags.fechas import describir_vencimiento

BOGOTA = ZoneInfo("America/Bogota")
# 27 November 2026, 15:35 in Bogotá (20:35 UTC).
AHORA = datetime(2026, 11, 27, 15, 35, tzinfo=BOGOTA)


def _pintar(fuente: str, **contexto) -> str:
    return Template(fuente).render(Context(contexto))


def test_every_template_has_the_filters_without_loading_them():
    utc = AHORA.astimezone(ZoneInfo("UTC"))
    assert _pintar("{{ v|fecha_hora }}", v=utc) == "27/11/2026 15:35"  # in local time
    assert _pintar("{{ v|fecha }}", v=utc) == "27/11/2026"
    assert _pintar("{{ v|fecha }}", v=date(2027, 1, 5)) == "05/01/2027"
    assert _pintar("{{ v|fecha_hora }}|{{ v|fecha }}", v=None) == "|"


def test_the_admin_formats_are_the_same_style():
    assert formats.get_format("DATE_FORMAT") == "d/m/Y"
    assert formats.get_format("DATETIME_FORMAT") == "d/m/Y H:i"
    assert formats.get_format("DATE_INPUT_FORMATS")[0] == "%d/%m/%Y"
    assert formats.date_format(AHORA, "DATETIME_FORMAT") == "27/11/2026 15:35"
    assert formats.localize_input(date(2027, 11, 27)) == "27/11/2027"


@pytest.mark.parametrize(
    ("vence", "texto"),
    [
        (AHORA - timedelta(days=275), "vencida hace 9\xa0meses"),
        (AHORA - timedelta(hours=3), "vencida hace 3\xa0horas"),
        (AHORA - timedelta(seconds=20), "vencida hace un momento"),
        (AHORA + timedelta(hours=2), "vence hoy a las 17:35"),
        (datetime(2026, 11, 28, 9, 0, tzinfo=BOGOTA), "vence mañana a las 09:00"),
        (AHORA + timedelta(days=3), "vence en 3 días"),
        (AHORA + timedelta(days=21), "vence en 3\xa0semanas"),
    ],
)
def test_a_due_time_is_said_relative_to_now(vence, texto):
    assert describir_vencimiento(vence, AHORA) == texto


def test_the_filter_uses_the_current_time(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: AHORA)
    assert _pintar("{{ v|vencimiento }}", v=AHORA + timedelta(days=1)) == "vence mañana a las 15:35"


@pytest.mark.django_db
def test_an_admin_page_writes_its_moments_in_the_same_style(admin_client):
    from apps.cuentas.models import BloqueoIngreso
    from tests.factories import UserFactory

    bloqueo = BloqueoIngreso.objects.create(
        cuenta="camila",
        usuario=UserFactory(),
        desde=AHORA,
        hasta=AHORA + timedelta(hours=1),
        fallos=20,
    )
    r = admin_client.get(f"/admin/cuentas/bloqueoingreso/{bloqueo.pk}/change/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "27/11/2026 15:35" in html and "27/11/2026 16:35" in html
    assert "noviembre" not in html
