"""The tool registry (docs/contrato.md): a tool declared once, its JSON Schema from its serializer.

It lives in the base, below both the domains that declare tools and the assistant that serves
them, as `django.contrib.admin` lives below the apps that register in it. Apps declare tools in
their `herramientas.py` with the `herramienta` decorator; `McpConfig.ready()` imports every such
module, the way the admin discovers `admin.py`, and checks each tool's area.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rest_framework import serializers

from hub.http.enlaces import esquema_con_url
from hub.http.serializadores import Estricto

if TYPE_CHECKING:
    from django.http import HttpRequest

    from apps.cuentas.models import User
    from apps.mcp.credenciales import Identidad
    from apps.mcp.models import AjustesAsistente


class Acceso(enum.StrEnum):
    """Who may call a tool: with the API key alone, with a verification datum, or as a person."""

    PUBLICA = "publica"
    VERIFICADA = "verificada"
    USUARIO = "usuario"


class ErrorHerramienta(Exception):
    """Raised by a tool: becomes a result with isError true and structuredContent.codigo."""

    def __init__(self, codigo: str, mensaje: str, **extra: Any):
        self.codigo = codigo
        self.mensaje = mensaje
        self.extra = extra
        super().__init__(mensaje)

    def datos(self) -> dict[str, Any]:
        return {"codigo": self.codigo, "mensaje": self.mensaje, **self.extra}


@dataclass(frozen=True)
class Resultado:
    """A tool's answer: a Spanish summary for a person and the structured data for code."""

    resumen: str
    datos: dict[str, Any]
    # What a write created or changed, kept on the audit row for the person's activity page:
    # {"tipo": ..., "texto": ..., "enlace": ...} (apps.mcp.auditoria.objeto_escrito).
    objeto: dict[str, str] | None = None


@dataclass
class Llamada:
    """What a tool receives besides its arguments: who calls, from where, under which settings."""

    identidad: Identidad
    herramienta: Herramienta
    ajustes: AjustesAsistente
    request: HttpRequest | None = None
    # Plain attributes, copied once: a tool reads them without calling back into the assistant.
    usuario: User | None = field(init=False)
    ip: str = field(init=False)
    # Set by a confirmation the person approved on the hub (issue 40): its audit row says so.
    aprobada_en_el_hub: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.usuario = self.identidad.usuario
        self.ip = self.identidad.ip


@dataclass(frozen=True)
class Verificacion:
    """How a tool of access `verificada` is used without a person: the argument whose value must
    match the record. The assistant (apps.mcp.llamadas) requires it, refuses an integration and
    address with too many failed verifications, and counts the tool's NO_ENCONTRADO as one."""

    argumento: str
    descripcion: str  # what the datum is, for FALTA_VERIFICACION ("el correo de quien radicó")


# The structuredContent of every tool error (a result with isError true), declared once: the
# code and the message, the fields of DATOS_INVALIDOS, and the wait of RATE_LIMIT and
# DEMASIADOS_INTENTOS on the tools that can answer them. It is one more member of each tool's
# outputSchema, so a client that validates errors too (the TypeScript SDK 1.x) reads them.
ERROR_CODIGO: dict[str, Any] = {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"}
ERROR_CAMPOS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}
ERROR_REINTENTAR_EN: dict[str, Any] = {"type": "integer", "minimum": 0}
# What a lookup tool's NO_ENCONTRADO adds (interface: `encontrado: false` with isError true).
ENCONTRADO_FALSO: dict[str, Any] = {"type": "boolean", "const": False}


# The link to the hub page where the person approves a write (issue 40): on the preview, and on
# APROBACION_PENDIENTE, when the organization switched hub approval on.
# Declared with its `url` already, so the error member stays exactly `esquema_error`.
APROBACION: dict[str, Any] = esquema_con_url(
    {
        "type": "object",
        "description": "Página del hub donde la persona aprueba o rechaza esta escritura.",
        "properties": {"enlace": {"type": "string", "pattern": "^/"}},
        "required": ["enlace"],
    }
)


