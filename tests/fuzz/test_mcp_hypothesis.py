"""Hypothesis fuzzing of the assistant endpoint `POST /mcp/api/mcp` (issue 6, item 2).

Every example is checked against an oracle written from the interface and docs/decisiones.md, not
from the view: never a 5xx; always one valid JSON-RPC 2.0 answer (or the documented 202 / HTTP
envelope); the right level for each failure; tool results that satisfy their outputSchema; one
audit row per `tools/call` that reached the tools; and nothing else written — row counts of every
table unchanged and no write statement besides the audit insert and the credentials' last use.

Example counts are fixed and derandomized for CI (see EJEMPLOS). `HUB_FUZZ_EJEMPLOS=<factor>`
multiplies them and switches to random seeds, to dig deeper locally.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import re
import string
from collections import Counter
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.core import signing
from django.core.management import call_command
from django.db import connection, transaction
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from apps.mcp import confirmacion
from apps.mcp.models import (
    AjustesAsistente,
    ConfirmacionUsada,
    RechazoAsistente,
    RegistroAuditoria,
)
from apps.mcp.secretos import PREFIJO_CLAVE, PREFIJO_TOKEN
from hub import secretos
from hub.herramientas.registro import registro
from hub.models import Limites
from tests.fuzz.mcp_estrategias import (
    ACEPTA,
    ORIGENES,
    TIPOS,
    VERSIONES,
    argumentos_de,
    casi_siempre,
    cuerpos_anidados,
    cuerpos_crudos,
    mensajes_jsonrpc,
    params_tools_call,
    valores_json,
)
from tests.fuzz.mcp_oraculo import (
    DENTRO_DEL_ESQUEMA,
    MUCHO,
    Organizacion,
    ValidadorEstricto,
    codificar,
    comprobar_sobre,
    enviar_y_comprobar,
    llamada_rpc,
    publicar,
)

pytestmark = pytest.mark.django_db

_FACTOR = os.environ.get("HUB_FUZZ_EJEMPLOS")
# Examples per strategy in CI; HUB_FUZZ_EJEMPLOS multiplies them.
EJEMPLOS = {
    "bytes": 250,
    "json": 250,
    "anidado": 40,
    "jsonrpc": 400,
    "nombres": 200,
    "esquemas": 595,  # 35 per tool
    "confirmaciones": 80,
    "cabeceras": 250,
}
VISTOS: Counter[str] = Counter()


def ajustes_de(estrategia: str, partes: int = 1) -> settings:
    """Hypothesis settings of one strategy (split in `partes` tests): fixed seeds in CI, more and
    random ones when asked."""
    factor = float(_FACTOR or 1)
    return settings(
        max_examples=max(1, round(EJEMPLOS[estrategia] * factor / partes)),
        derandomize=_FACTOR is None,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


def _semillas(demo: dict[str, Any]) -> dict[str, list[str]]:
    """Real identifiers of the demo, so that generated arguments also hit existing records."""
    from apps.cuentas.models import Area
    from apps.presupuesto.models import Proyecto
    from apps.solicitudes.models import TipoSolicitud

    radicados = sorted(demo["solicitudes"].values())
    areas = list(Area.objects.values_list("sigla", flat=True)[:10])
    return {
        "numero_radicado": radicados,
        "numero": [demo["cdp"], demo["cdp_externo"], demo["rp"], "CDP-2026-00002"],
        "estado_cdp.numero": [demo["cdp"], demo["cdp_externo"], "cdp-2026-00002"],
        "estado_rp.numero": [demo["rp"], "rp-2026-00002"],
        "texto": [demo["documento"], "certificado", "SOL-2026", "presupuesto", *radicados[:3]],
        "consulta": ["cómo creo un token personal", "firmar una solicitud", "tablero"],
        "area": areas,
        "proyecto": list(Proyecto.objects.values_list("codigo", flat=True)[:5]),
        "tipo": list(TipoSolicitud.objects.values_list("codigo", flat=True)[:5]),
        "correo_solicitante": [demo["solicitud_publica"]["correo_solicitante"]],
        "comentario": ["Revisado, gracias.", "¿Falta algún soporte?"],
        "asunto": ["No exporta el tablero", "Error al firmar"],
        "descripcion": ["El botón de exportar del tablero no responde al hacer clic."],
        "secretos": [demo["api_key"], *demo["tokens"].values()],
    }


@pytest.fixture(scope="module")
def demo_del_modulo(django_db_setup, django_db_blocker, tmp_path_factory) -> dict[str, Any]:
    """The demo organization at scale 1, built once for the module inside a transaction that is
    rolled back at the end; each test's own transaction nests in it as a savepoint."""
    salida = tmp_path_factory.mktemp("fuzz") / "demo.json"
    with django_db_blocker.unblock():
        atomico = transaction.atomic()
        atomico.__enter__()
        try:
            call_command("demo_data", escala=1, salida=str(salida), stdout=io.StringIO())
            yield json.loads(salida.read_text())
        finally:
            transaction.set_rollback(True)
            atomico.__exit__(None, None, None)


