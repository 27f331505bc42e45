"""The request page (issue 35, items 1 and 2): every form carries what it was drawn for, so the
same form posted twice acts once and the second answers 409 «La solicitud cambió mientras usted
la veía» with nothing done; a signature stage offers «Firmar…», whose page shows the text being
signed and asks for the password again (a wrong one: 422, nothing done, counted by the sign-in
brake)."""

from __future__ import annotations

import html
import re

import pytest

from apps.cuentas import intentos
from apps.solicitudes import services
from apps.solicitudes.models import Accion, Comentario, Estado, Evento, Solicitud, Tarea
from tests.factories import CONTRASENA
from tests.solicitudes.factories import lo_que_envia, persona

pytestmark = pytest.mark.django_db

CAMBIO = "La solicitud cambió mientras usted la veía"


def _plano(r) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.content.decode())).split())


def _campo(r, nombre: str) -> str:
    """The value of a hidden input of the page."""
    return html.unescape(re.search(rf'name="{nombre}" value="([^"]*)"', r.content.decode())[1])


def _foto(s: Solicitud) -> tuple:
    s.refresh_from_db()
    return (
        s.estado,
        s.etapa_actual_id,
        s.version,
        list(Tarea.objects.filter(solicitud=s).values_list("pk", "asignada_a_id")),
        Evento.objects.filter(solicitud=s).count(),
        Comentario.objects.filter(solicitud=s).count(),
    )


def _en_la_etapa_de_firma(flujo) -> Solicitud:
    s = flujo.radicar()
    s = services.avanzar(solicitud=s, actor=flujo.responsables[0])
    return services.avanzar(solicitud=s, actor=flujo.responsables[1])


def test_the_page_draws_its_forms_for_the_requests_current_version(client, flujo):
    s = flujo.radicar()
    client.force_login(flujo.responsables[0])
    r = client.get(s.enlace)
    assert r.content.decode().count(f'name="version" value="{s.version}"') >= 3
    assert re.search(r'name="nonce" value="[A-Za-z0-9_-]{22}"', r.content.decode())


@pytest.mark.parametrize("accion", ["avanzar", "tomar", "reanudar"])
def test_the_same_form_posted_twice_acts_once_and_the_second_is_409(client, flujo, accion):
    s = flujo.radicar()
    if accion == "reanudar":
        s = services.marcar_atencion(solicitud=s, actor=flujo.responsables[0], motivo="Revisar")
    client.force_login(persona(flujo.roles[0]))  # a colleague of the role, task unassigned
    datos = {"csrfmiddlewaretoken": "x", "version": _campo(client.get(s.enlace), "version")}
    assert client.post(f"{s.enlace}/{accion}", datos).status_code == 302
    despues = _foto(s)
    r = client.post(f"{s.enlace}/{accion}", datos)
    assert r.status_code == 409
    texto = _plano(r)
    assert CAMBIO in texto
    assert "Ver la solicitud como está ahora" in texto
    assert s.get_estado_display() in texto  # what it looks like now
    assert _foto(s) == despues


def test_a_stage_action_posted_without_the_version_its_form_carries_does_nothing(client, flujo):
    s = flujo.radicar()
    client.force_login(flujo.responsables[0])
    antes = _foto(s)
    malas = ("abc", "١", "\x00", "9" * 40, str(s.version + 1))
    for datos in ({}, *({"version": v} for v in malas)):
        r = client.post(f"{s.enlace}/avanzar", datos)
        assert r.status_code == 409
        assert CAMBIO in _plano(r)
    assert _foto(s) == antes


def test_a_confirmed_rejection_drawn_before_a_change_is_409(client, flujo):
    s = flujo.radicar()
    r1 = flujo.responsables[0]
    client.force_login(r1)
    version = _campo(client.get(f"{s.enlace}/rechazar"), "version")
    services.marcar_atencion(solicitud=s, actor=r1, motivo="Otra persona la marcó")
    antes = _foto(s)
    datos = {"motivo": "No cumple los requisitos", "confirmar": "si", "version": version}
    assert client.post(f"{s.enlace}/rechazar", datos).status_code == 409
    assert _foto(s) == antes


def test_the_same_comment_form_posted_twice_stores_one_comment(client, flujo):
    s = flujo.radicar()
    client.force_login(flujo.solicitante)
    datos = {"texto": "¿Me confirman el trámite?", "nonce": _campo(client.get(s.enlace), "nonce")}
    assert client.post(f"{s.enlace}/comentar", datos).status_code == 302
    r = client.post(f"{s.enlace}/comentar", datos)
    assert r.status_code == 409
    assert "Ese comentario ya quedó publicado y no se guardó otra vez." in _plano(r)
    assert Comentario.objects.filter(solicitud=s).count() == 1
    assert client.post(f"{s.enlace}/comentar", {"texto": "Sin formulario"}).status_code == 409
    datos = {"texto": "Con un nonce roto", "nonce": "a\x00" * 10}
    assert client.post(f"{s.enlace}/comentar", datos).status_code == 409
    assert Comentario.objects.filter(solicitud=s).count() == 1