def esquema_error(herramienta: Herramienta) -> dict[str, Any]:
    """The error member of the tool's outputSchema: codigo and mensaje, plus what its errors add.

    Open like the interface's structuredContent (clients ignore fields they do not know); the
    suite checks that every field an error carries is declared here (tests/mcp).
    """
    propiedades: dict[str, Any] = {
        "codigo": ERROR_CODIGO,
        "mensaje": {"type": "string", "minLength": 1},
        "campos": ERROR_CAMPOS,
    }
    if herramienta.escritura or herramienta.verificacion is not None:
        propiedades["reintentar_en"] = ERROR_REINTENTAR_EN
    if herramienta.escritura:
        propiedades["aprobacion"] = copy.deepcopy(APROBACION)
    propiedades.update(copy.deepcopy(herramienta.salida_error))
    return {"type": "object", "properties": propiedades, "required": ["codigo", "mensaje"]}


FuncionHerramienta = Callable[[Llamada, dict[str, Any]], Resultado]
FuncionEjecutar = Callable[[Llamada, dict[str, Any], Resultado], Resultado]


def _sin_datos(_llamada: Llamada, _datos: dict[str, Any]) -> Resultado:  # pragma: no cover
    raise NotImplementedError


@dataclass(frozen=True)
class Herramienta:
    """One tool, declared once. For writes, `funcion` builds the preview and `ejecutar` writes."""

    nombre: str
    titulo: str
    descripcion: str
    acceso: Acceso
    argumentos: type[serializers.Serializer]
    salida: dict[str, Any]
    funcion: FuncionHerramienta = _sin_datos
    permisos: tuple[str, ...] = ()
    escritura: bool = False
    ejecutar: FuncionEjecutar | None = None
    salida_vista_previa: dict[str, Any] | None = None
    anotaciones: dict[str, bool] = field(default_factory=dict)
    verificacion: Verificacion | None = None
    # What this tool's own errors add to codigo and mensaje, e.g. {"encontrado": ENCONTRADO_FALSO}.
    salida_error: dict[str, Any] = field(default_factory=dict)
    # The area a connection must be granted to reach this tool, by its code (the assistant's
    # areas, checked when it starts); None: open to every connection under its own rule.
    area: str | None = None

    def __post_init__(self) -> None:
        if (self.acceso is Acceso.VERIFICADA) != (self.verificacion is not None):
            raise ValueError(f"{self.nombre}: solo el acceso verificada declara su verificación")
        if self.escritura:
            if self.acceso is not Acceso.USUARIO:
                raise ValueError(f"{self.nombre}: una herramienta que escribe exige usuario")
            if self.ejecutar is None:
                raise ValueError(f"{self.nombre}: falta la función que ejecuta la escritura")
            object.__setattr__(self, "argumentos", con_confirmacion(self.argumentos))
        if not issubclass(self.argumentos, Estricto):
            raise TypeError(f"{self.nombre}: los argumentos deben heredar de Estricto")
        anotaciones = {
            "readOnlyHint": not self.escritura,
            "destructiveHint": False,
            "idempotentHint": not self.escritura,
            "openWorldHint": False,
            **self.anotaciones,
        }
        object.__setattr__(self, "anotaciones", anotaciones)
        object.__setattr__(self, "_esquema_entrada", esquema_de(self.argumentos()))
        # Every `enlace` of the output gets its absolute `url` beside it (hub.http.enlaces).
        object.__setattr__(self, "_esquema_salida", esquema_con_url(self._componer_salida()))

    def _componer_salida(self) -> dict[str, Any]:
        """Success (preview and result for a write) or error: each result matches one member."""
        error = esquema_error(self)
        if not self.escritura:
            return {"type": "object", "anyOf": [self.salida, error]}
        previa = dict(self.salida_vista_previa or {"type": "object"})
        propiedades = {
            **previa.get("properties", {}),
            "requiere_confirmacion": {"type": "boolean", "const": True},
            "token_confirmacion": {"type": "string", "maxLength": 600},
            "vence_en": {"type": "string"},
            "aprobacion": copy.deepcopy(APROBACION),
        }
        requeridos = sorted(
            {*previa.get("required", []), "requiere_confirmacion", "token_confirmacion"}
        )
        previa.update(type="object", properties=propiedades, required=requeridos)
        return {"type": "object", "anyOf": [previa, self.salida, error]}

    @property
    def esquema_entrada(self) -> dict[str, Any]:
        return self._esquema_entrada  # type: ignore[attr-defined]

    @property
    def esquema_salida(self) -> dict[str, Any]:
        return self._esquema_salida  # type: ignore[attr-defined]

    def descriptor(self) -> dict[str, Any]:
        """The entry of tools/list."""
        return {
            "name": self.nombre,
            "title": self.titulo,
            "description": self.descripcion,
            "inputSchema": self.esquema_entrada,
            "outputSchema": self.esquema_salida,
            "annotations": {"title": self.titulo, **self.anotaciones},
        }

    def permite_a(self, usuario: User) -> bool:
        """Any of the permissions (none declared: any identified user)."""
        return not self.permisos or any(usuario.has_perm(p) for p in self.permisos)


