"""docs/contrato.md, the page for what the OpenAPI and the tool registry do not say, agrees with
them: every answer of its tables is in docs/openapi.yaml and every answer there is in the page;
every tool of the page is registered with the kind, access, area and permissions it states, and
every registered tool is in the page; its limits, JSON-RPC errors and tool errors are the code's."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from apps.mcp import aprobaciones, protocolo
from apps.mcp.models import AjustesAsistente
from hub.herramientas.registro import registro
from hub.models import Limites

RAIZ = Path(__file__).resolve().parents[2]
PAGINA = (RAIZ / "docs" / "contrato.md").read_text(encoding="utf-8")
OPENAPI = yaml.safe_load((RAIZ / "docs" / "openapi.yaml").read_text(encoding="utf-8"))
METODOS_HTTP = ("get", "post", "put", "patch", "delete", "head", "options")
CODIGO = re.compile(r"`([A-Z][A-Z0-9_]+)`")

Respuestas = dict[tuple[str, str, str], frozenset[str]]  # (method, path, status) -> codes


def _tabla(*encabezado: str) -> list[list[str]]:
    """The rows of the page's table whose header starts with these cells (exactly one table)."""
    tablas: list[list[list[str]]] = []
    actual: list[list[str]] | None = None
    for linea in PAGINA.splitlines():
        linea = linea.strip()
        if not linea.startswith("|"):
            actual = None
            continue
        celdas = [c.strip() for c in linea.strip("|").split("|")]
        if actual is None:
            actual = [celdas]
            tablas.append(actual)
        elif not all(set(c) <= set("-: ") for c in celdas):
            actual.append(celdas)
    elegidas = [t[1:] for t in tablas if tuple(t[0][: len(encabezado)]) == encabezado]
    assert len(elegidas) == 1, f"la página debe tener una tabla {encabezado}"
    return elegidas[0]


def _sin_comillas(celda: str) -> str:
    return celda.strip("`")


def _codigos(texto: str) -> frozenset[str]:
    return frozenset(CODIGO.findall(texto))


def _servicios() -> list[str]:
    return [_sin_comillas(fila[1]).strip("/") for fila in _tabla("servicio", "prefijo")]


def _respuestas_de_la_pagina() -> Respuestas:
    """The per-operation table, `<servicio>` read from the services table, plus the statuses the
    page says every /api/ path may answer, for each of those operations."""
    respuestas: Respuestas = {}
    for operacion, estado, codigos, _cuando in _tabla("operación", "HTTP", "códigos"):
        metodo, ruta = _sin_comillas(operacion).split(" ", 1)
        rutas = (
            [ruta.replace("<servicio>", s) for s in _servicios()]
            if "<servicio>" in ruta
            else [ruta]
        )
        for una in rutas:
            clave = (metodo.lower(), una, estado)
            assert clave not in respuestas, f"fila repetida: {clave}"
            respuestas[clave] = _codigos(codigos)
    operaciones = {(metodo, ruta) for metodo, ruta, _estado in respuestas}
    for estado, codigo, _cuando in _tabla("HTTP", "código"):
        for metodo, ruta in operaciones:
            respuestas[(metodo, ruta, estado)] = _codigos(codigo)
    return respuestas


def _respuestas_del_openapi() -> Respuestas:
    """Every (operation, status) of docs/openapi.yaml with the codes its description names."""
    return {
        (metodo, ruta, str(estado)): _codigos(respuesta.get("description", ""))
        for ruta, operaciones in OPENAPI["paths"].items()
        for metodo, operacion in operaciones.items()
        if metodo in METODOS_HTTP
        for estado, respuesta in operacion["responses"].items()
    }


def test_every_answer_of_the_page_is_in_the_openapi_with_the_same_codes_and_back():
    pagina, openapi = _respuestas_de_la_pagina(), _respuestas_del_openapi()
    assert sorted(set(pagina) - set(openapi)) == [], "en la página, no en docs/openapi.yaml"
    assert sorted(set(openapi) - set(pagina)) == [], "en docs/openapi.yaml, no en la página"
    distintas = {k: (pagina[k], openapi[k]) for k in pagina if pagina[k] != openapi[k]}
    assert distintas == {}


def test_the_services_of_the_page_are_the_pings_of_the_openapi():
    pings = {ruta.split("/")[1] for ruta in OPENAPI["paths"] if ruta.endswith("/api/v1/ping")}
    assert sorted(_servicios()) == sorted(pings)


TIPOS = {"lectura": False, "escritura en dos pasos": True}
ACCESOS = {"pública": "publica", "verificada": "verificada", "usuario": "usuario"}


def _herramientas_de_la_pagina() -> dict[str, tuple[bool, str, str | None, str | None, set]]:
    herramientas = {}
    for nombre, tipo, acceso, area, permisos in _tabla("herramienta", "tipo", "acceso"):
        acceso_, _, dato = acceso.partition(" ")
        herramientas[_sin_comillas(nombre)] = (
            TIPOS[tipo],
            ACCESOS[acceso_],
            _sin_comillas(dato.strip("()")) or None,
            None if area == "—" else area,
            set() if permisos == "—" else {_sin_comillas(p.strip()) for p in permisos.split(",")},
        )
    return herramientas


def test_every_tool_of_the_page_is_registered_as_stated_and_every_registered_tool_is_there():
    registradas = {
        h.nombre: (
            h.escritura,
            h.acceso.value,
            h.verificacion.argumento if h.verificacion else None,
            h.area,
            set(h.permisos),
        )
        for h in registro
    }
    assert _herramientas_de_la_pagina() == registradas


def test_the_limits_of_the_page_are_the_defaults_of_the_settings_models():
    modelos = {"Limites": Limites, "AjustesAsistente": AjustesAsistente}
    filas = _tabla("límite", "por defecto")
    assert len(filas) == 9
    for _limite, defecto, _aplica, ajuste in filas:
        modelo, campo = _sin_comillas(ajuste).split(".")
        valor = int(re.match(r"\d+", defecto).group())
        assert modelos[modelo]._meta.get_field(campo).default == valor, ajuste
    campos_de_limite = {
        f"{m.__name__}.{c.name}"
        for m in modelos.values()
        for c in m._meta.fields
        if c.name.endswith(("_por_minuto", "_por_hora", "_por_dia", "_por_10_minutos"))
    }
    assert campos_de_limite == {_sin_comillas(f[3]) for f in filas}


def test_the_json_rpc_errors_of_the_page_are_the_protocols():
    codigos = {int(fila[0]) for fila in _tabla("código", "cuándo")}
    assert codigos == {
        protocolo.PARSE_ERROR,
        protocolo.INVALID_REQUEST,
        protocolo.METHOD_NOT_FOUND,
        protocolo.INVALID_PARAMS,
    }


def test_the_tool_errors_of_the_page_are_the_ones_the_code_raises():
    levantados = {aprobaciones.PENDIENTE, aprobaciones.RECHAZADA}
    for archivo in (RAIZ / "apps").rglob("*.py"):
        fuente = archivo.read_text(encoding="utf-8")
        levantados |= set(re.findall(r'ErrorHerramienta\(\s*"([A-Z][A-Z0-9_]+)"', fuente))
    pagina = {_sin_comillas(fila[0]) for fila in _tabla("codigo", "cuándo")}
    assert pagina == levantados
