"""Checks what the outside MCP tools saw: the conformance results and the Inspector CLI calls.

Run by scripts/mcp_conformidad.sh and scripts/mcp_inspector.sh with MCP_URL, MCP_DEMO, MCP_TMP
set (scripts/mcp/servidor.sh). Standard library and PyYAML only; exits 1 on any wrong answer.
Secrets are only sent, never printed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

MCP_DIR = Path(__file__).resolve().parent
NODE = MCP_DIR / "node_modules" / ".bin" / "node"
INSPECTOR = MCP_DIR / "node_modules" / ".bin" / "mcp-inspector"

# Scenarios that apply to a server with its own tools: all their checks must succeed.
APLICAN = ("server-initialize", "ping", "tools-list", "dns-rebinding-protection")
# Skipped by the suite with a WARNING when the server hands out no Mcp-Session-Id (stateless).
SIN_SESION = ("server-sse-polling", "server-sse-multiple-streams")
# The only acceptable reasons for a listed scenario to fail: capability not offered, or the
# suite's fixture tool does not exist here. Anything else (429, 5xx, bad JSON) is a real failure.
MOTIVOS_NO_APLICA = (
    "MCP error -32601: Método no soportado",
    "MCP error -32602: Herramienta desconocida",
    "not found. Available tools",
)
PUBLICAS = {"buscar_documento", "estado_solicitud"}


def _escenario(carpeta: Path) -> str | None:
    coincide = re.fullmatch(r"server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z", carpeta.name)
    return coincide.group(1) if coincide else None


def _veredicto(nombre: str, checks: list[dict[str, Any]], no_aplican: set[str]) -> tuple[str, str]:
    """(clase, detalle): clase is pasa / no-aplica / sin-sesion / FALLO."""
    estados = [c.get("status") for c in checks]
    fallas = [c for c in checks if c.get("status") == "FAILURE"]
    if nombre in APLICAN:
        exitos = estados.count("SUCCESS")
        if exitos and all(e in ("SUCCESS", "INFO") for e in estados):
            return "pasa", f"{exitos}/{len(checks)} checks SUCCESS"
        malos = [f"{c.get('id')}: {c.get('status')} {c.get('errorMessage', '')}" for c in checks]
        return "FALLO", "; ".join(malos) or "sin checks"
    if nombre in SIN_SESION:
        if not fallas and "WARNING" in estados:
            return "sin-sesion", "omitido por el suite: sin Mcp-Session-Id (servidor sin estado)"
        return "FALLO", f"se esperaba solo WARNING, hubo {estados}"
    if nombre in no_aplican:
        if not fallas:
            return "FALLO", "ya no falla: revise si aplica y quítelo de no_aplican.yml"
        for falla in fallas:
            mensaje = str(falla.get("errorMessage", ""))
            if not any(motivo in mensaje for motivo in MOTIVOS_NO_APLICA):
                return "FALLO", f"falla por otra razón: {mensaje[:200]}"
        return "no-aplica", str(fallas[0].get("errorMessage", ""))[:70]
    return "FALLO", "escenario nuevo sin clasificar (APLICAN o no_aplican.yml)"


def conformidad(resultados: Path, lista: Path) -> int:
    """Classify every scenario's checks.json; print one line each and the counts."""
    no_aplican = set(yaml.safe_load(lista.read_text())["server"])
    por_escenario: dict[str, list[dict[str, Any]]] = {}
    for carpeta in sorted(resultados.iterdir()):
        nombre = _escenario(carpeta)
        if nombre is not None and (carpeta / "checks.json").exists():
            por_escenario[nombre] = json.loads((carpeta / "checks.json").read_text())
    esperados = set(APLICAN) | set(SIN_SESION) | no_aplican
    conteo = {"pasa": 0, "no-aplica": 0, "sin-sesion": 0, "FALLO": 0}
    marcas = {"pasa": "✓", "no-aplica": "·", "sin-sesion": "·", "FALLO": "✗"}
    orden = [*APLICAN, *sorted((set(por_escenario) | esperados) - set(APLICAN))]
    for nombre in orden:
        if nombre in por_escenario:
            clase, detalle = _veredicto(nombre, por_escenario[nombre], no_aplican)
        else:
            clase, detalle = "FALLO", "sin resultados (el suite no lo corrió)"
        conteo[clase] += 1
        print(f"  {marcas[clase]} {nombre:<32} {clase:<10} {detalle}")
    print(
        f"Conformidad: {len(orden)} escenarios; {conteo['pasa']} pasan (de {len(APLICAN)} que "
        f"aplican), {conteo['no-aplica']} no aplican (fallan por la razón esperada), "
        f"{conteo['sin-sesion']} omitidos sin sesión, {conteo['FALLO']} fallos."
    )
    return 1 if conteo["FALLO"] or conteo["pasa"] != len(APLICAN) else 0


