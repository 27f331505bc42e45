"""The requests of the benchmark, defined once: wrk replays them and the query count replays them.

Each one names its server (the hub, the bare limit and its floors, or the SDK peer), the exact
status that counts as success and a text its body must hold (a tool error is still HTTP 200, so
every tools/call must answer "isError":false to count).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

HUB, LIMITE, PEER = "hub", "limite", "peer"
RUTA_MCP = "/mcp/api/mcp"
RUTA_MARCA = "/auth/api/v1/auth/marca"
RUTA_LOGO = "/auth/api/v1/auth/marca/archivo/logo"
SIN_ERROR = '"isError":false'
SUELO_HERRAMIENTA = "suelo_herramienta"
# Search texts: a place and a kind of request, the way a person asks ("viáticos a Cartagena").
TEXTO_BUSCAR = "viaticos cartagena"
TEXTO_GLOBAL = "cartagena"
# Who the tools' token and the pages' session belong to (demo["cookie"]: bench.datos sesion).
USUARIO_PAGINAS = "completo"
# A searched list page: buscar_solicitudes' search as a person types it in /solicitudes/.
RUTA_LISTA = "/solicitudes/?" + urlencode({"q": TEXTO_BUSCAR, "alcance": "todas"})


@dataclass(frozen=True)
class Peticion:
    """One request of the benchmark and how to recognise its success."""

    nombre: str
    titulo: str
    servidor: str
    metodo: str
    ruta: str
    cabeceras: dict[str, str] = field(default_factory=dict)
    cuerpo: str | None = None
    esperado: int = 200
    contiene: str | None = None
    una_conexion: bool = False  # also measured with wrk -c1 (the search tools' p99 target)

    def entorno(self, sufijo: str = "") -> dict[str, str]:
        """The BENCH_* variables bench/wrk/peticion.lua reads."""
        return {
            f"BENCH_METODO{sufijo}": self.metodo,
            f"BENCH_RUTA{sufijo}": self.ruta,
            f"BENCH_CABECERAS{sufijo}": "\n".join(f"{k}: {v}" for k, v in self.cabeceras.items()),
            f"BENCH_CUERPO{sufijo}": self.cuerpo or "",
        }


def _rpc(metodo: str, params: dict[str, Any]) -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": metodo, "params": params},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def cabeceras_mcp(demo: dict[str, Any]) -> dict[str, str]:
    """What an MCP client sends: the integration key, the person's token, JSON both ways."""
    return {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
        "X-MCP-Api-Key": demo["api_key"],
        "X-MCP-User-Token": demo["tokens"]["completo"],
    }


def _herramienta(
    demo: dict[str, Any], nombre: str, argumentos: dict[str, Any], **extra: Any
) -> Peticion:
    return Peticion(
        nombre=extra.pop("clave", nombre),
        titulo=extra.pop("titulo", f"tools/call {nombre}"),
        servidor=extra.pop("servidor", HUB),
        metodo="POST",
        ruta=extra.pop("ruta", RUTA_MCP),
        cabeceras=cabeceras_mcp(demo),
        cuerpo=_rpc("tools/call", {"name": nombre, "arguments": argumentos}),
        contiene=SIN_ERROR,
        **extra,
    )


def numero_de_prueba(demo: dict[str, Any]) -> str:
    """A request in progress that `completo` may see (a full answer, not the public subset)."""
    return demo["solicitudes"]["en_tramite"]


