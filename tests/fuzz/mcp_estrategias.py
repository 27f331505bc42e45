"""Hypothesis strategies of the MCP fuzzing: raw bodies, JSON values, JSON-RPC-shaped objects,
arguments derived from each tool's own inputSchema (and mutated), and HTTP header values."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from hub.herramientas.registro import registro

# --- strategies: raw bodies and JSON values ------------------------------------------------------

_SUSTITUTOS = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
textos_limpios = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "2.0", "tools/call", "sgimcp_", "\u202e", "null", "ñandú"]),
)
textos = st.one_of(
    textos_limpios,
    textos_limpios,
    st.text(st.characters(codec=None, exclude_categories=[]), max_size=12),  # with surrogates
    st.builds(lambda a, s, b: a + s + b, st.text(max_size=5), _SUSTITUTOS, st.text(max_size=5)),
)
numeros = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, -0.0, 2**53 + 1, 10**300, 1e308, -1e-320]),
)


def _json(texto: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    return st.recursive(
        st.one_of(st.none(), st.booleans(), numeros, texto),
        lambda hijos: st.lists(hijos, max_size=5) | st.dictionaries(texto, hijos, max_size=5),
        max_leaves=25,
    )


valores_json = _json(textos)  # any JSON value, lone surrogates included
valores_limpios = _json(textos_limpios)  # the same without them: to get past the parser


@st.composite
def cuerpos_crudos(draw) -> bytes:
    """Random bytes, broken JSON and texts that are JSON only in part."""
    return draw(
        st.one_of(
            st.binary(max_size=300),
            st.text(max_size=200).map(lambda t: t.encode("utf-8")),
            st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "[1e400]", "{", "}"]).map(
                str.encode
            ),
            st.builds(
                lambda t, n: (t[: len(t) // 2] if n else t + "x").encode("utf-8"),
                st.just('{"jsonrpc":"2.0","id":1,"method":"ping"}'),
                st.booleans(),
            ),
            st.builds(
                lambda v: json.dumps(v).replace("1", "NaN", 1).encode(),
                st.just({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            ),
            st.builds(lambda b: b"\xef\xbb\xbf" + b, st.just(b'{"jsonrpc":"2.0","id":1}')),
        )
    )


@st.composite
def cuerpos_anidados(draw) -> bytes:
    """Deep nesting, inside a real message or alone, up to far beyond any stack."""
    profundidad = draw(st.sampled_from([10, 99, 100, 500, 2000, 50_000]))
    abre, cierra = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('[{"b":', "}]")]))
    nido = abre * profundidad + "1" + cierra * profundidad
    if draw(st.booleans()):
        return nido.encode()
    nombre = draw(st.sampled_from(["buscar_documento", "reporte_preparar", "no_existe"]))
    return (
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"'
        + nombre
        + '","arguments":{"texto":'
        + nido
        + "}}}"
    ).encode()


# --- strategies: JSON-RPC-shaped objects ------------------------------------------------------


def casi_siempre(bueno: st.SearchStrategy[Any], malo: st.SearchStrategy[Any]) -> Any:
    """`bueno` four times out of five, `malo` otherwise: most messages pass most checks."""
    return st.integers(0, 4).flatmap(lambda n: malo if n == 4 else bueno)


METODOS = ["initialize", "ping", "tools/list", "tools/call"]
ids = casi_siempre(
    st.integers(min_value=-(2**63), max_value=2**63) | st.text(max_size=20),
    st.one_of(
        st.none(),
        st.booleans(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        st.sampled_from([1.0, 1e2, 2**64 + 0.5]),
    ),
)
versiones_jsonrpc = casi_siempre(
    st.just("2.0"),
    st.one_of(
        st.sampled_from(["1.0", "2", "2.00", " 2.0", "2.0 ", "", "\uff12.\uff10", 2.0, 2]),
        valores_json,
    ),
)
metodos = casi_siempre(
    st.sampled_from(METODOS),
    st.one_of(
        st.sampled_from(
            [
                "notifications/initialized",
                "notifications/cancelled",
                "resources/list",
                "Tools/List",
                "tools/call ",
                "",
                "rpc.discover",
                "__init__",
            ]
        ),
        textos,
        valores_json,
    ),
)
params_initialize = st.fixed_dictionaries(
    {},
    optional={
        "protocolVersion": st.one_of(
            st.sampled_from(["2025-06-18", "2025-03-26", "2024-11-05", ""]), valores_limpios
        ),
        "capabilities": valores_limpios,
        "clientInfo": valores_limpios,
    },
)


def _nombres_herramienta() -> st.SearchStrategy[Any]:
    nombres = sorted(h.nombre for h in registro)
    parecidos = [n.upper() for n in nombres[:3]] + [f" {nombres[0]}", nombres[1] + "\x00", "a" * 81]
    return casi_siempre(
        st.sampled_from(nombres),
        st.one_of(st.sampled_from(parecidos), textos, valores_json),
    )


@st.composite
def params_tools_call(draw) -> Any:
    params: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        params["name"] = draw(_nombres_herramienta())
    if draw(st.integers(0, 9)):
        params["arguments"] = draw(
            casi_siempre(st.dictionaries(textos_limpios, valores_limpios, max_size=4), valores_json)
        )
    if draw(st.booleans()):
        params["_meta"] = draw(valores_limpios)
    return params


@st.composite
def mensajes_jsonrpc(draw) -> Any:
    """Objects shaped like JSON-RPC with, often, one or more members of the wrong type."""
    mensaje: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        mensaje["jsonrpc"] = draw(versiones_jsonrpc)
    if draw(st.integers(0, 5)):
        mensaje["id"] = draw(ids)
    if draw(st.integers(0, 9)):
        mensaje["method"] = draw(metodos)
    metodo = mensaje.get("method")
    if draw(st.integers(0, 3)):
        if metodo == "tools/call":
            mensaje["params"] = draw(casi_siempre(params_tools_call(), valores_json))
        elif metodo == "initialize":
            mensaje["params"] = draw(casi_siempre(params_initialize, valores_json))
        else:
            mensaje["params"] = draw(
                casi_siempre(st.dictionaries(textos, valores_limpios), valores_json)
            )
    for clave in draw(st.lists(st.sampled_from(["result", "error", "extra", "ID"]), max_size=2)):
        mensaje[clave] = draw(valores_limpios)
    if draw(st.integers(0, 12)) == 0:
        return draw(st.lists(st.just(mensaje) | valores_json, max_size=3))  # a batch
    return mensaje


# --- strategies: arguments from each tool's own inputSchema --------------------------------------

_SEGURO = st.characters(categories=["L", "N", "Zs", "P"], exclude_characters="\x00")


def _texto_esquema(esquema: dict, semillas: list[str]) -> st.SearchStrategy[str]:
    minimo = esquema.get("minLength", 0)
    maximo = esquema.get("maxLength", minimo + 40)
    if "pattern" in esquema:
        generado = st.from_regex(esquema["pattern"], fullmatch=True)
    elif esquema.get("format") == "date":
        generado = st.dates().map(lambda d: d.isoformat())
    else:
        generado = st.one_of(
            st.text(_SEGURO, min_size=minimo, max_size=min(maximo, minimo + 60)),
            st.text(min_size=minimo, max_size=min(maximo, minimo + 20)),
            st.sampled_from(sorted({minimo, maximo})).map(lambda n: "a" * n),
        )
    propias = [s for s in semillas if minimo <= len(s) <= maximo]
    if propias:  # a real identifier half of the time, so that records are found too
        semillas_, libre = st.sampled_from(propias), generado
        generado = st.integers(0, 3).flatmap(lambda n: semillas_ if n in (1, 2) else libre)
    return generado.filter(lambda s: minimo <= len(s) <= maximo)


def desde_esquema(esquema: dict, semillas: dict[str, list[str]], nombre: str = "") -> Any:
    """A strategy of values valid for `esquema` (the subset of JSON Schema the registry emits)."""
    if "enum" in esquema:
        return st.sampled_from(esquema["enum"])
    if "const" in esquema:
        return st.just(esquema["const"])
    if "anyOf" in esquema:
        return st.one_of(*(desde_esquema(e, semillas, nombre) for e in esquema["anyOf"]))
    tipo = esquema.get("type")
    if isinstance(tipo, list):
        return st.one_of(*(desde_esquema({**esquema, "type": t}, semillas, nombre) for t in tipo))
    if tipo == "null":
        return st.none()
    if tipo == "boolean":
        return st.booleans()
    if tipo == "integer":
        return st.integers(esquema.get("minimum"), esquema.get("maximum"))
    if tipo == "number":
        return st.one_of(
            st.integers(-(10**12), 10**12),
            st.floats(esquema.get("minimum"), esquema.get("maximum"), allow_nan=False),
        ).filter(lambda n: not math.isinf(n))
    if tipo == "string":
        return _texto_esquema(esquema, semillas.get(nombre, []))
    if tipo == "array":
        items = desde_esquema(esquema.get("items", {}), semillas, nombre)
        return st.lists(
            items,
            min_size=esquema.get("minItems", 0),
            max_size=min(esquema.get("maxItems", 4), esquema.get("minItems", 0) + 4),
            unique_by=(lambda v: json.dumps(v, sort_keys=True))
            if esquema.get("uniqueItems")
            else None,
        )
    if tipo == "object" and "properties" in esquema:
        propiedades = {
            clave: desde_esquema(sub, semillas, clave)
            for clave, sub in esquema["properties"].items()
        }
        requeridas = set(esquema.get("required", []))
        return st.fixed_dictionaries(
            {k: v for k, v in propiedades.items() if k in requeridas},
            optional={k: v for k, v in propiedades.items() if k not in requeridas},
        )
    return valores_limpios  # `{}` or an object without properties: anything


def _propiedades(esquema: dict) -> list[tuple[list[str], dict]]:
    """(path, schema) of every property, nested objects and array items included."""
    salida: list[tuple[list[str], dict]] = []
    for clave, sub in esquema.get("properties", {}).items():
        salida.append(([clave], sub))
        if sub.get("type") == "object":
            salida += [([clave, *r], s) for r, s in _propiedades(sub)]
    return salida


def _fuera_de_limites(sub: dict) -> st.SearchStrategy[Any]:
    """Values just outside a property's bounds, or of another JSON type."""
    opciones = [valores_limpios, st.none()]
    if "minLength" in sub and sub["minLength"] > 0:
        opciones.append(st.just("b" * (sub["minLength"] - 1)))
    if "maxLength" in sub:
        opciones.append(st.just("c" * (sub["maxLength"] + 1)))
    if "minimum" in sub:
        opciones.append(st.just(sub["minimum"] - 1))
    if "maximum" in sub:
        opciones += [st.just(sub["maximum"] + 1), st.just(float(sub["maximum"]))]
    if "enum" in sub:
        opciones.append(st.sampled_from([str(v).upper() + "x" for v in sub["enum"]]))
    if "maxItems" in sub:
        opciones.append(st.just(["x"] * (sub["maxItems"] + 1)))
    if sub.get("type") == "integer":
        opciones += [st.just("5"), st.just(True), st.just(3.5), st.just(2**70)]
    if sub.get("type") == "boolean":
        opciones += [st.sampled_from(["true", 1, 0, "false"])]
    return st.one_of(*opciones)