class Registro:
    """The tools known to this process, by name."""

    def __init__(self) -> None:
        self._herramientas: dict[str, Herramienta] = {}

    def registrar(self, herramienta: Herramienta) -> Herramienta:
        if herramienta.nombre in self._herramientas:
            raise ValueError(f"herramienta registrada dos veces: {herramienta.nombre}")
        self._herramientas[herramienta.nombre] = herramienta
        return herramienta

    def quitar(self, nombre: str) -> None:
        self._herramientas.pop(nombre, None)

    def obtener(self, nombre: str) -> Herramienta | None:
        return self._herramientas.get(nombre)

    def __iter__(self) -> Iterator[Herramienta]:
        return iter(sorted(self._herramientas.values(), key=lambda h: h.nombre))

    def __contains__(self, nombre: object) -> bool:
        return nombre in self._herramientas

    def puede_ser_publica(self, nombre: str) -> bool:
        """Only tools of class publica or verificada may run with the API key alone."""
        herramienta = self.obtener(nombre)
        return herramienta is not None and herramienta.acceso in (
            Acceso.PUBLICA,
            Acceso.VERIFICADA,
        )


registro = Registro()


def herramienta(**declaracion: Any) -> Callable[[FuncionHerramienta], FuncionHerramienta]:
    """Decorator: `@herramienta(nombre=..., titulo=..., ...)` on the tool's function."""

    def decorador(funcion: FuncionHerramienta) -> FuncionHerramienta:
        registro.registrar(Herramienta(funcion=funcion, **declaracion))
        return funcion

    return decorador


# --- two-step writes: the confirmation arguments every write tool gets -----------------------


def con_confirmacion(argumentos: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The tool's serializer plus `confirmar` and `token_confirmacion`."""
    if "token_confirmacion" in argumentos().fields:
        return argumentos
    return type(
        f"{argumentos.__name__}ConConfirmacion",
        (argumentos,),
        {
            "confirmar": serializers.BooleanField(
                default=False,
                help_text="true solo después de que la persona aprobó la vista previa.",
            ),
            "token_confirmacion": serializers.CharField(
                max_length=600,
                required=False,
                help_text="El token_confirmacion de la vista previa; obligatorio con confirmar.",
            ),
        },
    )


# --- JSON Schema from a DRF serializer --------------------------------------------------------


def _opciones(campo: serializers.ChoiceField) -> list[Any]:
    return list(campo.choices.keys())


def _tipo_de(valores: list[Any]) -> str:
    if all(isinstance(v, bool) for v in valores):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in valores):
        return "integer"
    return "string"


