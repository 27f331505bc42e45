"""Every error of every tool is a result its own outputSchema accepts, under draft-07 with
formats (the TypeScript SDK 1.x, with Ajv) and 2020-12 (the Python SDK).

Over the demo organization, driven by the registry: the assistant's errors come from each
tool's declaration (arguments, identity, permissions, a failure inside; for a verified tool its
datum and limit; for a write every confirmation error, disabled writes and the write limit), and
each tool's own errors from `PROPIOS`, which must name every registered tool. Every call goes
through `error_herramienta`, which checks the result against the tool's declared outputSchema
and that each field the error carries is declared in its error member.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest

from apps.cuentas.models import User
from apps.mcp import aprobaciones, confirmacion, llamadas
from apps.mcp.llamadas import visible_sin_usuario
from apps.mcp.models import AjustesAsistente
from apps.presupuesto.models import Vigencia
from hub.herramientas.registro import Herramienta, esquema_error, registro
from hub.http.limites import CacheNoDisponible
from tests.argumentos_demo import argumentos_demo
from tests.conftest import limpiar_cache
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token, nuevo_token_oauth
from tests.mcp_cliente import ajustar, cargar_demo, error_herramienta, llamar, resultado_valido

pytestmark = pytest.mark.django_db

NO_EXISTE = "XYZ-1999-999999"
USAR = "mcp.asistente.usar"


class Mundo:
    """The demo, its callers and the codes each tool was driven into."""

    def __init__(self, client, tmp_path):
        self.client = client
        self.demo = cargar_demo(tmp_path)
        self.argumentos = argumentos_demo(self.demo)
        self.clave = {"X-MCP-Api-Key": self.demo["api_key"]}
        self.completo = {**self.clave, "X-MCP-User-Token": self.demo["tokens"]["completo"]}
        self.vistos: dict[str, set[str]] = defaultdict(set)
        self.solo_asistente = self.como()  # no permission beyond using the assistant

    def como(self, **permisos: Any) -> dict[str, str]:
        usuario = UserFactory(permisos=[USAR, *permisos.get("permisos", [])])
        return {**self.clave, "X-MCP-User-Token": nuevo_token(usuario)[1]}

    def error(self, nombre: str, argumentos: dict, cabeceras: dict, codigo: str) -> dict:
        datos = error_herramienta(llamar(self.client, nombre, argumentos, **cabeceras), codigo)
        self.vistos[nombre].add(codigo)
        return datos

    def previa(self, nombre: str, cabeceras: dict, argumentos: dict | None = None) -> str:
        r = llamar(self.client, nombre, argumentos or self.argumentos[nombre], **cabeceras)
        return resultado_valido(r, nombre)["token_confirmacion"]

    def confirmar(self, nombre: str, token: str, cabeceras: dict, codigo: str) -> dict:
        argumentos = {**self.argumentos[nombre], "confirmar": True, "token_confirmacion": token}
        return self.error(nombre, argumentos, cabeceras, codigo)


# --- each tool's own errors: (codigo, arguments, caller) -------------------------------------


def _sin_vigencia(nombre: str, argumentos: dict) -> Callable[[Mundo], None]:
    def caso(m: Mundo) -> None:
        activa = Vigencia.objects.get(activa=True)
        Vigencia.objects.update(activa=False)
        m.error(nombre, argumentos, m.completo, "NO_ENCONTRADO")
        Vigencia.objects.filter(pk=activa.pk).update(activa=True)

    return caso


def _no_encontrado(nombre: str, argumentos: dict) -> Callable[[Mundo], None]:
    def caso(m: Mundo) -> None:
        datos = m.error(nombre, argumentos, m.completo, "NO_ENCONTRADO")
        assert datos["encontrado"] is False

    return caso


def _filtro_invalido(nombre: str, argumentos: dict) -> Callable[[Mundo], None]:
    def caso(m: Mundo) -> None:
        datos = m.error(nombre, argumentos, m.completo, "DATOS_INVALIDOS")
        assert datos["campos"]

    return caso


def _alcance_todas(nombre: str, permisos: list[str]) -> Callable[[Mundo], None]:
    def caso(m: Mundo) -> None:
        argumentos = {**m.argumentos[nombre], "alcance": "todas"}
        m.error(nombre, argumentos, m.como(permisos=permisos), "SIN_PERMISO")

    return caso


def _mesa_ayuda_no_configurada(m: Mundo) -> None:
    from apps.solicitudes.models import TipoSolicitud

    mesa = list(TipoSolicitud.objects.mesa_ayuda().values_list("pk", flat=True))
    TipoSolicitud.objects.filter(pk__in=mesa).update(activo=False)
    argumentos = m.argumentos["radicar_mesa_ayuda"]
    m.error("radicar_mesa_ayuda", argumentos, m.completo, "MESA_AYUDA_NO_CONFIGURADA")
    TipoSolicitud.objects.filter(pk__in=mesa).update(activo=True)


def _ficha_invalida(m: Mundo) -> None:
    ficha = {**m.argumentos["reporte_preparar"]["ficha"], "columnas": ["beneficiario"]}
    datos = m.error("reporte_preparar", {"ficha": ficha}, m.completo, "DATOS_INVALIDOS")
    assert datos["campos"]


# Tools without errors of their own say so with an empty tuple: a new tool must be listed.
PROPIOS: dict[str, tuple[Callable[[Mundo], None], ...]] = {
    "buscar_ayuda": (),
    "buscar_documento": (),
    "buscar_solicitudes": (_alcance_todas("buscar_solicitudes", ["solicitudes.bandeja.ver"]),),
    "busqueda_global": (_alcance_todas("busqueda_global", []),),
    "comentar_solicitud": (
        _no_encontrado("comentar_solicitud", {"numero_radicado": NO_EXISTE, "comentario": "Hola."}),
    ),
    "diagnostico_servicio": (),
    "estado_cdp": (_no_encontrado("estado_cdp", {"numero": NO_EXISTE}),),
    "estado_presupuesto": (
        _filtro_invalido("estado_presupuesto", {"area": "Área que no existe"}),
        _sin_vigencia("estado_presupuesto", {}),
    ),
    "estado_rp": (_no_encontrado("estado_rp", {"numero": NO_EXISTE}),),
    "estado_solicitud": (_no_encontrado("estado_solicitud", {"numero_radicado": NO_EXISTE}),),
    "mis_accesos": (),
    "mis_tareas": (),
    "radicar_mesa_ayuda": (_mesa_ayuda_no_configurada,),
    "reporte_preparar": (_ficha_invalida,),
    "resumen_ejecutivo": (
        _filtro_invalido("resumen_ejecutivo", {"ambito": "area", "area": "Área que no existe"}),
        _sin_vigencia("resumen_ejecutivo", {"ambito": "area", "area": "OAP"}),
    ),
    "resumen_solicitud": (_no_encontrado("resumen_solicitud", {"numero_radicado": NO_EXISTE}),),
    "uso_asistente": (),
}


# --- the assistant's errors, from each tool's declaration -------------------------------------


def _del_asistente(m: Mundo, h: Herramienta, monkeypatch) -> None:
    nombre, argumentos = h.nombre, m.argumentos[h.nombre]
    m.error(nombre, {**argumentos, "no_existe": 1}, m.completo, "DATOS_INVALIDOS")
    if not visible_sin_usuario(h, AjustesAsistente.cargar()):
        m.error(nombre, argumentos, m.clave, "SIN_IDENTIDAD")
    if h.permisos:
        m.error(nombre, argumentos, m.solo_asistente, "SIN_PERMISO")
    with monkeypatch.context() as parche:
        parche.setattr(llamadas, "_ejecutar", _falla)
        m.error(nombre, argumentos, m.completo, "ERROR_INTERNO")


def _falla(*_args: Any) -> None:
    raise RuntimeError("falla simulada")


def _sin_cache(**_kwargs: Any) -> None:
    raise CacheNoDisponible


def _verificada(m: Mundo, h: Herramienta, monkeypatch) -> None:
    nombre, dato = h.nombre, h.verificacion.argumento
    sin_dato = {k: v for k, v in m.argumentos[nombre].items() if k != dato}
    m.error(nombre, sin_dato, m.clave, "FALTA_VERIFICACION")
    ajeno = {**sin_dato, dato: "nadie@ejemplo.org"}
    with monkeypatch.context() as parche:
        parche.setattr("apps.mcp.limites.contar", _sin_cache)
        m.error(nombre, ajeno, m.clave, "SERVICIO_NO_DISPONIBLE")
    ajustar(verificaciones_fallidas_por_hora=1)
    assert m.error(nombre, ajeno, m.clave, "NO_ENCONTRADO")["encontrado"] is False
    assert m.error(nombre, ajeno, m.clave, "DEMASIADOS_INTENTOS")["reintentar_en"] > 0


def _escritura(m: Mundo, h: Herramienta, monkeypatch) -> None:
    nombre, argumentos = h.nombre, m.argumentos[h.nombre]
    persona = User.objects.get(username="completo")
    _, lectura = nuevo_token_oauth(persona, alcances="asistente:leer")
    m.error(nombre, argumentos, {"Authorization": f"Bearer {lectura}"}, "SIN_PERMISO")
    m.error(nombre, {**argumentos, "confirmar": True}, m.completo, "DATOS_INVALIDOS")
    m.confirmar(nombre, "no-es-un-token", m.completo, "CONFIRMACION_INVALIDA")

    otra = next(o for o in registro if o.escritura and o.nombre != nombre)
    m.confirmar(nombre, m.previa(otra.nombre, m.completo), m.completo, "CONFIRMACION_NO_COINCIDE")
    otro = {**m.clave, "X-MCP-User-Token": nuevo_token(persona)[1]}
    m.confirmar(nombre, m.previa(nombre, otro), m.completo, "CONFIRMACION_AJENA")
    primero, secreto = nuevo_token(persona)
    token = m.previa(nombre, {**m.clave, "X-MCP-User-Token": secreto})
    primero.revocado_en = primero.creado
    primero.save()
    m.confirmar(nombre, token, m.completo, "SESION_EXPIRADA")

    token = m.previa(nombre, m.completo)
    ahora = confirmacion.time.time()
    with monkeypatch.context() as parche:
        parche.setattr(confirmacion.time, "time", lambda: ahora + 86_400)
        m.confirmar(nombre, token, m.completo, "CONFIRMACION_VENCIDA")
    with monkeypatch.context() as parche:
        parche.setattr("apps.mcp.limites.contar", _sin_cache)
        m.confirmar(nombre, token, m.completo, "SERVICIO_NO_DISPONIBLE")

    limpiar_cache()  # the write limit counts from zero for this tool
    ajustar(escrituras_por_minuto=1)
    token = m.previa(nombre, m.completo)
    confirmado = {**argumentos, "confirmar": True, "token_confirmacion": token}
    resultado_valido(llamar(m.client, nombre, confirmado, **m.completo), nombre)
    m.confirmar(nombre, token, m.completo, "CONFIRMACION_USADA")
    m.confirmar(nombre, m.previa(nombre, m.completo), m.completo, "RATE_LIMIT")

    ajustar(escrituras_habilitadas=False)
    m.error(nombre, argumentos, m.completo, "ESCRITURA_DESHABILITADA")
    ajustar(escrituras_habilitadas=True, escrituras_por_minuto=6)
    _aprobacion_en_el_hub(m, nombre, persona)


def _aprobacion_en_el_hub(m: Mundo, nombre: str, persona: User) -> None:
    """Hub approval switched on (issue 40): the preview with its link, pending and rejected."""
    ajustar(aprobar_en_el_hub=True)
    token = m.previa(nombre, m.completo)
    datos = m.confirmar(nombre, token, m.completo, "APROBACION_PENDIENTE")
    assert datos["aprobacion"]["url"].endswith(datos["aprobacion"]["enlace"])
    clave = datos["aprobacion"]["enlace"].rstrip("/").rsplit("/", 1)[-1]
    aprobaciones.decidir(usuario=persona, clave=clave, aprobar=False)
    m.confirmar(nombre, token, m.completo, "APROBACION_RECHAZADA")
    ajustar(aprobar_en_el_hub=False)


def _esperados(h: Herramienta) -> set[str]:
    """The assistant's codes this tool's declaration says it can answer."""
    codigos = {"DATOS_INVALIDOS", "ERROR_INTERNO"}
    if not visible_sin_usuario(h, AjustesAsistente.cargar()):
        codigos.add("SIN_IDENTIDAD")
    if h.permisos or h.escritura:
        codigos.add("SIN_PERMISO")
    if h.verificacion is not None:
        codigos |= {"FALTA_VERIFICACION", "NO_ENCONTRADO", "DEMASIADOS_INTENTOS"}
        codigos.add("SERVICIO_NO_DISPONIBLE")
    if h.escritura:
        codigos |= {
            "CONFIRMACION_INVALIDA",
            "CONFIRMACION_NO_COINCIDE",
            "CONFIRMACION_AJENA",
            "CONFIRMACION_VENCIDA",
            "CONFIRMACION_USADA",
            "SESION_EXPIRADA",
            "SERVICIO_NO_DISPONIBLE",
            "RATE_LIMIT",
            "ESCRITURA_DESHABILITADA",
            "APROBACION_PENDIENTE",
            "APROBACION_RECHAZADA",
        }
    return codigos


# --- the tests --------------------------------------------------------------------------------


def test_every_registered_tool_lists_its_own_errors():
    assert set(PROPIOS) == {h.nombre for h in registro}


def test_every_error_member_is_the_registrys_one_shape_and_the_last_of_the_union():
    for h in registro:
        esquema = h.esquema_salida
        assert esquema["type"] == "object"
        error = esquema["anyOf"][-1]
        assert error == esquema_error(h)
        assert error["type"] == "object"
        assert error["required"] == ["codigo", "mensaje"]
        assert error["properties"]["codigo"]["type"] == "string"


def test_every_error_of_every_tool_satisfies_its_declared_output_schema(
    client, tmp_path, monkeypatch
):
    m = Mundo(client, tmp_path)
    ajustar(usuario_por_minuto=1000, integracion_por_minuto=1000)  # ~150 calls of one person
    for h in registro:
        _del_asistente(m, h, monkeypatch)
        if h.verificacion is not None:
            _verificada(m, h, monkeypatch)
        if h.escritura:
            _escritura(m, h, monkeypatch)
        for caso in PROPIOS[h.nombre]:
            caso(m)
        assert m.vistos[h.nombre] >= _esperados(h), (h.nombre, _esperados(h) - m.vistos[h.nombre])
