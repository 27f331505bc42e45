"""Admin of the assistant: API keys shown exactly once, tokens revocable, settings editable."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from apps.mcp import services
from apps.mcp.models import AjustesAsistente, ClaveApi, TokenPersonal
from hub import secretos
from tests.factories import GroupFactory, UserFactory, permiso
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import rpc

pytestmark = pytest.mark.django_db

PATRON_CLAVE = re.compile(r"sgiapi_[0-9A-Za-z]{38}")


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(username="admin_t", is_staff=True, is_superuser=True))
    return client


def _nueva_clave(administra, nombre="Chat institucional", fecha="", hora="", **extra):
    return administra.post(
        "/admin/mcp/claveapi/add/", {"nombre": nombre, "vence_0": fecha, "vence_1": hora, **extra}
    )


def test_a_new_api_key_is_shown_exactly_once_after_a_redirect_and_works(administra):
    r = _nueva_clave(administra)
    clave = ClaveApi.objects.get()
    assert r.status_code == 302
    assert r["Location"] == f"/admin/mcp/claveapi/{clave.pk}/creada/"
    assert not PATRON_CLAVE.search(r.content.decode())
    creada = administra.get(r["Location"])
    assert "no-store" in creada["Cache-Control"]
    [secreto] = set(PATRON_CLAVE.findall(creada.content.decode()))
    assert clave.nombre == "Chat institucional"
    assert clave.digest == secretos.huella(secreto)
    assert clave.creada_por.username == "admin_t"
    for pagina in ("/admin/mcp/claveapi/", f"/admin/mcp/claveapi/{clave.pk}/change/"):
        html = administra.get(pagina).content.decode()
        assert secreto not in html and clave.digest not in html
        assert clave.prefijo in html
    assert rpc(administra, "ping", **{"X-MCP-Api-Key": secreto}).status == 200


def test_reloading_the_key_created_page_shows_nothing_and_creates_nothing(administra):
    r = _nueva_clave(administra)
    assert PATRON_CLAVE.search(administra.get(r["Location"]).content.decode())
    recarga = administra.get(r["Location"])
    html = recarga.content.decode()
    assert recarga.status_code == 200
    assert not PATRON_CLAVE.search(html)
    assert 'id="ya-mostrada"' in html and "revóquela y cree otra" in html
    assert ClaveApi.objects.count() == 1


def test_the_new_key_rests_nowhere_in_clear(administra, caplog):
    from django.contrib.sessions.models import Session

    with caplog.at_level(logging.DEBUG):
        r = _nueva_clave(administra)
        guardado = [repr(s.get_decoded()) + s.session_data for s in Session.objects.all()]
        secreto = PATRON_CLAVE.search(administra.get(r["Location"]).content.decode()).group(0)
    assert not any(secreto in texto for texto in guardado)
    assert not any(secreto in repr(s.get_decoded()) for s in Session.objects.all())
    assert all(secreto not in registro.getMessage() for registro in caplog.records)
    assert secreto not in repr(list(LogEntry.objects.values()))


def test_a_new_key_expires_after_the_default_period_unless_another_date_is_chosen(
    administra, settings
):
    formulario = administra.get("/admin/mcp/claveapi/add/").content.decode()
    por_defecto = timezone.localdate() + timedelta(days=settings.HUB_CLAVE_API_DIAS)
    assert f'value="{por_defecto:%d/%m/%Y}"' in formulario or por_defecto.isoformat() in formulario
    _nueva_clave(administra, nombre="Sin fecha")
    sin_fecha = ClaveApi.objects.get(nombre="Sin fecha")
    esperado = timezone.now() + timedelta(days=settings.HUB_CLAVE_API_DIAS)
    assert abs(sin_fecha.vence - esperado) < timedelta(minutes=1)
    futura = timezone.localdate() + timedelta(days=30)
    _nueva_clave(administra, nombre="Con fecha", fecha=futura.isoformat(), hora="08:00")
    assert timezone.localtime(ClaveApi.objects.get(nombre="Con fecha").vence).date() == futura


def test_the_default_period_is_a_setting(administra, settings):
    settings.HUB_CLAVE_API_DIAS = 30
    _nueva_clave(administra)
    vence = ClaveApi.objects.get().vence
    assert abs(vence - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)


def test_an_expiry_in_the_past_is_refused_and_nothing_is_created(administra):
    ayer = timezone.localdate() - timedelta(days=1)
    r = _nueva_clave(administra, fecha=ayer.isoformat(), hora="10:00")
    assert r.status_code == 200
    assert "La fecha de vencimiento ya pasó: elija una fecha futura." in r.content.decode()
    assert not ClaveApi.objects.exists()


def test_an_existing_key_cannot_be_given_a_past_expiry_but_keeps_its_own(administra):
    clave, _ = nueva_clave(nombre="Vieja", vence=timezone.now() - timedelta(days=1))
    url = f"/admin/mcp/claveapi/{clave.pk}/change/"
    vence = timezone.localtime(clave.vence)
    r = administra.post(
        url,
        {
            "nombre": "Vieja renombrada",
            "vence_0": vence.date().isoformat(),
            "vence_1": f"{vence:%H:%M:%S}",
        },
    )
    assert r.status_code == 302  # unchanged expiry: the rename is accepted
    ayer = timezone.localdate() - timedelta(days=2)
    r = administra.post(url, {"nombre": "Vieja", "vence_0": ayer.isoformat(), "vence_1": "10:00"})
    assert r.status_code == 200
    assert "ya pasó" in r.content.decode()


def test_the_key_list_shows_status_and_last_use_and_filters_by_status(administra):
    nueva_clave(nombre="Activa")
    revocada, _ = nueva_clave(nombre="Revocada")
    services.revocar_claves(ids=[revocada.pk])
    html = administra.get("/admin/mcp/claveapi/").content.decode()
    assert '<span class="estado-credencial activo">activo</span>' in html
    assert '<span class="estado-credencial revocado">revocado</span>' in html
    assert "último uso" in html.lower()
    filtrada = administra.get("/admin/mcp/claveapi/?estado=revocado")
    assert [c.nombre for c in filtrada.context["cl"].result_list] == ["Revocada"]


def test_api_keys_are_revoked_not_deleted(administra):
    clave, secreto = nueva_clave()
    elegida = {"action": "revocar", "_selected_action": [clave.pk]}
    # First a confirmation page that changes nothing; then the revocation.
    pregunta = administra.post("/admin/mcp/claveapi/", elegida)
    assert pregunta.status_code == 200
    assert 'name="confirmado" value="si"' in pregunta.content.decode()
    clave.refresh_from_db()
    assert clave.estado == "activo"
    r = administra.post("/admin/mcp/claveapi/", {**elegida, "confirmado": "si"})
    assert r.status_code == 302
    assert "Se revocó 1 clave." in administra.get(r.url).content.decode()
    clave.refresh_from_db()
    assert clave.estado == "revocado"
    assert rpc(administra, "ping", **{"X-MCP-Api-Key": secreto}).status == 401
    assert administra.get(f"/admin/mcp/claveapi/{clave.pk}/delete/").status_code == 403


def test_personal_tokens_are_listed_without_secrets_and_can_be_revoked(administra):
    persona = UserFactory(permisos=["mcp.asistente.usar"])
    token, secreto = nuevo_token(persona)
    html = administra.get("/admin/mcp/tokenpersonal/").content.decode()
    assert token.prefijo in html and secreto not in html and token.digest not in html
    assert administra.get("/admin/mcp/tokenpersonal/add/").status_code == 403
    otro, _ = nuevo_token(persona)
    r = administra.post(
        "/admin/mcp/tokenpersonal/",
        {"action": "revocar", "_selected_action": [token.pk, otro.pk], "confirmado": "si"},
    )
    assert "Se revocaron 2 tokens." in administra.get(r.url).content.decode()
    token.refresh_from_db()
    assert token.estado == "revocado"


def datos_de_ajustes(**cambios):
    datos = {
        "escrituras_habilitadas": "",
        "herramientas_publicas": ["buscar_documento"],
        "permitir_token_solo": "on",
        "token_max_dias": "30",
        "confirmacion_segundos_0": "2",  # lifetimes in minutes, hours or days
        "confirmacion_segundos_1": "minutos",
        "origenes_permitidos": "https://asistente.entidad.gov.co\n",
        "integracion_por_minuto": "100",
        "usuario_por_minuto": "50",
        "escrituras_por_minuto": "3",
        "verificaciones_fallidas_por_hora": "5",
        "oauth_habilitado": "on",
        "oauth_registro_abierto": "on",
        "oauth_cimd_dominios": "",
        "oauth_acceso_segundos_0": "1",
        "oauth_acceso_segundos_1": "horas",
        "oauth_refresco_dias": "30",
    }
    datos.update(cambios)
    return datos


URL_AJUSTES = "/admin/mcp/ajustesasistente/1/change/"


def test_the_settings_list_opens_the_one_form(administra):
    r = administra.get("/admin/mcp/ajustesasistente/")
    assert r.status_code == 302 and r["Location"] == URL_AJUSTES


def test_the_settings_are_edited_in_the_admin_and_apply_at_once(administra):
    AjustesAsistente.cargar()
    html = administra.get(URL_AJUSTES).content.decode()
    # Checkboxes of the tools that may be public, and origins one per line: no JSON for people.
    publicas = re.findall(
        r'<input type="checkbox" name="herramientas_publicas" value="(\w+)"', html
    )
    assert publicas == ["buscar_documento", "estado_solicitud"]
    assert re.search(r'<textarea name="origenes_permitidos"[^>]*>\s*</textarea>', html)
    r = administra.post(URL_AJUSTES, datos_de_ajustes())
    assert r.status_code == 302
    ajustes = AjustesAsistente.cargar()
    assert ajustes.herramientas_publicas == ["buscar_documento"]
    assert ajustes.origenes_permitidos == ["https://asistente.entidad.gov.co"]
    assert ajustes.escrituras_habilitadas is False and ajustes.usuario_por_minuto == 50
    assert (
        "Los ajustes del asistente se guardaron correctamente."
        in administra.get(r["Location"]).content.decode()
    )


def test_a_tool_that_may_not_be_public_is_refused(administra):
    AjustesAsistente.cargar()
    malo = administra.post(URL_AJUSTES, datos_de_ajustes(herramientas_publicas=["mis_tareas"]))
    assert malo.status_code == 200
    assert "Escoja una opción válida" in malo.content.decode()
    assert AjustesAsistente.cargar().herramientas_publicas == [
        "estado_solicitud",
        "buscar_documento",
    ]


def test_origins_are_written_one_per_line_and_stored_as_browsers_send_them(administra):
    AjustesAsistente.cargar()
    texto = "HTTPS://Asistente.Entidad.gov.co:443/\n\nhttp://localhost:6274\nhttps://asistente.entidad.gov.co"
    respuesta = administra.post(URL_AJUSTES, datos_de_ajustes(origenes_permitidos=texto))
    assert respuesta.status_code == 302
    assert AjustesAsistente.cargar().origenes_permitidos == [
        "https://asistente.entidad.gov.co",
        "http://localhost:6274",
    ]
    html = administra.get(URL_AJUSTES).content.decode()
    assert "https://asistente.entidad.gov.co\nhttp://localhost:6274</textarea>" in html


@pytest.mark.parametrize(
    "origen",
    [
        "asistente.entidad.gov.co",
        "ftp://asistente.entidad.gov.co",
        "https://asistente.entidad.gov.co/ruta",
        "https://usuario:clave@asistente.entidad.gov.co",
        "https://asistente.entidad.gov.co?x=1",
        "https://asistente.entidad.gov.co:99999",
        '["https://asistente.entidad.gov.co"]',
    ],
)
def test_anything_but_an_origin_is_refused_with_its_line(administra, origen):
    AjustesAsistente.cargar()
    r = administra.post(
        URL_AJUSTES, datos_de_ajustes(origenes_permitidos=f"https://ok.gov.co\n{origen}")
    )
    assert r.status_code == 200
    html = unescape(r.content.decode())
    assert f"Línea 2: «{origen}» no es un origen" in html
    assert "un JSON válido" not in html
    assert AjustesAsistente.cargar().origenes_permitidos == []


def test_the_settings_cannot_be_deleted_or_duplicated(administra):
    AjustesAsistente.cargar()
    assert administra.get("/admin/mcp/ajustesasistente/add/").status_code == 403
    assert administra.get("/admin/mcp/ajustesasistente/1/delete/").status_code == 403


def test_the_token_list_shows_tokens_whose_owner_has_no_access_as_not_usable(administra):
    con_acceso = UserFactory(username="andres", permisos=["mcp.asistente.usar"])
    sin_acceso = UserFactory(username="lucia")
    por_rol = UserFactory(username="paula")
    rol = GroupFactory(name="Usuarios del asistente")
    rol.permissions.add(permiso("mcp.asistente.usar"))
    por_rol.groups.add(rol)
    bloqueado = UserFactory(username="jorge", is_active=False, permisos=["mcp.asistente.usar"])
    tokens = {
        "andres": nuevo_token(con_acceso)[0],
        "lucia": nuevo_token(sin_acceso)[0],
        "paula": nuevo_token(por_rol)[0],
        "jorge": nuevo_token(bloqueado)[0],
    }
    r = administra.get("/admin/mcp/tokenpersonal/")
    html = r.content.decode()
    filas = {f.pk: f for f in r.context["cl"].result_list}
    for nombre, utilizable in (
        ("andres", True),
        ("paula", True),
        ("lucia", False),
        ("jorge", False),
    ):
        assert filas[tokens[nombre].pk].usuario_con_acceso is utilizable, nombre
    assert html.count("no utilizable (sin acceso)") == 2
    no_utilizables = administra.get("/admin/mcp/tokenpersonal/?estado=no_utilizable")
    assert {t.pk for t in no_utilizables.context["cl"].result_list} == {
        tokens["lucia"].pk,
        tokens["jorge"].pk,
    }


def test_a_token_row_never_holds_the_secret(administra):
    token, secreto = nuevo_token(UserFactory(permisos=["mcp.asistente.usar"]))
    fila = TokenPersonal.objects.filter(pk=token.pk).values().get()
    assert secreto not in repr(fila)
