"""radicar_mesa_ayuda (two steps): a help-desk ticket filed in the caller's name.

Step 1 runs every check of `services.validar_mesa_ayuda` (texts, severity, permission, a
configured help-desk type) and returns the preview; step 2 files it with
`services.radicar_mesa_ayuda` and answers its number.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.solicitudes import services
from apps.solicitudes.errores import ErrorSolicitud
from apps.solicitudes.herramientas.errores import error_de_dominio
from apps.solicitudes.herramientas.esquemas import ENLACE, ESTADO, FECHA, TEXTO, objeto
from apps.solicitudes.herramientas.formato import fecha
from apps.solicitudes.herramientas.validacion import texto_limpio
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto

_SEVERIDAD = {"type": "string", "enum": list(services.SEVERIDADES)}


class ArgsRadicarMesaAyuda(Estricto):
    asunto = serializers.CharField(
        min_length=5, max_length=150, help_text="Qué pasa, en una línea (será el resumen)."
    )
    descripcion = serializers.CharField(
        min_length=10,
        max_length=4000,
        help_text="El detalle: qué se hizo, qué se esperaba y qué ocurrió.",
    )
    severidad = serializers.ChoiceField(
        choices=list(services.SEVERIDADES),
        default="error",
        help_text="sugerencia, error, mejora_grave o bloqueante.",
    )
    modulo = serializers.CharField(
        max_length=120,
        allow_blank=True,
        default="",
        help_text="Módulo o pantalla del hub afectado (opcional).",
    )

    def validate_asunto(self, valor: str) -> str:
        return texto_limpio(valor, 5)

    def validate_descripcion(self, valor: str) -> str:
        return texto_limpio(valor, 10)

    def validate_modulo(self, valor: str) -> str:
        return limpiar(valor).strip()


SALIDA_VISTA_PREVIA: dict[str, Any] = objeto(
    {
        "tipo": TEXTO,
        "solicitante": TEXTO,
        "asunto": TEXTO,
        "descripcion": TEXTO,
        "severidad": _SEVERIDAD,
        "severidad_visible": TEXTO,
        "modulo": TEXTO,
    }
)
SALIDA_RADICAR_MESA_AYUDA: dict[str, Any] = objeto(
    {
        "radicado": {"type": "boolean", "const": True},
        "numero_radicado": {"type": "string", "minLength": 1},
        "id_solicitud": {"type": "integer"},
        "enlace": ENLACE,
        "tipo": TEXTO,
        "estado": ESTADO,
        "etapa_actual": TEXTO,
        "solicitante": TEXTO,
        "asunto": TEXTO,
        "severidad": _SEVERIDAD,
        "severidad_visible": TEXTO,
        "modulo": TEXTO,
        "fecha_radicacion": FECHA,
    }
)


def _argumentos(llamada: Llamada, datos: dict[str, Any]) -> dict[str, Any]:
    return {
        "solicitante": llamada.usuario,
        "asunto": datos["asunto"],
        "descripcion": datos["descripcion"],
        "severidad": datos["severidad"],
        "modulo": datos["modulo"],
    }


def vista_previa(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    """Step 1 (and the re-check of step 2): the ticket as it will be filed."""
    try:
        caso = services.validar_mesa_ayuda(**_argumentos(llamada, datos))
    except ErrorSolicitud as exc:
        raise error_de_dominio(exc) from None
    estructura = {
        "tipo": limpiar(caso.tipo.nombre),
        "solicitante": limpiar(llamada.usuario.nombre_visible),
        "asunto": caso.asunto,
        "descripcion": caso.descripcion,
        "severidad": caso.severidad,
        "severidad_visible": services.SEVERIDADES[caso.severidad],
        "modulo": caso.modulo,
    }
    modulo = f", módulo «{caso.modulo}»" if caso.modulo else ""
    resumen = (
        f"Vista previa: se radicará un caso de {estructura['tipo']} a nombre de "
        f"{estructura['solicitante']}, severidad {estructura['severidad_visible']}{modulo}, "
        f"con el asunto «{caso.asunto}» y esta descripción: «{caso.descripcion}»."
    )
    return Resultado(resumen, estructura)


def radicar(llamada: Llamada, datos: dict[str, Any], previa: Resultado) -> Resultado:
    """Step 2: the ticket is filed (the engine already spent the token)."""
    try:
        s = services.radicar_mesa_ayuda(**_argumentos(llamada, datos))
    except ErrorSolicitud as exc:
        raise error_de_dominio(exc) from None
    estructura = {
        "radicado": True,
        "numero_radicado": s.numero_radicado,
        "id_solicitud": s.pk,
        "enlace": s.enlace,
        "tipo": previa.datos["tipo"],
        "estado": s.estado,
        "etapa_actual": limpiar(s.nombre_etapa_actual),
        "solicitante": previa.datos["solicitante"],
        "asunto": limpiar(s.resumen),
        "severidad": previa.datos["severidad"],
        "severidad_visible": previa.datos["severidad_visible"],
        "modulo": previa.datos["modulo"],
        "fecha_radicacion": fecha(s.fecha_radicacion),
    }
    resumen = (
        f"Caso de mesa de ayuda radicado con el número {s.numero_radicado} "
        f"(severidad {estructura['severidad_visible']}), a nombre de {estructura['solicitante']}; "
        f"etapa actual: {estructura['etapa_actual']}."
    )
    objeto = {"tipo": "solicitud", "texto": s.numero_radicado, "enlace": s.enlace}
    return Resultado(resumen, estructura, objeto=objeto)


herramienta(
    nombre="radicar_mesa_ayuda",
    area="solicitudes",
    titulo="Radicar un caso en la mesa de ayuda",
    descripcion=(
        "Crea un caso de mesa de ayuda (error, mejora o sugerencia sobre el hub) a nombre de la "
        "persona; úsela solo cuando ella lo pide explícitamente. Dos pasos: sin confirmar "
        "devuelve una vista previa y un token_confirmacion; solo si la persona la aprueba, "
        "repita la llamada con los mismos argumentos, confirmar=true y el token. El segundo "
        "paso devuelve el número de radicado del caso."
    ),
    acceso=Acceso.USUARIO,
    permisos=("solicitudes.radicar",),
    escritura=True,
    argumentos=ArgsRadicarMesaAyuda,
    salida=SALIDA_RADICAR_MESA_AYUDA,
    salida_vista_previa=SALIDA_VISTA_PREVIA,
    ejecutar=radicar,
)(vista_previa)
