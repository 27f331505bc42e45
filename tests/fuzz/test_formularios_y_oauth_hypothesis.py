"""Property-based probing of every form and every OAuth endpoint (issue 35, item 4): whatever odd
input arrives (NUL, lone surrogates, overlong text, out-of-range dates and numbers, a parameter
sent twice, an odd HTTP Basic header), the answer is never a 5xx; the OAuth machine endpoints
answer their errors in JSON, never cached. The JSON API has schemathesis (test_schemathesis.py)
and the assistant endpoint its own fuzzing (test_mcp_hypothesis.py).

Lean on purpose (CI runs the suite twice): a few dozen derandomized examples per endpoint, no
deadline. `HUB_FUZZ_EJEMPLOS=<factor>` multiplies them and switches to random seeds.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.autorizacion.flujo import pkce, registrar
from tests.factories import UserFactory
from tests.notificaciones.factories import SitioContactoFactory
from tests.solicitudes.factories import dos_tipos_con_radicados

pytestmark = pytest.mark.django_db

_FACTOR = os.environ.get("HUB_FUZZ_EJEMPLOS")
EJEMPLOS = 30 * int(_FACTOR or 1)
AJUSTES = settings(
    max_examples=EJEMPLOS,
    deadline=None,
    derandomize=_FACTOR is None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

RAROS = [
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "9999-12-31",
    "10000-01-01",
    "0000-00-00",
    "0001-01-01",
    "2026-02-30",
    "-1",
    "0",
    "9" * 40,
    "-" + "9" * 40,
    "1e309",
    "NaN",
    "1.5",
    "",
    " ",
    "%00",
    "\u202e\u200b",
    "<b>x</b>",
]
VALORES = st.one_of(
    st.sampled_from(RAROS),
    st.text(st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=20),
    st.integers(min_value=200, max_value=6000).map(lambda n: "ñ" * n),
    st.tuples(st.sampled_from(RAROS), st.text(max_size=8)).map("".join),
)


def _bytes(texto: str) -> str:
    # A lone surrogate travels as the bytes a client would send for it (CESU-style, invalid UTF-8).
    return quote_from_bytes(texto.encode("utf-8", "surrogatepass"))


def _codificar(pares: list[tuple[str, str]]) -> str:
    return "&".join(f"{_bytes(n)}={_bytes(v)}" for n, v in pares)


def pares(campos: list[str], fijos: list[tuple[str, str]] = ()) -> st.SearchStrategy:
    """Either the valid `fijos` (values that lead the request deeper) with one of them made odd,
    or known fields (and one unknown) with odd values, some sent twice, beside the `fijos` that
    are kept."""
    uno = st.tuples(st.sampled_from([*campos, "otro"]), VALORES)
    mezcla = st.builds(
        lambda raros, dobles, quedan: [
            *(p for p, queda in zip(fijos, quedan, strict=False) if queda),
            *raros,
            *raros[:dobles],
        ],
        st.lists(uno, max_size=6),
        st.integers(0, 2),
        st.lists(st.booleans(), min_size=len(fijos), max_size=len(fijos)),
    )
    if not fijos:
        return mezcla
    uno_raro = st.builds(
        lambda i, valor: [(n, valor if j == i else v) for j, (n, v) in enumerate(fijos)],
        st.integers(0, len(fijos) - 1),
        VALORES,
    )
    return st.one_of(uno_raro, mezcla)


BASIC = st.one_of(
    st.none(),
    st.tuples(VALORES, VALORES).map(
        lambda p: "Basic " + base64.b64encode(_bytes(f"{p[0]}:{p[1]}").encode()).decode()
    ),
    VALORES.map(lambda v: "Basic " + v.encode("ascii", "ignore").decode()),
)


@pytest.fixture(autouse=True)
def _hash_rapido(settings):
    # Django hashes every tried password, even for an unknown account (against timing): with the
    # production hasher the sign-in forms took seconds per example. Input handling is the point.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass(frozen=True)
class Sitio:
    """What the endpoints need: a signed-in person, a client, a request, a contact site."""

    client_id: str
    solicitud: int


@pytest.fixture
def sitio(client) -> Sitio:
    e = dos_tipos_con_radicados("FZ", resumen_banco="Certificado banco")
    dueno = e["dueno"]
    dueno.user_permissions.add(*UserFactory(permisos=["mcp.asistente.usar"]).user_permissions.all())
    client.force_login(dueno)
    SitioContactoFactory(codigo="portal")
    return Sitio(client_id=registrar(client).json()["client_id"], solicitud=e["banco"].pk)


def _sin_5xx(r) -> None:
    assert r.status_code < 500, (r.status_code, r.content[:300])


def _json_sin_cache(r) -> None:
    _sin_5xx(r)
    if r.status_code >= 400 and r.status_code != 405:
        assert r["Content-Type"] == "application/json", (r.status_code, r.content[:300])
        assert "no-store" in r["Cache-Control"]


def _post(client, ruta: str, pares_: list, ip: int, **extra):
    return client.post(
        ruta,
        _codificar(pares_),
        content_type="application/x-www-form-urlencoded",
        REMOTE_ADDR=f"10.{ip // 65536 % 256}.{ip // 256 % 256}.{ip % 256}",
        **extra,
    )


def _get(client, ruta: str, pares_: list, ip: int):
    return client.get(
        f"{ruta}?{_codificar(pares_)}",
        REMOTE_ADDR=f"10.{ip // 65536 % 256}.{ip // 256 % 256}.{ip % 256}",
    )


IPS = st.integers(1, 2**24 - 1)

# --- the forms --------------------------------------------------------------------------------

FORMULARIOS_POST = {
    "/cuentas/login/": ["username", "password", "next"],
    "/admin/login/": ["username", "password", "next"],
    "/cuentas/clave/olvido/": ["email"],
    "/cuentas/clave/MQ/c1d2e3-0123456789abcdef0123456789abcdef/": [
        "new_password1",
        "new_password2",
    ],
    "/cuentas/perfil/": ["accion", "nombre", "dias", "fecha", "token_id", "aplicacion_id"],
    "/cuentas/desbloquear/sgides_x/": ["csrfmiddlewaretoken"],
}
FORMULARIOS_GET = {
    "/solicitudes/": ["q", "tipo", "estado", "desde", "hasta", "alcance", "orden", "pagina"],
    "/solicitudes/tareas": ["q", "tipo", "estado", "desde", "hasta", "orden", "pagina"],
    "/presupuesto/cdp/": ["q", "estado", "area", "desde", "hasta", "orden", "pagina"],
    "/presupuesto/rp/": ["q", "estado", "area", "desde", "hasta", "orden", "pagina"],
    "/presupuesto/paa/": ["q", "estado", "area", "desde", "hasta", "orden", "pagina"],
    "/presupuesto/verificar/": ["token", "codigo"],
    "/calidad/documentos/": ["q", "tipo", "proceso", "pagina"],
}
ACCIONES = ["comentar", "tomar", "avanzar", "devolver", "rechazar", "anular", "corregir", "firmar"]
CAMPOS_ACCION = ["texto", "comentario", "motivo", "confirmado", "etapa", "tarea", "version"]
CAMPOS_ACCION += ["clave", "nonce"]


@pytest.mark.parametrize("ruta", FORMULARIOS_POST)
@AJUSTES
@given(datos=st.data())
def test_a_form_post_with_odd_input_is_never_a_5xx(client, sitio, ruta, datos):
    extra = {"username": "camila", "password": "x", "nombre": "Asistente", "accion": "crear"}
    extra["dias"] = "30"
    fijos = [(n, v) for n, v in extra.items() if n in FORMULARIOS_POST[ruta]]
    _sin_5xx(_post(client, ruta, datos.draw(pares(FORMULARIOS_POST[ruta], fijos)), datos.draw(IPS)))


@pytest.mark.parametrize("ruta", FORMULARIOS_GET)
@AJUSTES
@given(datos=st.data())
def test_a_search_form_with_odd_input_is_never_a_5xx(client, sitio, ruta, datos):
    _sin_5xx(_get(client, ruta, datos.draw(pares(FORMULARIOS_GET[ruta])), datos.draw(IPS)))


@AJUSTES
@given(datos=st.data())
def test_a_request_action_with_odd_input_is_never_a_5xx(client, sitio, datos):
    accion = datos.draw(st.sampled_from(ACCIONES))
    ruta = f"/solicitudes/{sitio.solicitud}/{accion}"
    _sin_5xx(_post(client, ruta, datos.draw(pares(CAMPOS_ACCION)), datos.draw(IPS)))


@AJUSTES
@given(datos=st.data())
def test_a_contact_message_with_odd_input_is_never_a_5xx(client, sitio, datos):
    campos = ["nombre", "correo", "asunto", "mensaje", "sitio", "sitio_web"]
    cuerpo = dict(datos.draw(pares(campos, [("sitio", "portal"), ("correo", "a@b.co")])))
    r = client.post(
        "/notificaciones/api/public/v1/contacto",
        json.dumps(cuerpo),
        content_type="application/json",
        REMOTE_ADDR="198.51.100.1",
    )
    _sin_5xx(r)


# --- the OAuth endpoints -------------------------------------------------------------------------

AUTORIZACION = [
    "response_type",
    "client_id",
    "redirect_uri",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
    "resource",
    "prompt",
]
TOKEN = [
    "grant_type",
    "code",
    "redirect_uri",
    "client_id",
    "client_secret",
    "code_verifier",
    "refresh_token",
    "scope",
    "resource",
]


def _validos_autorizacion(sitio: Sitio) -> list[tuple[str, str]]:
    return [
        ("response_type", "code"),
        ("client_id", sitio.client_id),
        ("redirect_uri", "http://127.0.0.1:33418/callback"),
        ("code_challenge", pkce()[1]),
        ("code_challenge_method", "S256"),
        ("state", "xyz"),
    ]


@pytest.mark.parametrize("metodo", ["GET", "POST"])
@AJUSTES
@given(datos=st.data())
def test_an_authorization_request_with_odd_input_is_never_a_5xx(client, sitio, metodo, datos):
    fijos = _validos_autorizacion(sitio)
    if metodo == "POST":
        fijos += [("allow", "Autorizar"), ("escribir", "1")]
    enviados = datos.draw(pares(AUTORIZACION, fijos))
    ip = datos.draw(IPS)
    r = (_get if metodo == "GET" else _post)(client, "/oauth/authorize", enviados, ip)
    _sin_5xx(r)


@pytest.mark.parametrize("ruta", ["/oauth/token", "/oauth/revoke"])
@AJUSTES
@given(datos=st.data())
def test_the_token_and_revocation_endpoints_answer_odd_input_in_json(client, sitio, ruta, datos):
    campos = TOKEN if ruta == "/oauth/token" else ["token", "token_type_hint", "client_id"]
    fijos = [("grant_type", "refresh_token"), ("client_id", sitio.client_id)]
    fijos += [("refresh_token", "sgiort_x")] if ruta == "/oauth/token" else [("token", "x")]
    enviados = datos.draw(pares(campos, fijos))
    basic = datos.draw(BASIC)
    extra = {"HTTP_AUTHORIZATION": basic} if basic is not None else {}
    _json_sin_cache(_post(client, ruta, enviados, datos.draw(IPS), **extra))


@AJUSTES
@given(datos=st.data())
def test_registration_answers_odd_metadata_in_json(client, datos):
    campos = ["client_name", "token_endpoint_auth_method", "scope", "client_uri"]
    cuerpo: dict = dict(datos.draw(pares(campos)))
    cuerpo["redirect_uris"] = datos.draw(
        st.lists(st.one_of(VALORES, st.just("https://a.example/cb")), max_size=3)
    )
    cuerpo["grant_types"] = datos.draw(st.lists(VALORES, max_size=2))
    r = client.post(
        "/oauth/register",
        json.dumps(cuerpo),
        content_type="application/json",
        REMOTE_ADDR=f"10.9.{datos.draw(st.integers(0, 255))}.{datos.draw(st.integers(1, 254))}",
    )
    _json_sin_cache(r)


@pytest.mark.parametrize(
    "ruta",
    [
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp/api/mcp",
    ],
)
@AJUSTES
@given(datos=st.data())
def test_the_metadata_documents_ignore_odd_queries(client, ruta, datos):
    r = _get(client, ruta, datos.draw(pares(["resource", "client_id"])), datos.draw(IPS))
    assert r.status_code == 200 and r.json()["resource" if "protected" in ruta else "issuer"]
