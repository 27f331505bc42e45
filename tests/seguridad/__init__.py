"""Security tests across apps: the shared scenario builders live here."""

from __future__ import annotations

import itertools
import json
import logging
import pickle
import re
from typing import Any

from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import models

from apps.presupuesto import services as presupuesto
from apps.solicitudes import services as solicitudes
from hub.observabilidad.logs import FormatoJSON
from tests.caches import cliente_redis
from tests.factories import AreaFactory, GroupFactory
from tests.mcp.factories import nueva_clave, nuevo_token
from tests.mcp_cliente import URL
from tests.presupuesto.factories import ProyectoFactory, VigenciaFactory, cdp_expedido, rp_expedido
from tests.solicitudes.factories import persona, tipo_con_etapas

USAR = "mcp.asistente.usar"
PLANEACION = "presupuesto.planeacion.consultar"
CORREO_EXTERNO = "ciudadana@correo.example"
_ids = itertools.count(1000)


def numero_inexistente(numero: str) -> str:
    """A number of the same shape that nobody filed (its digits all nines)."""
    return re.sub(r"\d+$", lambda m: "9" * len(m.group()), numero)


def como(usuario) -> dict[str, str]:
    """Headers of a fresh personal token of this person."""
    return {"X-MCP-User-Token": nuevo_token(usuario)[1]}


def mundo() -> dict[str, Any]:
    """Two people and two areas, each with its own request, CDP and RP.

    `duena` (area OAP) filed `propia` and owns the OAP CDP/RP; `extrano` (area OTI) holds every
    permission the tools ask for but neither filed that request nor belongs to OAP.
    """
    revision = GroupFactory(name="Revisión Seguridad")
    tipo = tipo_con_etapas(revision, nombre="Certificado laboral Seguridad")
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre="Oficina de Tecnologías de la Información")
    permisos = [USAR, "solicitudes.radicar", "solicitudes.bandeja.ver", PLANEACION]
    duena = persona(username="duena_seg", permisos=permisos)
    duena.areas.set([oap])
    extrano = persona(username="extrano_seg", permisos=permisos)
    extrano.areas.set([oti])
    colega = persona(username="colega_seg", permisos=[*permisos, "solicitudes.ver_todas"])
    propia = solicitudes.radicar(tipo=tipo, solicitante=duena, resumen="Certificado para el banco")
    externa = solicitudes.radicar(
        tipo=tipo,
        nombre_solicitante="Ciudadana Pérez",
        correo_solicitante=CORREO_EXTERNO,
        resumen="Consulta de una ciudadana",
    )
    proyecto = ProyectoFactory(vigencia=VigenciaFactory(), codigo="2026-SEG")
    presupuesto.asignar(proyecto=proyecto, area=oap, valor="5000000.00")
    presupuesto.asignar(proyecto=proyecto, area=oti, valor="5000000.00")
    cdp = cdp_expedido(proyecto, oap, "1500000.00", numero_externo="EXT-SEG-1")
    rp = rp_expedido(cdp, "500000.00", numero_externo="EXT-SEG-RP")
    cdp_oti = cdp_expedido(proyecto, oti, "300000.00")
    _, clave = nueva_clave()
    return {
        "tipo": tipo,
        "oap": oap,
        "oti": oti,
        "duena": duena,
        "extrano": extrano,
        "colega": colega,
        "propia": propia,
        "externa": externa,
        "cdp": cdp,
        "rp": rp,
        "cdp_oti": cdp_oti,
        "clave": {"X-MCP-Api-Key": clave},
    }


def llamar_con_id(client, nombre: str, argumentos: dict, *, id_: int | None = None, **cab):
    """tools/call with a fixed JSON-RPC id, so that two raw answers can be compared byte by byte."""
    mensaje = {
        "jsonrpc": "2.0",
        "id": next(_ids) if id_ is None else id_,
        "method": "tools/call",
        "params": {"name": nombre, "arguments": argumentos},
    }
    return client.post(URL, data=json.dumps(mensaje), content_type="application/json", headers=cab)


def resultado(http) -> dict:
    """The tool result of a 200 JSON-RPC answer."""
    assert http.status_code == 200, http.content
    cuerpo = json.loads(http.content)
    assert "error" not in cuerpo, cuerpo
    return cuerpo["result"]


def volcado_cache() -> list[bytes]:
    """Every key and value of this test's cache, as bytes (pickled values keep strings raw)."""
    cache = caches["default"]
    cliente = cliente_redis(cache)
    if cliente is not None:
        return [
            llave + b" " + (cliente.dump(llave) or b"")
            for llave in cliente.scan_iter(f"{cache.key_prefix}:*".encode())
        ]
    almacen = cache._cache  # diskcache's FanoutCache
    return [str(llave).encode() + b" " + pickle.dumps(almacen.get(llave)) for llave in almacen]


def sesiones() -> list[str]:
    """Every session in the database, decoded."""
    return [json.dumps(s.get_decoded(), default=str) for s in Session.objects.all()]


class Todo(logging.Handler):
    """Keeps every record of every logger (some loggers do not propagate to the root)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.registros: list[logging.LogRecord] = []
        self.lineas_json: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.registros.append(record)
        # Also as production writes it, formatted inside the request (request id, path, ...).
        self.lineas_json.append(FormatoJSON().format(record))

    def textos(self) -> list[str]:
        salida = []
        for r in self.registros:
            salida += [self.format(r), str(r.msg), repr(r.args)]
            salida += [repr(v) for v in vars(r).values()]  # extra= fields too
        return salida + self.lineas_json


def textos_de_fila(fila: models.Model) -> str:
    """Every concrete field of a row, as text (JSON for dicts and lists)."""
    partes = []
    for campo in fila._meta.concrete_fields:
        valor = getattr(fila, campo.attname)
        partes.append(
            json.dumps(valor, default=str) if isinstance(valor, dict | list) else str(valor)
        )
    return " ".join(partes)