@pytest.fixture
def org(client, demo_del_modulo) -> Organizacion:
    """The demo called as `completo` (API key + personal token), with the limits raised so that
    they do not mask everything (one test below keeps the 429)."""
    demo = demo_del_modulo
    ajustes = AjustesAsistente.cargar()
    for nombre in (
        "usuario_por_minuto",
        "integracion_por_minuto",
        "escrituras_por_minuto",
        "verificaciones_fallidas_por_hora",
    ):
        setattr(ajustes, nombre, MUCHO)
    ajustes.save()
    limites = Limites.cargar()
    limites.global_por_minuto = MUCHO
    limites.save()
    Limites.olvidar()
    cabeceras = {"X-MCP-Api-Key": demo["api_key"], "X-MCP-User-Token": demo["tokens"]["completo"]}
    organizacion = Organizacion(
        client=client,
        demo=demo,
        cabeceras=cabeceras,
        secretos=[demo["api_key"], *demo["tokens"].values()],
        semillas=_semillas(demo),
        tablas=sorted(connection.introspection.table_names()),
        validadores={h.nombre: ValidadorEstricto(h.esquema_entrada) for h in registro},
    )
    yield organizacion
    AjustesAsistente.olvidar()
    Limites.olvidar()


# --- the tests ------------------------------------------------------------------------------------


def _ejecutar(nombre_estrategia: str, prueba) -> None:
    """Run a @given inner function and keep its example count for the report."""
    VISTOS[nombre_estrategia] = 0
    prueba()
    print(f"fuzz-mcp: {nombre_estrategia}: {VISTOS[nombre_estrategia]} ejemplos")


def test_random_bytes_are_parse_errors_or_valid_answers_never_5xx(org):
    @ajustes_de("bytes")
    @given(cuerpo=cuerpos_crudos())
    def ejemplo(cuerpo: bytes) -> None:
        VISTOS["bytes"] += 1
        enviar_y_comprobar(org, cuerpo)

    _ejecutar("bytes", ejemplo)


def test_random_json_values_get_the_level_the_interface_promises(org):
    @ajustes_de("json")
    @given(valor=valores_json)
    def ejemplo(valor: Any) -> None:
        VISTOS["json"] += 1
        enviar_y_comprobar(org, codificar(valor))

    _ejecutar("json", ejemplo)


def test_deep_nesting_is_refused_cleanly_or_answered(org):
    @ajustes_de("anidado")
    @given(cuerpo=cuerpos_anidados())
    def ejemplo(cuerpo: bytes) -> None:
        VISTOS["anidado"] += 1
        enviar_y_comprobar(org, cuerpo)

    _ejecutar("anidado", ejemplo)


def test_jsonrpc_shaped_objects_with_wrong_types_get_the_right_error_and_id(org):
    niveles: Counter[Any] = Counter()

    @ajustes_de("jsonrpc")
    @given(mensaje=mensajes_jsonrpc())
    def ejemplo(mensaje: Any) -> None:
        VISTOS["jsonrpc"] += 1
        esperado, _ = enviar_y_comprobar(org, codificar(mensaje))
        niveles[esperado.codigo or esperado.nivel] += 1

    _ejecutar("jsonrpc", ejemplo)
    # The strategy reaches every level, not only the first check.
    assert {-32700, -32600, -32601, -32602, "resultado", "notificacion"} <= set(niveles), niveles