# --- Our own DNS-rebinding checks (the suite changes Host and Origin together) ---------------


def _demo() -> dict[str, Any]:
    return json.loads(Path(os.environ["MCP_DEMO"]).read_text())


def _post(host: str | None, origen: str | None, cabeceras: dict[str, str]) -> tuple[int, Any]:
    partes = urlsplit(os.environ["MCP_URL"])
    conexion = http.client.HTTPConnection(partes.hostname, partes.port, timeout=10)
    cuerpo = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "hub-rebinding", "version": "1"},
            },
        }
    )
    todas = {"Content-Type": "application/json", "Accept": "application/json", **cabeceras}
    if origen is not None:
        todas["Origin"] = origen
    conexion.putrequest("POST", partes.path, skip_host=host is not None)
    if host is not None:
        conexion.putheader("Host", host)
    for nombre, valor in todas.items():
        conexion.putheader(nombre, valor)
    conexion.putheader("Content-Length", str(len(cuerpo)))
    conexion.endheaders(cuerpo.encode())
    respuesta = conexion.getresponse()
    datos = respuesta.read()
    conexion.close()
    try:
        return respuesta.status, json.loads(datos)
    except ValueError:
        return respuesta.status, None


def rebinding() -> int:
    """Foreign Host (ALLOWED_HOSTS) and foreign Origin (the MCP view) are refused with a key."""
    demo = _demo()
    clave = {"X-MCP-Api-Key": demo["api_key"]}
    puerto = urlsplit(os.environ["MCP_URL"]).port
    casos: list[tuple[str, int, str | None, Callable[[], tuple[int, Any]]]] = [
        (
            "Host ajeno (evil.example.com) con clave válida",
            400,
            None,
            lambda: _post("evil.example.com", "http://evil.example.com", clave),
        ),
        (
            "Host propio, Origin ajeno, con clave válida",
            403,
            "SIN_PERMISO",
            lambda: _post(None, "http://evil.example.com", clave),
        ),
        (
            "Host propio, Origin ajeno, sin credencial (el origen se revisa antes)",
            403,
            "SIN_PERMISO",
            lambda: _post(None, "http://evil.example.com", {}),
        ),
        (
            "Host y Origin localhost con clave válida",
            200,
            None,
            lambda: _post(f"localhost:{puerto}", f"http://localhost:{puerto}", clave),
        ),
    ]
    fallos = 0
    for descripcion, estado, codigo, llamar in casos:
        obtenido, cuerpo = llamar()
        ok = obtenido == estado
        if ok and codigo is not None:
            ok = isinstance(cuerpo, dict) and (cuerpo.get("error") or {}).get("code") == codigo
        if ok and estado == 200:
            ok = isinstance(cuerpo, dict) and "protocolVersion" in (cuerpo.get("result") or {})
        fallos += not ok
        esperado = f"{estado} {codigo or ''}".strip()
        print(f"  {'✓' if ok else '✗'} {descripcion}: {obtenido} (esperado {esperado})")
    print(f"Rebinding propio: {len(casos) - fallos}/{len(casos)} comprobaciones.")
    return 1 if fallos else 0


# --- Inspector CLI ---------------------------------------------------------------------------


@dataclass
class Llamada:
    """One Inspector CLI run and what its answer must show."""

    nombre: str
    argumentos: list[str]
    cabeceras: dict[str, str]
    revisar: Callable[[int, Any, str], str]


