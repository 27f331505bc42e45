"""mis_accesos: the caller's own roles, modules, permissions and assistant tools (never others')."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import Permission
from rest_framework import serializers

from apps.cuentas.models import User
from apps.mcp import llamadas
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto


class ArgsMisAccesos(Estricto):
    incluir_permisos = serializers.BooleanField(
        default=True,
        help_text="false devuelve solo roles, módulos y herramientas (sin el detalle de permisos).",
    )


def _alguno_de(app_label: str) -> Callable[[User, set[str]], bool]:
    return lambda _usuario, permisos: any(p.startswith(f"{app_label}.") for p in permisos)


def _tiene(permiso: str) -> Callable[[User, set[str]], bool]:
    return lambda _usuario, permisos: permiso in permisos


# The hub's modules and the rule that makes each visible (derived from the permissions; quality
# documents are published to everyone). Order is the order shown.
MODULOS: list[tuple[str, str, Callable[[User, set[str]], bool]]] = [
    ("solicitudes", "Solicitudes", _alguno_de("solicitudes")),
    ("bandeja", "Bandeja de tareas", _tiene("solicitudes.bandeja.ver")),
    ("presupuesto", "Presupuesto (CDP, RP y PAA)", _alguno_de("presupuesto")),
    ("calidad", "Documentos de calidad", lambda _u, _p: True),
    ("asistente", "Asistente (MCP)", _tiene("mcp.asistente.usar")),
    (
        "administracion_asistente",
        "Administración del asistente",
        _tiene("mcp.asistente.administrar"),
    ),
    ("administracion", "Administración del hub", lambda u, _p: bool(u.is_staff)),
]

_TEXTO = {"type": "string"}
_NOMBRADO = {
    "type": "object",
    "properties": {"codigo": _TEXTO, "nombre": _TEXTO},
    "required": ["codigo", "nombre"],
    "additionalProperties": False,
}
SALIDA_MIS_ACCESOS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "usuario": _TEXTO,
        "nombre": _TEXTO,
        "roles": {"type": "array", "items": _TEXTO},
        "areas": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"sigla": _TEXTO, "nombre": _TEXTO},
                "required": ["sigla", "nombre"],
                "additionalProperties": False,
            },
        },
        "modulos": {"type": "array", "items": _NOMBRADO},
        "permisos": {
            "type": "object",
            "description": "Por módulo (etiqueta de la aplicación): sus permisos.",
            "additionalProperties": {"type": "array", "items": _NOMBRADO},
        },
        "total_permisos": {"type": "integer", "minimum": 0},
        "herramientas": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "nombre": _TEXTO,
                    "titulo": _TEXTO,
                    "escritura": {"type": "boolean"},
                },
                "required": ["nombre", "titulo", "escritura"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["usuario", "nombre", "roles", "areas", "modulos", "herramientas"],
    "additionalProperties": False,
}


def _permisos_por_modulo(codigos: set[str]) -> dict[str, list[dict[str, str]]]:
    """{app_label: [{codigo, nombre}]} of the given 'app.codename' names, in one query."""
    pares = {tuple(c.split(".", 1)) for c in codigos if "." in c}
    if not pares:
        return {}
    filas = Permission.objects.filter(
        content_type__app_label__in={a for a, _ in pares}, codename__in={c for _, c in pares}
    ).values_list("content_type__app_label", "codename", "name")
    grupos: dict[str, list[dict[str, str]]] = {}
    for app_label, codename, nombre in filas:
        if (app_label, codename) in pares:
            grupos.setdefault(app_label, []).append(
                {"codigo": f"{app_label}.{codename}", "nombre": nombre}
            )
    return {app: sorted(items, key=lambda i: i["codigo"]) for app, items in sorted(grupos.items())}


def _resumen(datos: dict[str, Any]) -> str:
    roles = ", ".join(datos["roles"]) or "ninguno"
    modulos = ", ".join(m["nombre"] for m in datos["modulos"])
    herramientas = ", ".join(h["nombre"] for h in datos["herramientas"])
    partes = [
        f"{datos['nombre']} ({datos['usuario']})",
        f"roles: {roles}",
        f"módulos: {modulos}",
        f"herramientas del asistente: {herramientas}",
    ]
    if "total_permisos" in datos:
        partes.append(f"{datos['total_permisos']} permiso(s) en {len(datos['permisos'])} módulo(s)")
    return "; ".join(partes) + "."


@herramienta(
    nombre="mis_accesos",
    titulo="Mis accesos",
    descripcion=(
        "Roles, áreas, módulos visibles, permisos agrupados por módulo y herramientas del "
        "asistente disponibles para la persona conectada. Solo sobre ella misma."
    ),
    acceso=Acceso.USUARIO,
    argumentos=ArgsMisAccesos,
    salida=SALIDA_MIS_ACCESOS,
)
def mis_accesos(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    usuario = llamada.usuario
    codigos = set(usuario.get_all_permissions())
    # The tools come from the same filter as tools/list, so the two can never disagree.
    herramientas = [
        {
            "nombre": d["name"],
            "titulo": d["title"],
            "escritura": not d["annotations"]["readOnlyHint"],
        }
        for d in llamadas.listar(llamada.identidad, llamada.ajustes)
    ]
    estructura: dict[str, Any] = {
        "usuario": usuario.get_username(),
        "nombre": limpiar(usuario.nombre_visible),
        "roles": [
            limpiar(n) for n in usuario.groups.order_by("name").values_list("name", flat=True)
        ],
        "areas": [
            {"sigla": limpiar(sigla), "nombre": limpiar(nombre)}
            for sigla, nombre in usuario.areas.order_by("sigla").values_list("sigla", "nombre")
        ],
        "modulos": [
            {"codigo": codigo, "nombre": nombre}
            for codigo, nombre, visible in MODULOS
            if visible(usuario, codigos)
        ],
        "herramientas": herramientas,
    }
    if datos["incluir_permisos"]:
        permisos = _permisos_por_modulo(codigos)
        estructura["permisos"] = permisos
        estructura["total_permisos"] = sum(len(v) for v in permisos.values())
    return Resultado(_resumen(estructura), estructura)
