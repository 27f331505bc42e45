"""OAuth secrets rest nowhere in clear: a client secret, an authorization code, an access and a
refresh token made and used through the real endpoints leave no trace in any log line (with
HUB_LOG_LEVEL=DEBUG), session, cache entry, audit row, admin history, error answer, nor in the
library's own tables, whose `token` column stays empty (only the SHA-256 `token_checksum`)."""

from __future__ import annotations

import base64
import json
import logging

import pytest
from django.contrib.admin.models import LogEntry
from oauth2_provider.models import AccessToken, Grant, RefreshToken

from apps.autorizacion.models import Aplicacion, CanjeCodigo
from apps.mcp.models import RegistroAuditoria
from hub.secretos import huella
from tests.autorizacion.flujo import Pedido, aprobar, canjear, consulta, refrescar, registrar
from tests.factories import UserFactory
from tests.mcp_cliente import URL
from tests.seguridad import Todo, sesiones, textos_de_fila, volcado_cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def depuracion(caplog):
    """The logs as HUB_LOG_LEVEL=DEBUG leaves them: the root at DEBUG, every logger that the
    settings pin (LOGGING["loggers"]) at its own level, every record formatted as production
    writes it."""
    caplog.set_level(logging.DEBUG)
    manejador = Todo()
    raiz = logging.getLogger()
    aislados = [
        logging.getLogger(n)
        for n, lg in logging.root.manager.loggerDict.items()
        if isinstance(lg, logging.Logger) and not lg.propagate
    ]
    for logger in [raiz, *aislados]:
        logger.addHandler(manejador)
    yield manejador, caplog
    for logger in [raiz, *aislados]:
        logger.removeHandler(manejador)


def _tablas() -> list[str]:
    return [
        textos_de_fila(f)
        for modelo in (AccessToken, RefreshToken, Grant, CanjeCodigo, Aplicacion)
        for f in modelo.objects.all()
    ]


def _respuesta(r) -> str:
    cabeceras = " ".join(f"{k}: {v}" for k, v in r.items())
    return f"{r.status_code} {cabeceras} {r.content.decode('utf-8', 'replace')}"


def _mcp(client, metodo: str, params: dict | None = None, **cabeceras):
    cuerpo = {"jsonrpc": "2.0", "id": 1, "method": metodo, "params": params or {}}
    return client.post(
        URL, data=json.dumps(cuerpo), content_type="application/json", headers=cabeceras
    )