def test_tools_call_with_random_names_and_arguments_never_leaves_the_protocol(org):
    @ajustes_de("nombres")
    @given(id_=st.integers() | st.text(max_size=8), params=params_tools_call())
    def ejemplo(id_: Any, params: dict) -> None:
        VISTOS["nombres"] += 1
        mensaje = {"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": params}
        enviar_y_comprobar(org, codificar(mensaje))

    _ejecutar("nombres", ejemplo)


HERRAMIENTAS = sorted(h.nombre for h in registro)


@pytest.mark.parametrize("nombre", HERRAMIENTAS)
def test_every_tool_with_arguments_from_its_schema_answers_within_its_contract(org, nombre):
    resultados: Counter[str] = Counter()

    @ajustes_de("esquemas", partes=len(HERRAMIENTAS))
    @given(argumentos=argumentos_de(nombre, org.semillas), id_=st.integers(0, 2**31))
    def ejemplo(argumentos: dict, id_: int) -> None:
        VISTOS["esquemas"] += 1
        _, respuesta = enviar_y_comprobar(org, codificar(llamada_rpc(id_, nombre, argumentos)))
        resultado = respuesta["result"]
        resultados[
            "ok" if not resultado["isError"] else resultado["structuredContent"]["codigo"]
        ] += 1

    ejemplo()
    print(f"fuzz-mcp: esquemas {nombre}: {dict(resultados)}")
    propios = {c: n for c, n in DENTRO_DEL_ESQUEMA.items() if c.startswith(f"{nombre}:")}
    print(f"fuzz-mcp: rechazos dentro del esquema: {propios}")
    # Schema-derived arguments are often valid: the tool also answered successfully.
    assert resultados["ok"] > 0, resultados


# --- two-step writes with forged confirmation tokens ---------------------------------------------

_B64 = string.ascii_letters + string.digits + "-_+/="
FALSIFICACIONES = [
    "recortado",
    "caracter",
    "extendido",
    "aleatorio",
    "formato_anterior",
    "otra_clave",
    "sin_firma",
    "otros_argumentos",
    "otra_herramienta",
    "otra_persona",
]
CODIGO_FALSIFICACION = {
    "otros_argumentos": "CONFIRMACION_NO_COINCIDE",
    "otra_herramienta": "CONFIRMACION_NO_COINCIDE",
    "otra_persona": "CONFIRMACION_AJENA",
}
TEXTO_SEGURO = st.text(
    st.sampled_from(string.ascii_letters + "áéíóúñ ¿?."), min_size=0, max_size=40
)


def _base_escritura(org: Organizacion, herramienta: str, sufijo: str, radicado: str) -> dict:
    if herramienta == "comentar_solicitud":
        return {"numero_radicado": radicado, "comentario": f"Comentario de prueba {sufijo}".strip()}
    return {
        "asunto": f"Falla del tablero {sufijo}".strip()[:150],
        "descripcion": f"El tablero no carga al abrirlo. {sufijo}".strip(),
        "severidad": "mejora_grave",
    }


def _previa(org: Organizacion, herramienta: str, argumentos: dict, cabeceras=None) -> str:
    http = publicar(org, codificar(llamada_rpc(1, herramienta, argumentos)), cabeceras)
    resultado = json.loads(http.content)["result"]
    assert resultado["isError"] is False, resultado
    return resultado["structuredContent"]["token_confirmacion"]