def test_a_comment_refused_for_its_text_keeps_its_nonce_until_it_is_used(client, flujo):
    s = flujo.radicar()
    client.force_login(flujo.solicitante)
    nonce = _campo(client.get(s.enlace), "nonce")
    r = client.post(f"{s.enlace}/comentar", {"texto": "   ", "nonce": nonce})
    assert r.status_code == 422
    assert _campo(r, "nonce") == nonce
    assert (
        client.post(f"{s.enlace}/comentar", {"texto": "Ahora sí", "nonce": nonce}).status_code
        == 302
    )
    assert Comentario.objects.get(solicitud=s).nonce == nonce


def test_a_signature_stage_offers_signing_and_not_approving(client, flujo):
    s = _en_la_etapa_de_firma(flujo)
    client.force_login(flujo.responsables[2])
    texto = _plano(client.get(s.enlace))
    assert "Firmar…" in texto
    assert "Aprobar la solicitud" not in texto and "Completar la etapa" not in texto
    antes = _foto(s)
    for accion in ("aprobar", "avanzar"):
        r = client.post(f"{s.enlace}/{accion}", lo_que_envia(s))
        assert r.status_code == 409
        assert "se completa con la firma de su responsable" in _plano(r)
    assert _foto(s) == antes


def test_the_signing_page_shows_the_text_and_asks_for_the_password_again(client, flujo):
    s = _en_la_etapa_de_firma(flujo)
    firmante = flujo.responsables[2]
    client.force_login(firmante)
    r = client.get(f"{s.enlace}/firmar")
    assert r.status_code == 200
    firmado = services.texto_de_firma(s)
    texto = _plano(r)
    assert f"Firmar la etapa «{s.etapa_actual.nombre}»" in texto
    assert firmado in texto
    assert "Es la última etapa: al firmar, la solicitud queda aprobada." in texto
    assert 'type="password" id="contrasena" name="contrasena"' in r.content.decode()
    assert 'autocomplete="current-password"' in r.content.decode()

    datos = {
        "contrasena": CONTRASENA,
        "version": _campo(r, "version"),
        "texto": _campo(r, "texto"),
    }
    r = client.post(f"{s.enlace}/firmar", datos)
    assert r.status_code == 302 and r["Location"] == s.enlace
    s.refresh_from_db()
    assert s.estado == Estado.APROBADO
    firma = Evento.objects.get(solicitud=s, accion=Accion.FIRMADA)
    assert firma.actor == firmante and firmado in firma.descripcion
    historial = _plano(client.get(s.enlace))
    assert (
        f"Firmada. {firmante.nombre_visible} firmó con su contraseña. Texto firmado:" in historial
    )
    # The same signing form again: the request is approved, nothing is left to sign.
    r = client.post(f"{s.enlace}/firmar", datos)
    assert r.status_code == 403
    assert Evento.objects.filter(solicitud=s, accion=Accion.FIRMADA).count() == 1


def test_a_wrong_password_re_renders_the_signing_page_with_its_error_and_does_nothing(
    client, flujo
):
    s = _en_la_etapa_de_firma(flujo)
    client.force_login(flujo.responsables[2])
    r = client.get(f"{s.enlace}/firmar")
    antes = _foto(s)
    datos = {"contrasena": "no-es-la-clave", "version": _campo(r, "version")}
    datos["texto"] = _campo(r, "texto")
    r = client.post(f"{s.enlace}/firmar", datos)
    assert r.status_code == 422
    assert "La contraseña no es correcta." in _plano(r)
    assert 'value="no-es-la-clave"' not in r.content.decode()  # never echoed back
    assert _foto(s) == antes


def test_wrong_passwords_at_signing_count_against_the_sign_in_brake(client, flujo):
    s = _en_la_etapa_de_firma(flujo)
    firmante = flujo.responsables[2]
    client.force_login(firmante)
    r = client.get(f"{s.enlace}/firmar")
    datos = {"version": _campo(r, "version"), "texto": _campo(r, "texto")}
    for _ in range(intentos.POR_CUENTA):
        assert client.post(f"{s.enlace}/firmar", {**datos, "contrasena": "mala"}).status_code == 422
    # Spent: even the right password is refused before it is checked, and nothing is signed.
    r = client.post(f"{s.enlace}/firmar", {**datos, "contrasena": CONTRASENA})
    assert r.status_code == 429
    assert "Demasiados intentos" in _plano(r)
    s.refresh_from_db()
    assert s.estado == Estado.EN_TRAMITE
    # The sign-in page of the same account from the same address is refused too.
    ingreso = client.post(
        "/cuentas/login/", {"username": firmante.username, "password": CONTRASENA}
    )
    assert ingreso.status_code == 429


def test_the_signing_page_is_refused_to_whom_may_not_sign(client, flujo):
    s = _en_la_etapa_de_firma(flujo)
    antes = _foto(s)
    # Who took part in an earlier stage sees the request but may not sign; a stranger, 404.
    for quien, estado in ((flujo.responsables[1], 403), (persona(flujo.roles[0]), 404)):
        client.force_login(quien)
        assert client.get(f"{s.enlace}/firmar").status_code == estado
        r = client.post(f"{s.enlace}/firmar", {**lo_que_envia(s), "contrasena": CONTRASENA})
        assert r.status_code == estado
    assert _foto(s) == antes
    # A stage without a signature has no signing page.
    otra = flujo.radicar()
    client.force_login(flujo.responsables[0])
    assert client.get(f"{otra.enlace}/firmar").status_code == 403