def test_no_oauth_secret_reaches_a_log_a_session_the_cache_a_table_or_an_error_text(
    client, depuracion
):
    manejador, caplog = depuracion
    persona = UserFactory(username="ana_secretos", permisos=["mcp.asistente.usar"])
    errores: list[str] = []

    # 1. A confidential client registers itself: its secret is in the 201, and only there.
    r = registrar(client, nombre="Cliente seguro", token_endpoint_auth_method="client_secret_post")
    assert r.status_code == 201 and r["Cache-Control"] == "no-store"
    client_id, secreto_cliente = r.json()["client_id"], r.json()["client_secret"]
    assert len(secreto_cliente) >= 30

    # 2. The person approves it; the code comes back in the redirect to the client.
    client.force_login(persona)
    pedido = Pedido(client_id=client_id)
    r = aprobar(client, pedido)
    assert r.status_code == 302
    codigo = consulta(r["Location"])["code"]
    assert Grant.objects.filter(code=codigo).exists()

    # 3. A wrong secret, then the exchange, then a replay of the code.
    # Its last character changed (to "x", or "y" if it was "x": 1 run in 60 sent the real one).
    otro = "y" if secreto_cliente.endswith("x") else "x"
    r = canjear(client, pedido, codigo, client_secret=secreto_cliente[:-1] + otro)
    assert r.status_code == 401
    errores.append(_respuesta(r))
    r = canjear(client, pedido, codigo, client_secret=secreto_cliente)
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    primeros = r.json()
    r = canjear(client, pedido, codigo, client_secret=secreto_cliente)
    assert r.status_code == 400
    errores.append(_respuesta(r))

    # 4. A second connection (the first was revoked by the replay): tokens, a call, a refresh.
    pedido = Pedido(client_id=client_id)
    segundo_codigo = consulta(aprobar(client, pedido)["Location"])["code"]
    r = canjear(client, pedido, segundo_codigo, client_secret=secreto_cliente)
    assert r.status_code == 200
    tokens = r.json()
    client.logout()
    acceso, refresco = tokens["access_token"], tokens["refresh_token"]
    r = _mcp(client, "tools/list", Authorization=f"Bearer {acceso}")
    assert r.status_code == 200, r.content
    r = _mcp(
        client,
        "tools/call",
        {"name": "buscar_ayuda", "arguments": {"pregunta": f"¿qué hago con {acceso}?"}},
        Authorization=f"Bearer {acceso}",
    )
    assert r.status_code == 200, r.content
    r = refrescar(client, client_id, refresco, client_secret=secreto_cliente)
    assert r.status_code == 200
    rotados = r.json()
    # The tables while the connection lives (revocation below deletes the access tokens).
    assert AccessToken.objects.count() == 1 and RefreshToken.objects.count() == 3
    assert AccessToken.objects.filter(token_checksum=huella(rotados["access_token"])).exists()
    assert {f.token for f in [*AccessToken.objects.all(), *RefreshToken.objects.all()]} == {""}
    tablas = _tablas()

    # 5. Refused: the old refresh token again, tampered and revoked access tokens.
    r = refrescar(client, client_id, refresco, client_secret=secreto_cliente)
    assert r.status_code == 400
    errores.append(_respuesta(r))
    alterado = rotados["access_token"][:-1] + ("A" if rotados["access_token"][-1] != "A" else "B")
    for malo in (alterado, acceso, primeros["access_token"], rotados["refresh_token"]):
        r = _mcp(client, "tools/list", Authorization=f"Bearer {malo}")
        assert r.status_code == 401, r.content
        errores.append(_respuesta(r))
    basica = base64.b64encode(f"{client_id}:{secreto_cliente}x".encode()).decode()
    r = client.post(
        "/oauth/revoke",
        {"token": rotados["refresh_token"]},
        headers={"Authorization": f"Basic {basica}"},
    )
    errores.append(_respuesta(r))
    r = client.post(
        "/oauth/revoke",
        {
            "token": rotados["refresh_token"],
            "client_id": client_id,
            "client_secret": secreto_cliente,
        },
    )
    assert r.status_code == 200

    # The scan.
    secretos = {
        "secreto del cliente": secreto_cliente,
        "código": codigo,
        "segundo código": segundo_codigo,
        "token de acceso": acceso,
        "token de refresco": refresco,
        "token de acceso rotado": rotados["access_token"],
        "token de refresco rotado": rotados["refresh_token"],
        "primer token de acceso": primeros["access_token"],
    }
    assert any(r.levelno == logging.DEBUG for r in manejador.registros), "DEBUG was not on"
    textos_logs = [*manejador.textos(), caplog.text]
    tablas += _tablas()
    assert Aplicacion.objects.get(client_id=client_id).client_secret.startswith("md5$")
    auditoria = [textos_de_fila(f) for f in RegistroAuditoria.objects.all()]
    assert len(auditoria) == 1
    historial = [textos_de_fila(f) for f in LogEntry.objects.all()]
    cache = volcado_cache()
    assert cache, "the cache is empty: the scan would prove nothing"
    fugas = []
    for nombre, secreto in secretos.items():
        trozos = {secreto, secreto[-24:], secreto[8:30]}
        for donde, textos in [
            ("log", textos_logs),
            ("sesión", sesiones()),
            ("tablas de OAuth", tablas),
            ("auditoría", auditoria),
            ("historial del admin", historial),
            ("respuesta de error", errores),
        ]:
            for texto in textos:
                donde_esta = [texto.find(t) for t in trozos if t in texto]
                if donde_esta:
                    desde = max(min(donde_esta) - 120, 0)
                    fugas.append(f"{nombre} aparece en {donde}: {texto[desde : desde + 240]}")
        for valor in cache:
            if any(t.encode() in valor for t in trozos):
                fugas.append(f"{nombre} aparece en la caché: {valor[:200]!r}")
    # The one place a code rests in clear (the library's Grant.code, looked up by equality) is
    # gone once it is exchanged.
    assert not Grant.objects.exists()
    assert fugas == [], "\n".join(sorted(set(fugas)))