def _forjar(draw, org: Organizacion, herramienta: str, args: dict, genuino: str, tipo: str):
    """(arguments, token) of one forgery of a genuine step-1 token."""
    if tipo == "recortado":
        return args, genuino[: draw(st.integers(1, len(genuino) - 1))]
    if tipo == "caracter":
        i = draw(st.integers(0, len(genuino) - 1))
        otro = draw(st.sampled_from(_B64).filter(lambda c: c != genuino[i]))
        return args, genuino[:i] + otro + genuino[i + 1 :]
    if tipo == "extendido":
        return args, genuino + draw(st.text(st.sampled_from(_B64), min_size=1, max_size=400))
    if tipo == "aleatorio":
        return args, draw(st.text(min_size=1, max_size=600))
    carga = confirmacion.descifrar(genuino)
    if tipo == "formato_anterior":  # the signed (readable) tokens of before
        return args, signing.dumps(carga, salt="apps.mcp.confirmacion.v1")
    if tipo == "otra_clave":
        return args, Fernet(Fernet.generate_key()).encrypt(json.dumps(carga).encode()).decode()
    if tipo == "sin_firma":  # the HMAC (last 32 bytes) removed
        crudo = base64.urlsafe_b64decode(genuino + "=" * (-len(genuino) % 4))
        return args, base64.urlsafe_b64encode(crudo[:-32]).decode().rstrip("=")
    if tipo == "otros_argumentos":
        clave = "comentario" if herramienta == "comentar_solicitud" else "descripcion"
        return {**args, clave: args[clave] + " (cambiado)"}, genuino
    otra = "radicar_mesa_ayuda" if herramienta == "comentar_solicitud" else "comentar_solicitud"
    if tipo == "otra_herramienta":
        ajenos = _base_escritura(org, otra, "ajeno", org.semillas["comentables"][0])
        return args, _previa(org, otra, ajenos)
    # otra_persona: the same arguments previewed by another person.
    cabeceras = {**org.cabeceras, "X-MCP-User-Token": org.demo["tokens"]["limitado"]}
    return args, _previa(org, herramienta, args, cabeceras)


def _comentables(org: Organizacion) -> list[str]:
    """The demo's requests on which `completo` (and `limitado`, for foreign tokens) may comment."""
    limitado = {**org.cabeceras, "X-MCP-User-Token": org.demo["tokens"]["limitado"]}
    salida = []
    for radicado in org.semillas["numero_radicado"]:
        args = {"numero_radicado": radicado, "comentario": "Hola, ¿cómo va?"}
        resultados = [
            json.loads(
                publicar(org, codificar(llamada_rpc(1, "comentar_solicitud", args)), c).content
            )
            for c in (org.cabeceras, limitado)
        ]
        if not any(r["result"]["isError"] for r in resultados):
            salida.append(radicado)
    return salida


def test_forged_confirmation_tokens_are_refused_and_write_nothing(org):
    from apps.solicitudes.models import Comentario, Solicitud

    org.semillas["comentables"] = _comentables(org)
    assert org.semillas["comentables"]
    escrita = {"comentar_solicitud": Comentario, "radicar_mesa_ayuda": Solicitud}
    vistos: Counter[str] = Counter()

    def forjar(tipo: str) -> None:
        @ajustes_de("confirmaciones", partes=len(FALSIFICACIONES))
        @given(
            datos=st.data(),
            herramienta=st.sampled_from(sorted(escrita)),
            sufijo=TEXTO_SEGURO,
        )
        def ejemplo(datos, herramienta: str, sufijo: str) -> None:
            VISTOS["confirmaciones"] += 1
            radicado = datos.draw(st.sampled_from(org.semillas["comentables"]))
            args = _base_escritura(org, herramienta, sufijo, radicado)
            genuino = _previa(org, herramienta, args)
            args_paso2, token = _forjar(datos.draw, org, herramienta, args, genuino, tipo)
            note(f"token forjado: {token!r}")
            usadas = ConfirmacionUsada.objects.count()
            paso2 = {**args_paso2, "confirmar": True, "token_confirmacion": token}
            _, respuesta = enviar_y_comprobar(org, codificar(llamada_rpc(2, herramienta, paso2)))
            assert respuesta["result"]["isError"] is True
            # DRF trims the token before its checks; NUL characters are refused as data.
            largo_invalido = not token.strip() or len(token.strip()) > 600 or "\x00" in token
            codigo = "DATOS_INVALIDOS" if largo_invalido else CODIGO_FALSIFICACION.get(tipo)
            assert respuesta["result"]["structuredContent"]["codigo"] == (
                codigo or "CONFIRMACION_INVALIDA"
            )
            vistos[tipo] += 1
            # The forgery did not burn the genuine token: it writes once, then never again.
            filas = escrita[herramienta].objects.count()
            genuina = codificar(
                llamada_rpc(
                    3, herramienta, {**args, "confirmar": True, "token_confirmacion": genuino}
                )
            )
            hecho = json.loads(publicar(org, genuina).content)["result"]
            assert hecho["isError"] is False, hecho
            assert ConfirmacionUsada.objects.count() == usadas + 1
            assert escrita[herramienta].objects.count() == filas + 1
            _, repetido = enviar_y_comprobar(org, genuina, intenta=ConfirmacionUsada._meta.db_table)
            assert repetido["result"]["structuredContent"]["codigo"] == "CONFIRMACION_USADA"

        ejemplo()

    for tipo in FALSIFICACIONES:
        forjar(tipo)
    print(f"fuzz-mcp: confirmaciones: {VISTOS['confirmaciones']} ejemplos {dict(vistos)}")
    assert set(vistos) == set(FALSIFICACIONES)


