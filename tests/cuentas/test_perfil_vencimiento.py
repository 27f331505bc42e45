"""Profile tokens: a date of one's own up to the maximum, a warning before expiry, regenerate."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone

from apps.mcp.models import AjustesAsistente, TokenPersonal
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token

pytestmark = pytest.mark.django_db

URL = "/cuentas/perfil/"
PATRON_TOKEN = re.compile(r"sgimcp_[0-9A-Za-z]{38}")


def _hoy():
    return timezone.localdate()


def _crear_hasta(client, fecha, nombre="Con fecha"):
    return client.post(
        URL,
        {
            "accion": "crear",
            "nombre": nombre,
            "dias": "fecha",
            "fecha": fecha,
            "areas": ["solicitudes", "presupuesto", "calidad"],
        },
    )


def test_the_form_offers_a_date_of_ones_own_bounded_by_the_maximum(navegante):
    html = navegante.get(URL).content.decode()
    assert '<option value="fecha">Otra fecha…</option>' in html
    manana = (_hoy() + timedelta(days=1)).isoformat()
    tope = timezone.localdate(timezone.now() + timedelta(days=90)).isoformat()
    assert re.search(rf'<input type="date" name="fecha"[^>]*min="{manana}"[^>]*max="{tope}"', html)
    assert "Hasta 90 días desde hoy." in html


def test_a_token_with_a_date_expires_at_the_end_of_that_day(navegante, persona):
    fecha = _hoy() + timedelta(days=45)
    r = _crear_hasta(navegante, fecha.isoformat())
    assert r.status_code == 302
    token = TokenPersonal.objects.get(usuario=persona)
    esperado = timezone.make_aware(datetime.combine(fecha, time(23, 59)))
    assert token.vence == esperado


def test_the_latest_allowed_date_never_goes_past_the_maximum(navegante, persona):
    ajustes = AjustesAsistente.cargar()
    ajustes.token_max_dias = 30
    ajustes.save()
    tope = timezone.localdate(timezone.now() + timedelta(days=30))
    antes = timezone.now()
    assert _crear_hasta(navegante, tope.isoformat()).status_code == 302
    token = TokenPersonal.objects.get(usuario=persona)
    # The end of that day would pass the maximum by some hours: it stops at the maximum.
    assert antes + timedelta(days=30) <= token.vence <= timezone.now() + timedelta(days=30)


@pytest.mark.parametrize(
    ("dias", "mensaje"),
    [
        (0, "Elija una fecha a partir de mañana."),
        (-3, "Elija una fecha a partir de mañana."),
        (91, "La fecha más lejana permitida es"),
    ],
)
def test_dates_outside_the_allowed_range_are_refused(navegante, persona, dias, mensaje):
    r = _crear_hasta(navegante, (_hoy() + timedelta(days=dias)).isoformat())
    assert r.status_code == 200
    assert mensaje in " ".join(r.context["formulario"].errors["fecha"])
    assert not TokenPersonal.objects.filter(usuario=persona).exists()


@pytest.mark.parametrize(
    ("fecha", "mensaje"),
    [("", "Elija la fecha de vencimiento."), ("31/12/2099", "Escriba la fecha como AAAA-MM-DD.")],
)
def test_another_date_needs_a_valid_date(navegante, persona, fecha, mensaje):
    r = _crear_hasta(navegante, fecha)
    assert r.status_code == 200
    assert r.context["formulario"].errors["fecha"] == [mensaje]
    assert not TokenPersonal.objects.filter(usuario=persona).exists()


def test_a_token_expiring_within_seven_days_is_flagged_with_a_warning(navegante, persona):
    pronto, _ = nuevo_token(persona, nombre="Pronto", dias=5)
    lejos, _ = nuevo_token(persona, nombre="Lejos", dias=30)
    html = navegante.get(URL).content.decode()
    filas = dict(re.findall(r'<tr data-token="(\d+)">(.*?)</tr>', html, re.S))
    assert '<span class="estado estado-por-vencer">vence pronto</span>' in filas[str(pronto.pk)]
    assert '<span class="estado estado-activo">activo</span>' in filas[str(lejos.pk)]
    assert "Su token «Pronto» vence el" in html
    assert "Su token «Lejos» vence el" not in html


def test_regenerating_asks_first_then_replaces_the_token_with_the_same_name_and_lifetime(
    navegante, persona
):
    viejo, secreto_viejo = nuevo_token(persona, nombre="Portátil", dias=45)
    r = navegante.post(URL, {"accion": "regenerar", "token_id": viejo.pk})
    assert r.status_code == 200 and 'id="confirmar-regeneracion"' in r.content.decode()
    viejo.refresh_from_db()
    assert viejo.estado == "activo"

    r = navegante.post(URL, {"accion": "regenerar", "token_id": viejo.pk, "confirmado": "si"})
    assert r.status_code == 302
    viejo.refresh_from_db()
    assert viejo.estado == "revocado"
    nuevo = TokenPersonal.objects.exclude(pk=viejo.pk).get(usuario=persona)
    assert nuevo.nombre == "Portátil" and nuevo.estado == "activo"
    duracion = nuevo.vence - nuevo.creado
    assert abs(duracion - (viejo.vence - viejo.creado)) < timedelta(seconds=5)
    html = navegante.get(r["Location"]).content.decode()
    [secreto] = set(PATRON_TOKEN.findall(html))
    assert secreto != secreto_viejo
    assert "Token «Portátil» creado." in html
    assert not PATRON_TOKEN.search(navegante.get(URL).content.decode())


def test_an_expired_token_can_be_regenerated(navegante, persona):
    vencido, _ = nuevo_token(persona, nombre="Viejo", dias=-1)
    r = navegante.post(URL, {"accion": "regenerar", "token_id": vencido.pk, "confirmado": "si"})
    assert r.status_code == 302
    assert TokenPersonal.objects.filter(usuario=persona, nombre="Viejo").count() == 2


def test_regeneration_is_bounded_by_todays_maximum(navegante, persona):
    largo, _ = nuevo_token(persona, nombre="Largo", dias=90)
    ajustes = AjustesAsistente.cargar()
    ajustes.token_max_dias = 30
    ajustes.save()
    navegante.post(URL, {"accion": "regenerar", "token_id": largo.pk, "confirmado": "si"})
    nuevo = TokenPersonal.objects.exclude(pk=largo.pk).get(usuario=persona)
    assert nuevo.vence - nuevo.creado <= timedelta(days=30)


def test_nobody_regenerates_another_persons_token(client, persona):
    ajeno, _ = nuevo_token(persona, nombre="De Camila")
    colega = UserFactory(username="colega", permisos=["mcp.asistente.usar"])
    client.force_login(colega)
    for datos in (
        {"accion": "regenerar", "token_id": ajeno.pk},
        {"accion": "regenerar", "token_id": ajeno.pk, "confirmado": "si"},
    ):
        assert client.post(URL, datos).status_code == 404
    ajeno.refresh_from_db()
    assert ajeno.estado == "activo"
    assert TokenPersonal.objects.count() == 1
