"""Tools that exist only in the tests: an echo, a failure, a public one, a two-step write and a
verified one (the fixture `herramientas_prueba` in tests/mcp/conftest.py registers them)."""

from __future__ import annotations

from django.contrib.auth.models import Group
from rest_framework import serializers

from hub.herramientas.registro import (
    Acceso,
    ErrorHerramienta,
    Herramienta,
    Llamada,
    Resultado,
    Verificacion,
)
from hub.http.serializadores import Estricto


class ArgsEco(Estricto):
    texto = serializers.CharField(min_length=2, max_length=50, help_text="Lo que se repite.")
    veces = serializers.IntegerField(min_value=1, max_value=5, default=1)
    modo = serializers.ChoiceField(choices=["corto", "largo"], required=False)
    dia = serializers.DateField(required=False)
    activo = serializers.BooleanField(default=False)
    etiquetas = serializers.ListField(
        child=serializers.ChoiceField(choices=["a", "b"]), required=False, max_length=2
    )


SALIDA_ECO = {
    "type": "object",
    "properties": {"texto": {"type": "string"}, "veces": {"type": "integer"}},
    "required": ["texto", "veces"],
    "additionalProperties": False,
}


def _eco(llamada: Llamada, datos: dict) -> Resultado:
    return Resultado(f"Eco: {datos['texto']}", {"texto": datos["texto"], "veces": datos["veces"]})


class ArgsNada(Estricto):
    pass


def _falla(llamada: Llamada, datos: dict) -> Resultado:
    raise RuntimeError("detalle-interno-que-no-debe-salir")


def _publica(llamada: Llamada, datos: dict) -> Resultado:
    quien = llamada.usuario.username if llamada.usuario else None
    return Resultado("Pública.", {"usuario": quien})


class ArgsGrupo(Estricto):
    nombre = serializers.CharField(min_length=3, max_length=60)
    fallar = serializers.BooleanField(default=False)


SALIDA_GRUPO = {
    "type": "object",
    "properties": {"grupo_id": {"type": "integer"}, "nombre": {"type": "string"}},
    "required": ["grupo_id", "nombre"],
}
PREVIA_GRUPO = {
    "type": "object",
    "properties": {"nombre": {"type": "string"}},
    "required": ["nombre"],
}


def _previa_grupo(llamada: Llamada, datos: dict) -> Resultado:
    if datos["nombre"].startswith("prohibido"):
        raise ErrorHerramienta("NO_ENCONTRADO", "No existe.")
    return Resultado(f"Se creará el grupo {datos['nombre']}.", {"nombre": datos["nombre"]})


def _crear_grupo(llamada: Llamada, datos: dict, previa: Resultado) -> Resultado:
    grupo = Group.objects.create(name=datos["nombre"])
    if datos["fallar"]:
        raise ErrorHerramienta("NO_ENCONTRADO", "Falló después de escribir.")
    return Resultado("Grupo creado.", {"grupo_id": grupo.pk, "nombre": grupo.name})


class ArgsVerificada(Estricto):
    clave = serializers.CharField(max_length=20)


def _verificada(llamada: Llamada, datos: dict) -> Resultado:
    if llamada.usuario is None and datos["clave"] != "buena":
        raise ErrorHerramienta("NO_ENCONTRADO", "No encontrado.", encontrado=False)
    return Resultado("Verificado.", {"encontrado": True})


HERRAMIENTAS_PRUEBA = [
    Herramienta(
        nombre="prueba_verificada",
        titulo="Verificada de prueba",
        descripcion="Anota verificaciones fallidas.",
        acceso=Acceso.VERIFICADA,
        verificacion=Verificacion("clave", "la clave de prueba"),
        argumentos=ArgsVerificada,
        salida={"type": "object", "properties": {"encontrado": {"type": "boolean"}}},
        funcion=_verificada,
    ),
    Herramienta(
        nombre="prueba_eco",
        titulo="Eco de prueba",
        descripcion="Repite un texto.",
        acceso=Acceso.USUARIO,
        permisos=("cuentas.view_area",),
        argumentos=ArgsEco,
        salida=SALIDA_ECO,
        funcion=_eco,
    ),
    Herramienta(
        nombre="prueba_falla",
        titulo="Falla de prueba",
        descripcion="Siempre falla.",
        acceso=Acceso.USUARIO,
        argumentos=ArgsNada,
        salida={"type": "object"},
        funcion=_falla,
    ),
    Herramienta(
        nombre="prueba_publica",
        titulo="Pública de prueba",
        descripcion="Sin usuario.",
        acceso=Acceso.PUBLICA,
        argumentos=ArgsNada,
        salida={"type": "object", "properties": {"usuario": {"type": ["string", "null"]}}},
        funcion=_publica,
    ),
    Herramienta(
        nombre="prueba_grupo",
        titulo="Crear grupo (prueba)",
        descripcion="Escribe un grupo en dos pasos.",
        acceso=Acceso.USUARIO,
        permisos=("auth.add_group",),
        escritura=True,
        argumentos=ArgsGrupo,
        salida=SALIDA_GRUPO,
        salida_vista_previa=PREVIA_GRUPO,
        funcion=_previa_grupo,
        ejecutar=_crear_grupo,
    ),
]