# --- headers: the HTTP checks before the message -------------------------------------------------

CREDENCIALES = [
    "clave_y_token",
    "solo_clave",
    "solo_token",
    "ninguna",
    "token_falso",
    "token_vencido",
    "token_revocado",
    "clave_falsa",
    "dos_tokens",
    "dos_claves",
    "otro_esquema",
    "sin_asistente",
    "bloqueado",
    "cabecera_vacia",
]


def _credenciales(org: Organizacion, caso: str) -> tuple[dict[str, str], tuple[int, str] | None]:
    """The headers of one credential case and the envelope it must get (None: accepted)."""
    clave, tokens = org.demo["api_key"], org.demo["tokens"]
    token = tokens["completo"]
    falso = secretos.generar(PREFIJO_TOKEN)
    casos: dict[str, tuple[dict[str, str], tuple[int, str] | None]] = {
        "clave_y_token": ({"X-MCP-Api-Key": clave, "X-MCP-User-Token": token}, None),
        "solo_clave": ({"Authorization": f"Bearer {clave}"}, None),
        "solo_token": ({"Authorization": f"Bearer {token}"}, None),
        "ninguna": ({}, (401, "NO_AUTENTICADO")),
        "token_falso": (
            {"X-MCP-Api-Key": clave, "X-MCP-User-Token": falso},
            (401, "TOKEN_MCP_INVALIDO"),
        ),
        "token_vencido": ({"X-MCP-User-Token": tokens["vencido"]}, (401, "TOKEN_MCP_INVALIDO")),
        "token_revocado": ({"X-MCP-User-Token": tokens["revocado"]}, (401, "TOKEN_MCP_INVALIDO")),
        "clave_falsa": (
            {"X-MCP-Api-Key": secretos.generar(PREFIJO_CLAVE), "X-MCP-User-Token": token},
            (401, "API_KEY_INVALIDA"),
        ),
        "dos_tokens": (
            {"X-MCP-User-Token": token, "Authorization": f"Bearer {tokens['limitado']}"},
            (400, "CREDENCIAL_AMBIGUA"),
        ),
        "dos_claves": (
            {"X-MCP-Api-Key": clave, "Authorization": "Bearer sgiapi_otra"},
            (400, "CREDENCIAL_AMBIGUA"),
        ),
        "otro_esquema": ({"Authorization": f"Basic {clave}"}, (401, "NO_AUTENTICADO")),
        "sin_asistente": ({"X-MCP-User-Token": tokens["sin_asistente"]}, (403, "SIN_PERMISO")),
        "bloqueado": ({"X-MCP-User-Token": tokens["bloqueado"]}, (403, "SIN_PERMISO")),
        "cabecera_vacia": (
            {"X-MCP-Api-Key": clave, "X-MCP-User-Token": " "},
            (401, "TOKEN_MCP_INVALIDO"),
        ),
    }
    return casos[caso]


def _acepta_json(valor: str) -> bool:
    """RFC 9110: the most specific range naming JSON decides; q=0 is "not acceptable"."""
    especificidad = {"application/json": 2, "application/*": 1, "*/*": 0}
    rangos = []
    for parte in valor.split(","):
        tipo, *parametros = (p.strip().lower() for p in parte.split(";"))
        if tipo in especificidad:
            pares = (p.partition("=") for p in parametros)
            q = next((v.strip() for n, _, v in pares if n.strip() == "q"), "1")
            try:
                peso = float(q)
            except ValueError:
                peso = 1.0
            rangos.append((especificidad[tipo], -len(rangos), peso if math.isfinite(peso) else 1.0))
    return bool(rangos) and max(rangos)[2] > 0