@st.composite
def argumentos_de(draw, nombre: str, semillas: dict[str, list[str]]) -> dict:
    """Valid arguments for the tool, then (often) one mutation that may make them invalid."""
    esquema = registro.obtener(nombre).esquema_entrada
    propias = {
        **semillas,
        **{k.split(".", 1)[1]: v for k, v in semillas.items() if k.startswith(f"{nombre}.")},
    }
    argumentos = draw(desde_esquema(esquema, propias))
    mutacion = draw(st.sampled_from(["ninguna"] * 3 + ["extra", "quitar", "valor", "valor"]))
    event(f"mutación: {mutacion}")
    if mutacion == "extra":
        # Secrets pasted as a name or a value must still never reach the audit log.
        secretos_ = st.sampled_from(semillas["secretos"])
        clave = draw((textos_limpios | secretos_).filter(lambda k: k not in esquema["properties"]))
        argumentos[clave] = draw(valores_limpios | secretos_.map(lambda t: f"mi clave es {t}"))
    elif mutacion == "quitar" and esquema.get("required"):
        argumentos.pop(draw(st.sampled_from(esquema["required"])))
    elif mutacion == "valor" and _propiedades(esquema):
        camino, sub = draw(st.sampled_from(_propiedades(esquema)))
        destino = argumentos
        for clave in camino[:-1]:
            destino = destino.setdefault(clave, {})
            if not isinstance(destino, dict):
                return argumentos
        destino[camino[-1]] = draw(_fuera_de_limites(sub))
    return argumentos