def esquema_de_campo(campo: serializers.Field) -> dict[str, Any]:
    """The JSON Schema of one DRF field (the subset the tools use).

    A field may declare `esquema_json` for what its class cannot say (a value of several types,
    a pattern); its own validation must then enforce exactly that schema.
    """
    esquema: dict[str, Any]
    propio = getattr(campo, "esquema_json", None)
    if propio is not None:
        esquema = copy.deepcopy(propio)
        if campo.help_text:
            esquema["description"] = str(campo.help_text)
        return esquema
    if isinstance(campo, serializers.BaseSerializer):
        hijo = getattr(campo, "child", None)
        if isinstance(campo, serializers.ListSerializer) and hijo is not None:
            esquema = {"type": "array", "items": esquema_de_campo(hijo)}
        else:
            esquema = esquema_de(campo)
    elif isinstance(campo, serializers.MultipleChoiceField):
        opciones = _opciones(campo)
        esquema = {
            "type": "array",
            "items": {"type": _tipo_de(opciones), "enum": opciones},
            "uniqueItems": True,
        }
        if not campo.allow_empty:
            esquema["minItems"] = 1
    elif isinstance(campo, serializers.ChoiceField):
        opciones = _opciones(campo)
        esquema = {"type": _tipo_de(opciones), "enum": opciones}
    elif isinstance(campo, serializers.ListField):
        esquema = {"type": "array", "items": esquema_de_campo(campo.child)}
        if campo.min_length is not None:
            esquema["minItems"] = campo.min_length
        elif not campo.allow_empty:
            esquema["minItems"] = 1
        if campo.max_length is not None:
            esquema["maxItems"] = campo.max_length
    elif isinstance(campo, serializers.BooleanField):
        esquema = {"type": "boolean"}
    elif isinstance(campo, serializers.IntegerField):
        esquema = {"type": "integer"}
        _limites_numericos(campo, esquema)
    elif isinstance(campo, serializers.FloatField | serializers.DecimalField):
        esquema = {"type": "number"}
        _limites_numericos(campo, esquema)
    elif isinstance(campo, serializers.DateTimeField):
        esquema = {"type": "string", "format": "date-time"}
    elif isinstance(campo, serializers.DateField):
        esquema = {"type": "string", "format": "date"}
    elif isinstance(campo, serializers.DictField | serializers.JSONField):
        esquema = {"type": "object"}
    elif isinstance(campo, serializers.CharField):
        esquema = {"type": "string"}
        if isinstance(campo, serializers.EmailField):
            esquema["format"] = "email"
        minimo = campo.min_length
        if minimo is None and not campo.allow_blank:
            minimo = 1
        if minimo is not None:
            esquema["minLength"] = minimo
        if campo.max_length is not None:
            esquema["maxLength"] = campo.max_length
    else:
        raise TypeError(f"campo sin esquema JSON: {type(campo).__name__}")
    if campo.allow_null:
        esquema["type"] = [esquema["type"], "null"]
    if campo.help_text:
        esquema["description"] = str(campo.help_text)
    if campo.default is not serializers.empty and not callable(campo.default):
        esquema["default"] = campo.default
    return esquema


def _limites_numericos(campo: serializers.Field, esquema: dict[str, Any]) -> None:
    if campo.min_value is not None:
        esquema["minimum"] = campo.min_value
    if campo.max_value is not None:
        esquema["maximum"] = campo.max_value


def esquema_de(serializador: serializers.Serializer) -> dict[str, Any]:
    """The object schema of a serializer: properties, required, no additional properties."""
    propiedades: dict[str, Any] = {}
    requeridos: list[str] = []
    for nombre, campo in serializador.fields.items():
        if campo.read_only:
            continue
        propiedades[nombre] = esquema_de_campo(campo)
        if campo.required:
            requeridos.append(nombre)
    esquema: dict[str, Any] = {"type": "object", "properties": propiedades}
    if requeridos:
        esquema["required"] = requeridos
    esquema["additionalProperties"] = False
    return esquema