def _tipo_json(valor: str) -> bool:
    tipo = valor.split(";")[0].strip().lower()
    return not tipo or tipo == "application/json" or re.fullmatch(r"application/\S+\+json", tipo)


def test_random_headers_get_the_envelope_of_the_first_failing_check(org):
    cuerpos = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": "l", "method": "tools/list"},
        llamada_rpc(3, "buscar_documento", {"texto": "ASC"}),
    ]
    estados: Counter[int] = Counter()

    @ajustes_de("cabeceras")
    @given(
        # Absent or good most of the time, so that later checks are reached too.
        origen=casi_siempre(st.sampled_from([None, None, "http://testserver"]), ORIGENES),
        acepta=casi_siempre(st.sampled_from([None, "application/json"]), ACEPTA),
        version=casi_siempre(st.sampled_from([None, "2025-06-18"]), VERSIONES),
        caso=st.sampled_from(CREDENCIALES),
        tipo=TIPOS,
        mensaje=st.sampled_from(cuerpos),
    )
    def ejemplo(origen, acepta, version, caso, tipo, mensaje) -> None:
        VISTOS["cabeceras"] += 1
        cabeceras, rechazo = _credenciales(org, caso)
        extra = {"Origin": origen, "Accept": acepta, "MCP-Protocol-Version": version}
        cabeceras = {**cabeceras, **{k: v for k, v in extra.items() if v is not None}}
        antes = org.conteos()
        http = publicar(org, codificar(mensaje), cabeceras, content_type=tipo)
        despues = org.conteos()
        estados[http.status_code] += 1
        event(f"HTTP {http.status_code}")
        propio = origen is None or origen.strip().rstrip("/").lower() == "http://testserver"
        if not propio:
            comprobar_sobre(http, 403, "SIN_PERMISO")
        elif acepta is not None and not _acepta_json(acepta):
            comprobar_sobre(http, 406, "NO_ACEPTABLE")
        elif version is not None and version.strip() not in ("2025-06-18", "2025-03-26"):
            comprobar_sobre(http, 400, "VERSION_NO_SOPORTADA")
        elif rechazo is not None:
            comprobar_sobre(http, *rechazo)
        elif not _tipo_json(tipo):
            comprobar_sobre(http, 415, "TIPO_NO_SOPORTADO")
        else:
            assert http.status_code == 200, http.content[:300]
            respuesta = json.loads(http.content)
            assert respuesta["id"] == mensaje["id"] and "result" in respuesta, respuesta
        auditoria = RegistroAuditoria._meta.db_table
        nuevas = despues.pop(auditoria) - antes.pop(auditoria)
        # A refusal before any tool (401, 403, 429) is counted per minute: the first of its
        # minute, identity and code inserts the minute's row, the rest only count in the cache.
        rechazos = RechazoAsistente._meta.db_table
        rechazos_nuevos = despues.pop(rechazos) - antes.pop(rechazos)
        assert despues == antes
        assert nuevas == (http.status_code == 200 and mensaje["method"] == "tools/call")
        assert rechazos_nuevos in ((0, 1) if http.status_code in (401, 403, 429) else (0,))

    _ejecutar("cabeceras", ejemplo)
    print(f"fuzz-mcp: cabeceras por estado HTTP: {dict(sorted(estados.items()))}")
    assert {200, 400, 401, 403, 406, 415} <= set(estados), estados


def test_the_rate_limit_answer_is_the_envelope_with_retry_after(org):
    ajustes = AjustesAsistente.cargar()
    ajustes.usuario_por_minuto = 2
    ajustes.save()
    ping = codificar({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert [publicar(org, ping).status_code for _ in range(2)] == [200, 200]
    http = publicar(org, ping)
    comprobar_sobre(http, 429, "RATE_LIMIT")
    assert http["X-RateLimit-Limit"] == "2" and http["X-RateLimit-Remaining"] == "0"


def test_an_oversized_body_is_the_413_envelope_before_any_json(org, settings):
    cuerpo = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * 2048 + b'"}}'
    settings.HUB_MAX_CUERPO = 1024
    antes = org.conteos()
    comprobar_sobre(publicar(org, cuerpo), 413, "PAYLOAD_DEMASIADO_GRANDE")
    assert org.conteos() == antes
