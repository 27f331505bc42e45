"""The profile's "Aplicaciones conectadas": each OAuth client the person approved, with its name,
verified or not, scopes, first approval and last use, and "Desconectar" (all its tokens at once);
and the "Cómo conectarse" help with the sign-in steps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model

from tests.factories import UserFactory
from tests.mcp.factories import nueva_aplicacion, nuevo_token_oauth

pytestmark = pytest.mark.django_db

URL = "/cuentas/perfil/"


def _ping(secreto: str) -> int:
    return (
        Client()
        .post(
            "/mcp/api/mcp",
            data={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            content_type="application/json",
            headers={"Authorization": f"Bearer {secreto}"},
        )
        .status_code
    )


def _refresco(acceso, **campos):
    """A refresh token beside an access token, as the token endpoint issues them."""
    from oauth2_provider.models import set_token_value

    from apps.autorizacion import tokens

    refresco = get_refresh_token_model()(
        user=acceso.user, application=acceso.application, access_token=acceso, **campos
    )
    set_token_value(refresco, tokens.generar_refresco())
    refresco.save()
    return refresco


def _fila(html: str, aplicacion_id: int) -> str:
    inicio = html.index(f'data-aplicacion="{aplicacion_id}"')
    return html[inicio : html.index("</tr>", inicio)]


def test_the_page_lists_each_connected_application_with_its_details(navegante, persona):
    claude = nueva_aplicacion("Claude", verificada=True)
    extrana = nueva_aplicacion("Asistente <b>raro</b>")
    acceso, secreto = nuevo_token_oauth(persona, aplicacion=claude)
    primera = _refresco(acceso)
    get_refresh_token_model().objects.filter(pk=primera.pk).update(
        created=timezone.now() - timedelta(days=3)
    )
    nuevo_token_oauth(persona, aplicacion=extrana, alcances="asistente:leer")
    assert _ping(secreto) == 200  # notes the last use

    html = navegante.get(URL).content.decode()
    assert "Aplicaciones conectadas" in html
    fila = _fila(html, claude.pk)
    assert "Claude" in fila and "verificada" in fila and "no verificada" not in fila
    assert "Consultar y escribir" in fila
    assert "<code>asistente:leer</code> <code>asistente:escribir</code>" in fila
    hace_tres = timezone.localtime(timezone.now() - timedelta(days=3))
    assert hace_tres.strftime("%d/%m/%Y") in fila  # the staff pages' one date style
    assert "Nunca" not in fila
    otra = _fila(html, extrana.pk)
    assert "no verificada" in otra and "Solo consultar" in otra and "Nunca" in otra
    assert "<b>raro</b>" not in otra and "&lt;b&gt;raro&lt;/b&gt;" in otra  # escaped


def test_applications_without_a_live_token_are_not_listed(navegante, persona):
    nuevo_token_oauth(persona, aplicacion=nueva_aplicacion("Vencida"), segundos=-10)
    html = navegante.get(URL).content.decode()
    assert "No tiene aplicaciones conectadas." in html
    assert "Vencida" not in html


def test_desconectar_revokes_every_token_of_that_application_at_once(navegante, persona):
    claude = nueva_aplicacion("Claude")
    otra = nueva_aplicacion("Otra")
    a1, s1 = nuevo_token_oauth(persona, aplicacion=claude)
    _a2, s2 = nuevo_token_oauth(persona, aplicacion=claude)
    refresco = _refresco(a1)
    _a3, s3 = nuevo_token_oauth(persona, aplicacion=otra)
    assert _ping(s1) == _ping(s2) == 200

    r = navegante.post(URL, {"accion": "desconectar", "aplicacion_id": claude.pk})
    assert r.status_code == 302 and r["Location"] == URL + "#aplicaciones"
    assert _ping(s1) == _ping(s2) == 401
    assert _ping(s3) == 200  # another application stays connected
    refresco.refresh_from_db()
    assert refresco.revoked is not None
    assert not get_access_token_model().objects.filter(application=claude).exists()
    html = navegante.get(URL).content.decode()
    assert "«Claude» quedó desconectada" in html
    assert f'data-aplicacion="{claude.pk}"' not in html
    assert f'data-aplicacion="{otra.pk}"' in html


def test_nobody_disconnects_another_persons_application(client, persona):
    ajena = nueva_aplicacion("Asistente de Camila")
    _acceso, secreto = nuevo_token_oauth(persona, aplicacion=ajena)
    colega = UserFactory(permisos=["mcp.asistente.usar"])
    client.force_login(colega)
    r = client.post(URL, {"accion": "desconectar", "aplicacion_id": ajena.pk})
    assert r.status_code == 404
    assert _ping(secreto) == 200
    assert "Asistente de Camila" not in client.get(URL).content.decode()


@pytest.mark.parametrize("valor", ["", "abc", "999999"])
def test_a_bad_application_id_is_404(navegante, valor):
    assert navegante.post(URL, {"accion": "desconectar", "aplicacion_id": valor}).status_code == 404


def test_desconectar_needs_the_csrf_token(persona):
    claude = nueva_aplicacion("Claude")
    _acceso, secreto = nuevo_token_oauth(persona, aplicacion=claude)
    navegador = Client(enforce_csrf_checks=True)
    navegador.force_login(persona)
    r = navegador.post(URL, {"accion": "desconectar", "aplicacion_id": claude.pk})
    assert r.status_code == 403
    assert _ping(secreto) == 200


def test_the_help_gives_the_sign_in_steps_with_the_public_address(navegante, settings):
    settings.HUB_URL_PUBLICA = "https://hub.entidad.example"
    html = navegante.get(URL).content.decode()
    assert "https://hub.entidad.example/mcp/api/mcp" in html
    for cliente in ("Claude", "ChatGPT", "VS Code", "SDK oficiales"):
        assert cliente in html
    assert "Agregar conector personalizado" in html
    assert "OAuthClientProvider" in html
    assert 'id="config-vscode"' in html  # the header-based settings are still there


def test_with_oauth_switched_off_the_help_shows_only_the_headers(navegante):
    from tests.mcp_cliente import ajustar

    ajustar(oauth_habilitado=False)
    html = navegante.get(URL).content.decode()
    assert "conectar-con-inicio" not in html
    assert 'id="config-vscode"' in html


def test_the_connections_take_five_queries_however_many_applications(
    persona, django_assert_num_queries
):
    from apps.autorizacion import conexiones

    solo_acceso = nueva_aplicacion("Solo acceso")
    nuevo_token_oauth(persona, aplicacion=solo_acceso, alcances="asistente:leer")
    solo_refresco = nueva_aplicacion("Solo refresco")
    vencido, _ = nuevo_token_oauth(persona, aplicacion=solo_refresco, segundos=-10)
    _refresco(vencido)
    for i in range(3):
        acceso, _ = nuevo_token_oauth(persona, aplicacion=nueva_aplicacion(f"Ambos {i}"))
        _refresco(acceso)
    nuevo_token_oauth(persona, aplicacion=nueva_aplicacion("Vencida"), segundos=-10)
    with django_assert_num_queries(5):
        lista = conexiones.conexiones_de(persona)
    por_nombre = {c.nombre: c.alcances for c in lista}
    assert por_nombre == {
        "Solo acceso": ("asistente:leer",),
        "Solo refresco": ("asistente:leer", "asistente:escribir"),
        **{f"Ambos {i}": ("asistente:leer", "asistente:escribir") for i in range(3)},
    }