# --- strategies: HTTP headers -------------------------------------------------------------------

_CABECERA = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
ORIGENES = st.one_of(
    st.sampled_from(
        ["http://testserver", "HTTP://TESTSERVER/", "https://testserver", "http://evil.example"]
    ),
    st.sampled_from(["null", "", "http://testserver:80", "http://testserver.evil.example"]),
    st.sampled_from(["http://[::1", "http://[zz]"]),  # urlsplit raises on these
    _CABECERA,
)
ACEPTA = st.one_of(
    st.sampled_from(["application/json", "application/json, text/event-stream", "*/*"]),
    st.sampled_from(["text/html", "text/event-stream", "application/xml", "", "application/*"]),
    st.sampled_from(["APPLICATION/JSON;q=0.5", "text/*, application/json;q=0.1"]),
    st.sampled_from(["application/json;q=0, */*", "*/*;q=0, application/json", "*/*; q = 0"]),
    _CABECERA,
)
VERSIONES = st.one_of(
    st.sampled_from(["2025-06-18", "2025-03-26", " 2025-06-18 ", "2024-11-05", "", "2025-06-19"]),
    _CABECERA,
)
TIPOS = st.one_of(
    st.sampled_from(["application/json", "application/json; charset=utf-8", "application/x+json"]),
    st.sampled_from(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]),
    st.sampled_from(["", "application/jsonx", "json"]),
    _CABECERA,
)