def todas(demo: dict[str, Any], etag_marca: str, etag_logo: str) -> list[Peticion]:
    """Every request of a run, in the order they are measured."""
    numero = numero_de_prueba(demo)
    return [
        Peticion(
            "limite",
            "límite: vista Django sin middleware",
            LIMITE,
            "GET",
            "/limite",
            contiene='"success": true',
        ),
        Peticion(
            "eco",
            "piso del protocolo: eco JSON-RPC en Django sin middleware",
            LIMITE,
            "POST",
            "/eco",
            {"Content-Type": "application/json"},
            _rpc("tools/call", {"name": "eco", "arguments": {"texto": "hola"}}),
            contiene='"isError": false',
        ),
        # The floors with one shared limit (issue 24, item 9): the reference of ping, brand and
        # verification is the DRF one (bench/limite/suelo.py).
        Peticion(
            "suelo",
            "suelo: vista Django con un límite compartido (Redis, un pipeline)",
            LIMITE,
            "GET",
            "/suelo",
            contiene='"success": true',
        ),
        Peticion(
            "suelo_drf",
            "suelo DRF: la misma vista como APIView",
            LIMITE,
            "GET",
            "/suelo-drf",
            contiene='"success":true',
        ),
        # The floor of a tool call (issue 42): every tools/call row gets its ratio to it.
        _herramienta(
            demo,
            "estado_solicitud",
            {"numero_radicado": numero},
            clave=SUELO_HERRAMIENTA,
            titulo="suelo de una herramienta: límite en Redis, SELECT por número, INSERT de "
            "auditoría (Django sin middleware)",
            servidor=LIMITE,
            ruta="/suelo-herramienta",
        ),
        Peticion("marca_200", "marca 200", HUB, "GET", RUTA_MARCA, contiene='"version"'),
        Peticion(
            "marca_304",
            "marca 304 (If-None-Match)",
            HUB,
            "GET",
            RUTA_MARCA,
            {"If-None-Match": etag_marca},
            esperado=304,
        ),
        Peticion(
            "imagen_304",
            "imagen (logo) 304",
            HUB,
            "GET",
            RUTA_LOGO,
            {"If-None-Match": etag_logo},
            esperado=304,
        ),
        Peticion(
            "firma",
            "verificación de firma",
            HUB,
            "GET",
            f"/presupuesto/api/v1/firmas/verificar/{demo['firmas']['valida']}",
            contiene='"valido":true',
        ),
        Peticion("ping", "ping", HUB, "GET", "/solicitudes/api/v1/ping", contiene='"pong"'),
        Peticion(
            "initialize",
            "MCP initialize",
            HUB,
            "POST",
            RUTA_MCP,
            cabeceras_mcp(demo),
            _rpc(
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "bench", "version": "1.0"},
                },
            ),
            contiene='"protocolVersion":"2025-06-18"',
        ),
        Peticion(
            "mcp_ping",
            "MCP ping con clave y token",
            HUB,
            "POST",
            RUTA_MCP,
            cabeceras_mcp(demo),
            _rpc("ping", {}),
            contiene='"result":{}',
        ),
        Peticion(
            "mcp_ping_oauth",
            "MCP ping con token OAuth",
            HUB,
            "POST",
            RUTA_MCP,
            {
                **{k: v for k, v in cabeceras_mcp(demo).items() if not k.startswith("X-MCP-")},
                "Authorization": f"Bearer {demo['oauth_token']}",
            },
            _rpc("ping", {}),
            contiene='"result":{}',
        ),
        _herramienta(demo, "estado_solicitud", {"numero_radicado": numero}, una_conexion=True),
        _herramienta(
            demo,
            "estado_solicitud",
            {"numero_radicado": numero},
            clave="peer_estado_solicitud",
            titulo="peer: estado_solicitud (SDK oficial, uvicorn)",
            servidor=PEER,
            ruta="/mcp",
        ),
        _herramienta(demo, "resumen_solicitud", {"numero_radicado": numero}),
        _herramienta(demo, "estado_cdp", {"numero": demo["cdp"]}),
        _herramienta(demo, "estado_rp", {"numero": demo["rp"]}),
        _herramienta(
            demo,
            "buscar_solicitudes",
            {"texto": TEXTO_BUSCAR, "alcance": "todas"},
            una_conexion=True,
        ),
        _herramienta(
            demo,
            "busqueda_global",
            {"texto": TEXTO_GLOBAL, "alcance": "todas"},
            una_conexion=True,
        ),
        _herramienta(demo, "mis_tareas", {}, una_conexion=True),
        _herramienta(demo, "estado_presupuesto", {}, una_conexion=True),
        # The month in course: the demo spreads PAA lines from January up to it.
        _herramienta(demo, "resumen_ejecutivo", {"ambito": "paa_mes"}, una_conexion=True),
        # The same search on the list page, signed in (a redirect to sign in is a failure).
        Peticion(
            "lista_solicitudes",
            "página /solicitudes/ con búsqueda (sesión iniciada)",
            HUB,
            "GET",
            RUTA_LISTA,
            {"Cookie": demo["cookie"]},
            contiene='id="resultados"',
            una_conexion=True,
        ),
    ]
