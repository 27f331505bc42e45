"""Passwords and password-reset links rest nowhere in clear: signing in (right and wrong), the
reset by e-mail and an administrator's password change leave them in no log line (every logger
at DEBUG), session, cache entry, admin history or answer, and every page that handles them keeps
them out of error reports (sensitive_post_parameters)."""

from __future__ import annotations

import io
import logging
import re
import runpy
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.test import Client
from gunicorn.config import Config

from apps.cuentas.views import NuevaContrasenaView
from hub.observabilidad import logs
from tests.factories import UserFactory
from tests.procesos import RAIZ
from tests.seguridad import sesiones, textos_de_fila, volcado_cache

pytestmark = pytest.mark.django_db

NUEVA = "Otra-clave-Segura-2026!"
DEL_ADMIN = "Clave-que-Pone-El-Admin-77"
EQUIVOCADA = "Equivocada-Pero-Secreta-55"


def _enlace(mensaje) -> str:
    return re.search(r"http://testserver(/cuentas/clave/[^/\s]+/[^/\s]+/)", mensaje.body).group(1)


def test_no_password_nor_reset_link_reaches_a_log_a_session_the_cache_or_an_answer(
    admin_client, todo
):
    manejador, caplog = todo
    client = Client()  # admin_client is pytest-django's `client`, signed in
    persona = UserFactory(username="camila_seg", email="camila.seg@entidad.gov.co")
    respuestas: list[str] = []

    # A wrong password, then the reset by e-mail, then the new password.
    r = client.post("/cuentas/login/", {"username": "camila_seg", "password": EQUIVOCADA})
    assert r.status_code == 200
    respuestas.append(r.content.decode())
    r = client.post("/cuentas/clave/olvido/", {"email": "camila.seg@entidad.gov.co"})
    assert r.status_code == 302
    enlace = _enlace(mail.outbox[-1])
    token_reinicio = enlace.rstrip("/").rsplit("/", 1)[1]
    formulario = client.get(enlace, follow=True)
    destino = formulario.redirect_chain[-1][0]
    assert token_reinicio not in destino  # Django moves it out of the address at once
    r = client.post(destino, {"new_password1": NUEVA, "new_password2": NUEVA + "x"})
    assert r.status_code == 200
    respuestas.append(r.content.decode())
    r = client.post(destino, {"new_password1": NUEVA, "new_password2": NUEVA})
    assert r.status_code == 302
    r = client.post("/cuentas/login/", {"username": "camila_seg", "password": NUEVA})
    assert r.status_code == 302
    client.logout()

    # An administrator sets another password in the admin (a mismatch first).
    url = f"/admin/cuentas/user/{persona.pk}/password/"
    r = admin_client.post(url, {"password1": DEL_ADMIN, "password2": DEL_ADMIN + "x"})
    assert r.status_code == 200
    respuestas.append(r.content.decode())
    r = admin_client.post(url, {"password1": DEL_ADMIN, "password2": DEL_ADMIN})
    assert r.status_code == 302
    persona.refresh_from_db()
    assert persona.check_password(DEL_ADMIN)

    secretos = {
        "contraseña equivocada": EQUIVOCADA,
        "contraseña nueva": NUEVA,
        "contraseña del admin": DEL_ADMIN,
        "enlace de restablecimiento": token_reinicio,
    }
    assert manejador.registros
    textos_logs = [*manejador.textos(), caplog.text]
    historial = [textos_de_fila(f) for f in LogEntry.objects.all()]
    assert historial
    cache = volcado_cache()
    fugas = []
    for nombre, secreto in secretos.items():
        for donde, textos in [
            ("log", textos_logs),
            ("sesión", sesiones()),
            ("historial del admin", historial),
            ("respuesta", respuestas),
        ]:
            for texto in textos:
                if secreto in texto:
                    i = texto.index(secreto)
                    fugas.append(f"{nombre} aparece en {donde}: {texto[max(i - 100, 0) : i + 60]}")
        for valor in cache:
            if secreto.encode() in valor:
                fugas.append(f"{nombre} aparece en la caché: {valor[:160]!r}")
    assert fugas == [], "\n".join(sorted(set(fugas)))


def test_a_logged_path_hides_a_reset_token_and_a_credential_and_keeps_everything_else():
    from apps.mcp.secretos import PREFIJO_TOKEN
    from hub.secretos import generar

    token = generar(PREFIJO_TOKEN)
    assert logs.sin_secretos("/cuentas/clave/Mg/dil3tb-98d1929ed9e006fbd6ea5e2c33710a32/") == (
        "/cuentas/clave/Mg/[oculto]/"
    )
    assert logs.sin_secretos(f"/x/{token}") == "/x/[oculto]"
    assert logs.sin_secretos(f"GET /x/{token} 302") == "GET /x/[oculto] 302"
    for comun in (
        "/cuentas/clave/Mg/set-password/",
        "/presupuesto/verificar/1b4e28ba-2fa1-41d2-883f-0016d3cca427",
        "/api/v1/solicitudes/SOL-2026-000123",
        "/mcp/api/mcp",
    ):
        assert logs.sin_secretos(comun) == comun


def test_gunicorns_access_line_hides_the_token_of_a_reset_link_too():
    conf = runpy.run_path(str(RAIZ / "gunicorn.conf.py"))
    registro = conf["logger_class"](Config())
    ruta = "/cuentas/clave/Mg/dil3tb-98d1929ed9e006fbd6ea5e2c33710a32/"
    entorno = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": ruta,
        "PATH_INFO": ruta,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "203.0.113.9",
    }
    respuesta = SimpleNamespace(status="302 Found", headers=[], sent=0)
    peticion = SimpleNamespace(headers=[("X-FORWARDED-FOR", "198.51.100.7")])
    atomos = registro.atoms(respuesta, peticion, entorno, timedelta(0))
    assert atomos["U"] == "/cuentas/clave/Mg/[oculto]/"
    assert atomos["r"] == "GET /cuentas/clave/Mg/[oculto]/ HTTP/1.1"
    linea = conf["access_log_format"] % atomos  # the line gunicorn writes, as it formats it
    assert "dil3tb" not in linea and "[oculto]" in linea


def test_a_failure_on_a_reset_link_is_written_to_the_console_without_its_token(monkeypatch):
    UserFactory(username="camila_500", email="camila.500@entidad.gov.co")
    client = Client(raise_request_exception=False)
    client.post("/cuentas/clave/olvido/", {"email": "camila.500@entidad.gov.co"})
    enlace = _enlace(mail.outbox[-1])

    def falla(*args, **kwargs):
        raise RuntimeError("falla de prueba")

    monkeypatch.setattr(NuevaContrasenaView, "dispatch", falla)
    [consola] = [h for h in logging.getLogger().handlers if h.get_name() == "console"]
    salida = io.StringIO()
    anterior = consola.setStream(salida)
    try:
        assert client.get(enlace).status_code == 500
    finally:
        consola.setStream(anterior)
    escrito = salida.getvalue()
    token = enlace.rstrip("/").rsplit("/", 1)[1]
    assert "Internal Server Error: /cuentas/clave/" in escrito  # django.request's own line
    assert token not in escrito and "[oculto]" in escrito
