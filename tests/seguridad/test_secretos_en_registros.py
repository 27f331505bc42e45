"""Secrets never in logs: API keys, personal tokens and confirmation tokens made and used through
the real paths (admin, profile page, endpoint) leave no trace in any log record, audit row,
admin history entry or error answer."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.admin.models import LogEntry

from apps.mcp.models import ClaveApi, RegistroAuditoria, TokenPersonal
from apps.solicitudes.models import Comentario
from hub.herramientas.registro import registro
from tests.mcp.herramientas_prueba import HERRAMIENTAS_PRUEBA
from tests.mcp_cliente import URL
from tests.seguridad import (
    llamar_con_id,
    mundo,
    resultado,
    sesiones,
    textos_de_fila,
    volcado_cache,
)

pytestmark = pytest.mark.django_db

SECRETO_TOKEN = re.compile(r"sgimcp_[A-Za-z0-9_]+")


def _mcp(client, cuerpo, **cabeceras):
    return client.post(
        URL, data=json.dumps(cuerpo), content_type="application/json", headers=cabeceras
    )


def test_no_secret_reaches_a_log_an_audit_row_or_an_error_text(client, admin_client, todo):
    manejador, caplog = todo
    m = mundo()
    errores: list[bytes] = []

    # 1. An API key created in the admin (its secret is shown once, after the redirect).
    r = admin_client.post(
        "/admin/mcp/claveapi/add/", {"nombre": "Integración segura", "vence": ""}, follow=True
    )
    assert r.status_code == 200
    fila = ClaveApi.objects.get(nombre="Integración segura")
    secreto_clave = next(
        s
        for s in re.findall(r"[A-Za-z0-9_]{30,}", r.content.decode())
        if s.startswith(fila.prefijo)
    )
    assert fila.digest != secreto_clave and len(secreto_clave) > 30

    # 2. A personal token created on the profile page (shown once after the redirect).
    duena = m["duena"]
    client.force_login(duena)
    r = client.post(
        "/cuentas/perfil/",
        {
            "accion": "crear",
            "nombre": "Portátil",
            "dias": 30,
            "areas": ["solicitudes", "presupuesto", "calidad"],
        },
    )
    assert r.status_code == 302
    pagina = client.get("/cuentas/perfil/").content.decode()
    secreto_token = next(s for s in SECRETO_TOKEN.findall(pagina) if s != "sgimcp_")
    assert TokenPersonal.objects.filter(usuario=duena).count() == 1
    client.logout()
    cab = {"X-MCP-Api-Key": secreto_clave, "X-MCP-User-Token": secreto_token}

    # 3. Tools with those credentials: success, tool errors, invalid arguments, internal error.
    numero = m["propia"].numero_radicado
    assert (
        resultado(llamar_con_id(client, "estado_solicitud", {"numero_radicado": numero}, **cab))[
            "isError"
        ]
        is False
    )
    for nombre, argumentos in [
        ("estado_cdp", {"numero": m["cdp_oti"].numero}),
        ("resumen_solicitud", {"numero_radicado": "SOL-0000-000000"}),
        ("estado_solicitud", {"numero_radicado": numero, "desconocido": 1}),
        ("comentar_solicitud", {"numero_radicado": numero, "comentario": "x"}),
    ]:
        r = llamar_con_id(client, nombre, argumentos, **cab)
        assert resultado(r)["isError"] is True
        errores.append(r.content)
    for h in HERRAMIENTAS_PRUEBA:
        registro.registrar(h)
    try:
        r = llamar_con_id(client, "prueba_falla", {}, **cab)
    finally:
        for h in HERRAMIENTAS_PRUEBA:
            registro.quitar(h.nombre)
    assert resultado(r)["structuredContent"]["codigo"] == "ERROR_INTERNO"
    errores.append(r.content)

    # 4. A two-step write: preview, a wrong-arguments confirmation, the confirmation, a replay.
    args = {"numero_radicado": numero, "comentario": "Adjunto el soporte pedido."}
    previa = resultado(llamar_con_id(client, "comentar_solicitud", args, **cab))
    confirmacion = previa["structuredContent"]["token_confirmacion"]
    assert len(confirmacion) > 40
    confirmar = {**args, "confirmar": True, "token_confirmacion": confirmacion}
    r = llamar_con_id(
        client, "comentar_solicitud", {**confirmar, "comentario": "Otro texto."}, **cab
    )
    assert resultado(r)["isError"] is True
    errores.append(r.content)
    hecho = llamar_con_id(client, "comentar_solicitud", confirmar, **cab)
    assert resultado(hecho)["isError"] is False
    assert Comentario.objects.filter(solicitud=m["propia"]).count() == 1
    errores.append(hecho.content)  # the write's answer has no reason to echo the token
    r = llamar_con_id(client, "comentar_solicitud", confirmar, **cab)
    assert resultado(r)["isError"] is True
    errores.append(r.content)
    sin_confirmar = {**args, "token_confirmacion": confirmacion}
    r = llamar_con_id(client, "comentar_solicitud", sin_confirmar, **cab)
    assert resultado(r)["structuredContent"]["codigo"] == "DATOS_INVALIDOS"
    errores.append(r.content)

    # 5. Failed authentication: wrong, tampered, revoked and mis-schemed credentials.
    alterado = secreto_token[:-1] + ("A" if secreto_token[-1] != "A" else "B")
    falsos = [
        {"X-MCP-Api-Key": secreto_clave, "X-MCP-User-Token": alterado},
        {"X-MCP-Api-Key": secreto_clave[:-2], "X-MCP-User-Token": secreto_token},
        {"Authorization": f"Basic {secreto_token}"},
        {"Authorization": f"Bearer {secreto_token}", "X-MCP-User-Token": alterado},
        {"X-MCP-Api-Key": secreto_token, "X-MCP-User-Token": secreto_token + "x"},
    ]
    for cabeceras in falsos:
        r = _mcp(client, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, **cabeceras)
        assert r.status_code in (400, 401), r.content
        errores.append(r.content)
    TokenPersonal.objects.filter(usuario=duena).update(revocado_en="2026-01-01T00:00:00Z")
    r = _mcp(client, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, **cab)
    assert r.status_code == 401
    errores.append(r.content)

    # The scan.
    secretos = {"clave": secreto_clave, "token": secreto_token, "confirmacion": confirmacion}
    textos_logs = [*manejador.textos(), caplog.text]
    assert manejador.registros, "nothing was logged: the scan would prove nothing"
    assert any("prueba_falla" in t for t in textos_logs)
    accesos = [json.loads(t) for t in manejador.lineas_json if '"logger": "hub.acceso"' in t]
    assert len(accesos) >= 20 and all(a["path"] == "/mcp/api/mcp" for a in accesos[-10:])
    filas_auditoria = list(RegistroAuditoria.objects.all())
    assert len(filas_auditoria) >= 10
    auditoria = [textos_de_fila(f) for f in filas_auditoria]
    historial = [textos_de_fila(f) for f in LogEntry.objects.all()]
    credenciales = [
        textos_de_fila(f) for f in [*ClaveApi.objects.all(), *TokenPersonal.objects.all()]
    ]
    respuestas = [e.decode("utf-8") for e in errores]
    cache = volcado_cache()
    assert cache, "the cache is empty: the scan would prove nothing"
    fugas = []
    for nombre, secreto in secretos.items():
        # The secret and any long piece of it (a token cut to fit a column is still a leak).
        trozos = {secreto, secreto[-24:], secreto[8:40]}
        for donde, textos in [
            ("log", textos_logs),
            ("auditoría", auditoria),
            ("historial del admin", historial),
            ("tablas de credenciales", credenciales),
            ("respuesta de error", respuestas),
            ("sesión", sesiones()),
        ]:
            for texto in textos:
                if any(trozo in texto for trozo in trozos):
                    fugas.append(f"{nombre} aparece en {donde}: {texto[:160]}")
        for valor in cache:
            if any(trozo.encode() in valor for trozo in trozos):
                fugas.append(f"{nombre} aparece en la caché: {valor[:160]!r}")
    assert fugas == [], "\n".join(sorted({f.split(chr(10))[0] for f in fugas}))


def test_the_admin_page_that_shows_a_new_api_key_logs_nothing_of_it(admin_client, todo):
    manejador, caplog = todo
    r = admin_client.post(
        "/admin/mcp/claveapi/add/", {"nombre": "Otra integración", "vence": ""}, follow=True
    )
    assert r.status_code == 200
    prefijo = ClaveApi.objects.get(nombre="Otra integración").prefijo
    secreto = next(
        s for s in re.findall(r"[A-Za-z0-9_]{30,}", r.content.decode()) if s.startswith(prefijo)
    )
    con_secreto = sorted({t.split("\n")[0][:120] for t in manejador.textos() if secreto in t})
    assert con_secreto == []
    assert secreto not in caplog.text


def test_a_credential_pasted_into_an_argument_is_hidden_in_the_audit():
    from apps.mcp.auditoria import limpiar_argumentos
    from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
    from hub.secretos import generar

    token, clave = generar(PREFIJO_TOKEN), generar(PREFIJO_CLAVE)
    limpio = limpiar_argumentos({"numero_radicado": f"mire {token} y {clave}", "n": [token]})
    texto = str(limpio)
    assert token not in texto and clave not in texto
    assert "sgimcp_[oculto]" in texto and "sgiapi_[oculto]" in texto