def _inspector(argumentos: list[str], cabeceras: dict[str, str]) -> tuple[int, Any, str, float]:
    comando = [str(NODE), str(INSPECTOR), "--cli", os.environ["MCP_URL"], *argumentos]
    for nombre, valor in cabeceras.items():
        comando += ["--header", f"{nombre}: {valor}"]
    casa = Path(os.environ["MCP_TMP"]) / "home"
    casa.mkdir(exist_ok=True)
    # The Inspector keeps a catalog and OAuth storage under $HOME: a throwaway one.
    entorno = {
        **os.environ,
        "HOME": str(casa),
        "MCP_CATALOG_PATH": str(casa / "mcp.json"),
        "NO_COLOR": "1",
    }
    inicio = time.monotonic()
    hecho = subprocess.run(  # noqa: S603 (fixed program, our own arguments)
        comando, capture_output=True, text=True, timeout=90, env=entorno, check=False
    )
    try:
        salida = json.loads(hecho.stdout) if hecho.stdout.strip() else None
    except ValueError:
        salida = None
    return hecho.returncode, salida, hecho.stdout + hecho.stderr, time.monotonic() - inicio


def _llamar(herramienta: str, **argumentos: str) -> list[str]:
    """Inspector arguments for tools/call with string arguments."""
    cli = ["--method", "tools/call", "--tool-name", herramienta]
    if argumentos:
        cli += ["--tool-arg", *(f"{nombre}={valor}" for nombre, valor in argumentos.items())]
    return cli


def _exige(condicion: bool, mensaje: str) -> None:
    if not condicion:
        raise AssertionError(mensaje)


def _nombres(rc: int, salida: Any) -> set[str]:
    _exige(rc == 0 and isinstance(salida, dict), f"tools/list terminó con {rc}")
    return {t["name"] for t in salida.get("tools", [])}


def _resultado(rc: int, salida: Any) -> dict[str, Any]:
    _exige(rc == 0 and isinstance(salida, dict), f"tools/call terminó con {rc}")
    _exige(salida.get("isError") is False, f"isError={salida.get('isError')}")
    datos = salida.get("structuredContent")
    _exige(isinstance(datos, dict), "sin structuredContent")
    return datos


