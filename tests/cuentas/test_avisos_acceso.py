"""Word of new access: one e-mail when an application is first connected to the person's account
and when a personal token is created (or regenerated) in their name: its name, when, the address
and browser, the link to the profile where it is cut off; never the secret."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail

from apps.autorizacion.models import Aplicacion
from apps.mcp.models import TokenPersonal
from tests.autorizacion.flujo import Pedido, aprobar, conectar, registrar
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NAVEGADOR = "Mozilla/5.0 (X11; Linux x86_64) " + "Gecko/20100101 Firefox/145.0 " * 10
PERFIL = f"{settings.HUB_URL_PUBLICA}/cuentas/perfil/"


def _crear(navegante, nombre="Portátil"):
    return navegante.post(
        "/cuentas/perfil/",
        {
            "accion": "crear",
            "nombre": nombre,
            "dias": "30",
            "areas": ["solicitudes", "presupuesto", "calidad"],
        },
        REMOTE_ADDR="198.51.100.23",
        HTTP_USER_AGENT=NAVEGADOR,
    )


def test_creating_a_token_sends_one_notice_with_its_name_origin_and_link_and_no_secret(
    navegante, persona
):
    r = _crear(navegante)
    assert r.status_code == 302
    [aviso] = mail.outbox
    token = TokenPersonal.objects.get(usuario=persona)
    assert aviso.to == [persona.email]
    assert aviso.subject.startswith("Nuevo token personal en su cuenta de ")
    assert aviso.subject.endswith("«Portátil»")
    assert "Se creó el token personal «Portátil» a su nombre" in aviso.body
    assert "Desde la dirección: 198.51.100.23" in aviso.body
    navegador = aviso.body.split("Navegador: ")[1].split("\n")[0]
    assert navegador.startswith("Mozilla/5.0 (X11; Linux x86_64)") and navegador.endswith("…")
    assert len(navegador) <= 120  # shortened
    assert f"{PERFIL}#asistente" in aviso.body
    assert "revóquelo" in aviso.body and "Si no lo reconoce" in aviso.body
    # The secret shown once on the page is nowhere in the mail; only the token's name is.
    secreto = navegante.get("/cuentas/perfil/").context["secreto"]
    assert secreto and token.digest
    for texto in (aviso.subject, aviso.body):
        assert secreto not in texto and token.digest not in texto and token.prefijo not in texto


def test_regenerating_a_token_is_one_more_notice_and_a_refused_creation_none(navegante, persona):
    _crear(navegante)
    token = TokenPersonal.objects.get(usuario=persona)
    navegante.post(
        "/cuentas/perfil/", {"accion": "regenerar", "token_id": token.pk, "confirmado": "si"}
    )
    assert len(mail.outbox) == 2
    assert "«Portátil»" in mail.outbox[1].subject
    navegante.post("/cuentas/perfil/", {"accion": "crear", "nombre": "", "dias": "30"})
    assert len(mail.outbox) == 2  # nothing was created


def test_a_person_without_an_address_gets_no_mail_and_the_token_is_still_made(client):
    persona = UserFactory(username="sincorreo", email="", permisos=["mcp.asistente.usar"])
    client.force_login(persona)
    assert _crear(client).status_code == 302
    assert mail.outbox == [] and TokenPersonal.objects.filter(usuario=persona).count() == 1


def test_the_first_connection_of_an_app_sends_one_notice_and_its_reconnections_none(
    navegante, persona
):
    client_id = registrar(navegante, nombre="Claude").json()["client_id"]
    navegante.defaults.update(REMOTE_ADDR="198.51.100.40", HTTP_USER_AGENT="Navegador/1.0")
    conectar(navegante, client_id)
    [aviso] = mail.outbox
    assert aviso.to == [persona.email]
    assert aviso.subject.startswith("Nueva aplicación conectada a su cuenta de ")
    assert aviso.subject.endswith("«Claude»")
    assert "Usted autorizó a la aplicación «Claude»" in aviso.body
    assert "Desde la dirección: 198.51.100.40" in aviso.body
    assert "Navegador: Navegador/1.0" in aviso.body
    assert f"{PERFIL}#aplicaciones" in aviso.body and "desconéctela" in aviso.body
    # While connected, its next authorization goes straight back: no new access, no notice.
    otra = navegante.get(Pedido(client_id=client_id).url())
    assert otra.status_code == 302 and "code=" in otra["Location"]
    assert len(mail.outbox) == 1
    assert Aplicacion.objects.get(client_id=client_id).nombre_visible == "Claude"


def test_a_denied_consent_sends_nothing(navegante):
    client_id = registrar(navegante, nombre="Claude").json()["client_id"]
    r = aprobar(navegante, Pedido(client_id=client_id), permitir=False)
    assert r.status_code == 302 and "error=access_denied" in r["Location"]
    assert mail.outbox == []


def test_connecting_again_after_disconnecting_is_new_access_and_sends_a_notice(navegante, persona):
    from apps.autorizacion import services as servicios_oauth

    client_id = registrar(navegante, nombre="Claude").json()["client_id"]
    conectar(navegante, client_id)
    aplicacion = Aplicacion.objects.get(client_id=client_id)
    servicios_oauth.desconectar(usuario_id=persona.pk, aplicacion_id=aplicacion.pk)
    conectar(navegante, client_id)
    assert [m.subject.endswith("«Claude»") for m in mail.outbox] == [True, True]
