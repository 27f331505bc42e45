"""The OpenAPI schema: committed, up to date, served, complete, and browsable under the CSP."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from hub.openapi import vistas
from hub.openapi.generador import Generador
from tests.conftest import CAPTURAS
from tests.navegador_csp import vigilar_csp

COMPROMETIDO = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
PINGS = ("auth", "presupuesto", "solicitudes", "calidad", "archivos", "mcp", "notificaciones")
COMUNES = {"413", "429", "500"}
ESTADOS = {
    ("get", "/auth/api/v1/auth/marca"): {"200", "304"},
    ("get", "/auth/api/v1/auth/marca/archivo/{slot}"): {"200", "304", "404"},
    ("get", "/presupuesto/api/v1/firmas/verificar/{token}"): {"200", "404"},
    ("get", "/presupuesto/api/v1/paa/firmas/verificar/{token}"): {"200", "404"},
    ("post", "/notificaciones/api/public/v1/contacto"): {
        "201",
        "400",
        "406",
        "415",
        "422",
        "503",
    },
    ("post", "/mcp/api/mcp"): {"200", "202", "400", "401", "403", "406", "415", "503"},
    ("get", "/mcp/api/mcp"): {"405"},
    **{("get", f"/{s}/api/v1/ping"): {"200"} for s in PINGS},
}


@pytest.fixture(scope="module")
def esquema() -> dict:
    return yaml.safe_load(COMPROMETIDO.read_text(encoding="utf-8"))


def _operaciones(esquema: dict):
    for ruta, metodos in esquema["paths"].items():
        for metodo, operacion in metodos.items():
            yield metodo, ruta, operacion


def _cabeceras(esquema: dict, metodo: str, ruta: str, estado: str) -> dict:
    return esquema["paths"][ruta][metodo]["responses"][estado].get("headers", {})


def _rutas_de_api(patrones, prefijo: str = "") -> list[str]:
    """Every route of the URLconf with an api/ segment (regex text); the catch-all has none."""
    rutas = []
    for patron in patrones:
        texto = prefijo + str(patron.pattern)
        if isinstance(patron, URLResolver):
            rutas.extend(_rutas_de_api(patron.url_patterns, texto))
        elif isinstance(patron, URLPattern) and re.search(r"(^|/)\^?api/", texto):
            rutas.append(texto)
    return rutas


def test_committed_schema_equals_a_fresh_validated_generation(tmp_path):
    destino = tmp_path / "openapi.yaml"
    # --validate checks it against the OpenAPI 3.0 metaschema; --fail-on-warn refuses any guess.
    call_command("spectacular", "--file", str(destino), "--validate", "--fail-on-warn")
    assert destino.read_text(encoding="utf-8") == COMPROMETIDO.read_text(encoding="utf-8"), (
        "docs/openapi.yaml está desactualizado: ejecute `make openapi`."
    )


@pytest.mark.django_db
def test_served_schema_in_json_is_the_committed_one(api, esquema):
    r = api.get("/api/schema/?format=json")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/vnd.oai.openapi+json"
    assert json.loads(r.content) == esquema
    assert r["Content-Disposition"] == 'inline; filename="Hub institucional: API v1.json"'


@pytest.mark.django_db
def test_served_schema_is_yaml_by_default_and_needs_no_credentials(api, esquema):
    r = api.get("/api/schema/")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.safe_load(r.content) == esquema
    assert r["Content-Disposition"] == 'inline; filename="Hub institucional: API v1.yaml"'


@pytest.mark.django_db
def test_schema_is_generated_once_per_process(api, monkeypatch):
    monkeypatch.setattr(vistas, "_esquema", None)
    monkeypatch.setattr(vistas, "_rendidos", {})
    llamadas = []
    original = Generador.get_schema

    def contar(self, *args, **kwargs):
        llamadas.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Generador, "get_schema", contar)
    primera = api.get("/api/schema/?format=json")
    assert api.get("/api/schema/").status_code == 200
    assert api.get("/api/schema/?format=json").content == primera.content
    assert len(llamadas) == 1
    assert set(vistas._rendidos) == {
        "application/vnd.oai.openapi+json",
        "application/vnd.oai.openapi",
    }


def test_every_v1_path_is_documented_and_nothing_else(esquema):
    assert set(esquema["paths"]) == {ruta for _, ruta in ESTADOS}
    # Every /api/ route of the URLconf (but the schema and its page) has its documented path.
    documentadas = {re.sub(r"\{\w+\}", "", r).strip("/") for r in esquema["paths"]}
    for ruta in _rutas_de_api(get_resolver().url_patterns):
        limpia = re.sub(r"\(\?P<\w+>[^)]*\)|<\w+:\w+>|[\^$]", "", ruta).strip("/")
        if limpia in ("api/schema", "api/docs") or limpia.startswith(".well-known/"):
            continue  # the schema, its page, and discovery documents (RFC 8615)
        assert limpia in documentadas, ruta


def test_each_operation_lists_every_status_it_can_answer(esquema):
    encontradas = {(m, r): set(op["responses"]) for m, r, op in _operaciones(esquema)}
    assert encontradas == {clave: estados | COMUNES for clave, estados in ESTADOS.items()}


def test_brand_declares_etag_cache_and_rate_headers(esquema):
    ruta = "/auth/api/v1/auth/marca"
    for estado in ("200", "304"):
        cabeceras = _cabeceras(esquema, "get", ruta, estado)
        assert cabeceras["ETag"]["required"] is True
        assert cabeceras["ETag"]["schema"]["pattern"] == '^"[0-9a-f]{16}"$'
        assert cabeceras["Cache-Control"]["schema"]["enum"] == [
            "public, max-age=0, must-revalidate"
        ]
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining"} <= set(cabeceras)
    assert "If-None-Match" in {p["name"] for p in esquema["paths"][ruta]["get"]["parameters"]}
    assert esquema["paths"][ruta]["get"]["responses"]["304"].get("content") is None


def test_every_429_requires_retry_after_and_every_answer_declares_global_limits(esquema):
    for metodo, ruta, operacion in _operaciones(esquema):
        for estado in operacion["responses"]:
            cabeceras = _cabeceras(esquema, metodo, ruta, estado)
            assert {"X-RateLimit-Global-Limit", "X-RateLimit-Global-Remaining"} <= set(cabeceras), (
                metodo,
                ruta,
                estado,
            )
        assert _cabeceras(esquema, metodo, ruta, "429")["Retry-After"]["required"] is True


def test_error_answers_use_the_error_envelope(esquema):
    sobre = esquema["components"]["schemas"]["SobreError"]
    assert sobre["required"] == ["error", "message", "success"]
    assert sobre["properties"]["success"]["enum"] == [False]
    detalle = esquema["components"]["schemas"]["DetalleError"]
    assert detalle["required"] == ["code", "detalle"]
    assert set(detalle["properties"]) == {"code", "detalle", "campos"}
    for metodo, ruta, operacion in _operaciones(esquema):
        for estado, respuesta in operacion["responses"].items():
            if int(estado) >= 400 and ruta != "/archivos/api/v1/ping":
                esquema_cuerpo = respuesta["content"]["application/json"]["schema"]
                assert esquema_cuerpo == {"$ref": "#/components/schemas/SobreError"}, (
                    metodo,
                    ruta,
                    estado,
                )


def test_assistant_documents_the_message_the_three_levels_and_its_credentials(esquema):
    post = esquema["paths"]["/mcp/api/mcp"]["post"]
    peticion = esquema["components"]["schemas"]["MensajeJsonRpc"]["oneOf"]
    assert [p["$ref"].rsplit("/", 1)[1] for p in peticion] == [
        "PeticionJsonRpc",
        "LlamadaHerramienta",
        "NotificacionJsonRpc",
    ]
    assert esquema["components"]["schemas"]["NotificacionJsonRpc"]["not"] == {"required": ["id"]}
    respuesta = esquema["components"]["schemas"]["RespuestaMcp"]["oneOf"]
    assert [r["$ref"].rsplit("/", 1)[1] for r in respuesta] == ["RespuestaJsonRpc", "ErrorJsonRpc"]
    codigos = esquema["components"]["schemas"]["ErrorJsonRpcDetalle"]["properties"]["code"]
    assert codigos["enum"] == [-32700, -32600, -32601, -32602]
    herramienta = esquema["components"]["schemas"]["ResultadoHerramienta"]
    assert {"content", "isError", "structuredContent"} <= set(herramienta["required"])
    assert "content" not in post["responses"]["202"]
    assert _cabeceras(esquema, "post", "/mcp/api/mcp", "401")["WWW-Authenticate"]["required"]
    assert {"claveApi": [], "tokenUsuario": []} in post["security"]
    esquemas = esquema["components"]["securitySchemes"]
    assert esquemas["claveApi"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-MCP-Api-Key",
        "description": "Clave de API de la integración.",
    }
    assert esquemas["tokenUsuario"]["name"] == "X-MCP-User-Token"
    assert esquemas["bearer"]["scheme"] == "bearer"
    get = esquema["paths"]["/mcp/api/mcp"]["get"]
    assert get["responses"]["405"]["headers"]["Allow"]["required"] is True


def test_public_endpoints_ask_for_no_credentials(esquema):
    for metodo, ruta, operacion in _operaciones(esquema):
        if (metodo, ruta) != ("post", "/mcp/api/mcp"):
            assert "security" not in operacion, (metodo, ruta)
    assert "security" not in esquema


@pytest.mark.django_db
def test_docs_page_loads_only_local_files_and_no_inline_script(api):
    r = api.get("/api/docs/")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/html")
    html = r.content.decode()
    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts and all('src="/static/' in s for s in scripts)
    assert "<style" not in html and " style=" not in html
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert 'data-esquema="/api/schema/?format=json"' in html


@pytest.mark.django_db
def test_docs_page_answers_405_envelope_to_other_methods(api):
    r = api.post("/api/docs/")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"


@pytest.mark.navegador
@pytest.mark.django_db(transaction=True)
def test_docs_page_renders_every_operation_in_chromium_under_the_strict_csp(navegador):
    pagina = navegador(1280, 900)
    violaciones = vigilar_csp(pagina)
    respuesta = pagina.goto(pagina.base + "/api/docs/")
    assert "script-src 'self'" in respuesta.headers["content-security-policy"]
    assert "unsafe-inline" not in respuesta.headers["content-security-policy"]
    pagina.wait_for_selector(".opblock-summary-path")
    rutas = pagina.locator(".opblock-summary-path").all_inner_texts()
    assert len(rutas) == len(ESTADOS)
    assert any("/mcp/api/mcp" in r for r in rutas)
    pagina.locator(".opblock-summary", has_text="/auth/api/v1/auth/marca").first.click()
    pagina.wait_for_selector(".responses-table")
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    pagina.screenshot(path=str(CAPTURAS / "api_docs.png"), full_page=False)
    assert violaciones == []