def _llamadas(demo: dict[str, Any]) -> list[Llamada]:
    clave = {"X-MCP-Api-Key": demo["api_key"]}
    completo = demo["tokens"]["completo"]
    publica = demo["solicitud_publica"]

    def lista_publica(rc: int, salida: Any, _texto: str) -> str:
        nombres = _nombres(rc, salida)
        _exige(nombres == PUBLICAS, f"herramientas {sorted(nombres)}")
        return ", ".join(sorted(nombres))

    def lista_persona(rc: int, salida: Any, _texto: str) -> str:
        nombres = _nombres(rc, salida)
        faltan = (PUBLICAS | {"mis_accesos", "mis_tareas"}) - nombres
        _exige(not faltan, f"faltan {sorted(faltan)}")
        return f"{len(nombres)} herramientas, esquemas sin errores (--strict)"

    def documento(rc: int, salida: Any, _texto: str) -> str:
        datos = _resultado(rc, salida)
        codigos = [d.get("codigo_publicado") for d in datos.get("documentos", [])]
        _exige(demo["documento"] in codigos, f"documentos {codigos}")
        return f"{demo['documento']} entre {datos.get('total')} documento(s)"

    def estado(numero: str) -> Callable[[int, Any, str], str]:
        def revisar(rc: int, salida: Any, _texto: str) -> str:
            datos = _resultado(rc, salida)
            _exige(datos.get("encontrado") is True, "no encontrado")
            obtenido = datos.get("numero_radicado")
            _exige(obtenido == numero, f"radicado {obtenido}")
            return f"{numero} en estado «{datos.get('estado')}»"

        return revisar

    def accesos(rc: int, salida: Any, _texto: str) -> str:
        datos = _resultado(rc, salida)
        _exige(datos.get("usuario") == "completo", f"usuario {datos.get('usuario')}")
        return f"usuario completo, {len(datos.get('roles', []))} roles"

    def cdp_no_encontrado(rc: int, salida: Any, texto: str) -> str:
        # The Inspector validates errors against outputSchema too (before issue 33 it failed
        # here); a result with isError prints the result and exits 5 (tool_is_error) by design.
        _exige(rc == 5 and "tool_is_error" in texto, f"tools/call terminó con {rc}: {texto[-300:]}")
        _exige(isinstance(salida, dict), "sin resultado en la salida")
        _exige(salida.get("isError") is True, f"isError={salida.get('isError')}")
        datos = salida.get("structuredContent") or {}
        _exige(datos.get("codigo") == "NO_ENCONTRADO", f"codigo {datos.get('codigo')}")
        _exige(datos.get("encontrado") is False, "sin encontrado=false")
        return f"isError, NO_ENCONTRADO: «{datos.get('mensaje', '')[:60]}…»"

    def rechazo(codigo: str, texto_esperado: str) -> Callable[[int, Any, str], str]:
        def revisar(rc: int, _salida: Any, texto: str) -> str:
            _exige(rc != 0, "se esperaba un fallo y terminó bien")
            _exige(codigo in texto and texto_esperado in texto, f"salida: {texto[-300:]}")
            return f"rechazada ({codigo}, {texto_esperado}), código de salida {rc}"

        return revisar

    return [
        Llamada(
            "tools/list con la clave de API",
            ["--method", "tools/list", "--strict"],
            clave,
            lista_publica,
        ),
        Llamada(
            "tools/list con clave y token de completo",
            ["--method", "tools/list", "--strict"],
            {**clave, "X-MCP-User-Token": completo},
            lista_persona,
        ),
        Llamada(
            "buscar_documento con la clave de API",
            _llamar("buscar_documento", texto=demo["documento"]),
            clave,
            documento,
        ),
        Llamada(
            "estado_solicitud con la clave y el correo de quien radicó",
            _llamar("estado_solicitud", **publica),
            clave,
            estado(publica["numero_radicado"]),
        ),
        Llamada(
            "mis_accesos con el token de completo (Authorization: Bearer)",
            _llamar("mis_accesos"),
            {"Authorization": f"Bearer {completo}"},
            accesos,
        ),
        Llamada(
            "estado_solicitud con clave y token de completo",
            _llamar("estado_solicitud", numero_radicado=demo["solicitud_ajena"]),
            {**clave, "X-MCP-User-Token": completo},
            estado(demo["solicitud_ajena"]),
        ),
        Llamada(
            "estado_cdp de un número que no existe, con clave y token de completo",
            _llamar("estado_cdp", numero="XYZ-1999-999999"),
            {**clave, "X-MCP-User-Token": completo},
            cdp_no_encontrado,
        ),
        Llamada(
            "mis_accesos con solo la clave (no se ofrece sin persona)",
            _llamar("mis_accesos"),
            clave,
            rechazo("tool_not_found", "mis_accesos"),
        ),
        Llamada(
            "tools/list con un token revocado",
            ["--method", "tools/list", "--stored-auth-only"],
            {"Authorization": f"Bearer {demo['tokens']['revocado']}"},
            rechazo("auth_required", "TOKEN_MCP_INVALIDO"),
        ),
    ]


def inspector() -> int:
    """Run every Inspector call; print one line each and the count."""
    llamadas = _llamadas(_demo())
    fallos = 0
    for llamada in llamadas:
        rc, salida, texto, segundos = _inspector(llamada.argumentos, llamada.cabeceras)
        try:
            detalle = llamada.revisar(rc, salida, texto)
            print(f"  ✓ {llamada.nombre}: {detalle} [{segundos:.1f} s]")
        except AssertionError as exc:
            fallos += 1
            print(f"  ✗ {llamada.nombre}: {exc} [{segundos:.1f} s]")
    bien = len(llamadas) - fallos
    print(f"Inspector: {bien}/{len(llamadas)} llamadas con la respuesta esperada.")
    return 1 if fallos else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="orden", required=True)
    conf = sub.add_parser("conformidad", help="classify the suite's results")
    conf.add_argument("resultados", type=Path)
    conf.add_argument("lista", type=Path)
    sub.add_parser("rebinding", help="our own Host/Origin checks")
    sub.add_parser("inspector", help="Inspector CLI calls")
    args = parser.parse_args()
    if args.orden == "conformidad":
        return conformidad(args.resultados, args.lista)
    if args.orden == "rebinding":
        return rebinding()
    return inspector()


if __name__ == "__main__":
    sys.exit(main())
