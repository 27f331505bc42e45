"""comentar_solicitud (two steps): a message in a request's chat, in the caller's name.

Step 1 checks access and the text and returns the preview (the engine adds the token); step 2,
after the engine checked and spent the token, publishes through `services.comentar`, which
checks access once more inside its transaction. It only adds a message: it never approves,
returns or changes the request.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.solicitudes import selectors, services
from apps.solicitudes.errores import ErrorSolicitud
from apps.solicitudes.herramientas.errores import (
    SALIDA_NO_ENCONTRADA,
    error_de_dominio,
    no_encontrada,
)
from apps.solicitudes.herramientas.esquemas import ENLACE, ESTADO, FECHA, TEXTO, objeto
from apps.solicitudes.herramientas.formato import fecha
from apps.solicitudes.herramientas.permisos import PERMISOS_SOLICITUDES
from apps.solicitudes.herramientas.validacion import texto_limpio
from apps.solicitudes.models import Solicitud
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto

# The service calls the text `texto`; the tool's argument is `comentario`.
_CAMPOS = {"texto": "comentario"}


class ArgsComentarSolicitud(Estricto):
    numero_radicado = serializers.CharField(
        min_length=3, max_length=60, help_text="Número exacto de radicado, p. ej. SOL-2026-000123."
    )
    comentario = serializers.CharField(
        min_length=3,
        max_length=services.MAX_COMENTARIO,
        help_text="El mensaje que se publicará en el chat de la solicitud a nombre de la persona.",
    )

    def validate_comentario(self, valor: str) -> str:
        return texto_limpio(valor, 3)


SALIDA_VISTA_PREVIA: dict[str, Any] = objeto(
    {
        "numero_radicado": TEXTO,
        "id_solicitud": {"type": "integer"},
        "enlace": ENLACE,
        "tipo": TEXTO,
        "estado": ESTADO,
        "autor": TEXTO,
        "comentario": TEXTO,
    }
)
SALIDA_COMENTAR_SOLICITUD: dict[str, Any] = objeto(
    {
        "publicado": {"type": "boolean", "const": True},
        "comentario_id": {"type": "integer"},
        "numero_radicado": TEXTO,
        "id_solicitud": {"type": "integer"},
        "enlace": ENLACE,
        "autor": TEXTO,
        "fecha": FECHA,
        "comentario": TEXTO,
    }
)


def vista_previa(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    """Step 1 (and the access re-check of step 2): what will be published, where, by whom."""
    solicitud = selectors.solicitud_visible(llamada.usuario, datos["numero_radicado"])
    if solicitud is None:
        raise no_encontrada()
    try:
        texto = services.validar_comentario(
            solicitud=solicitud, autor=llamada.usuario, texto=datos["comentario"]
        )
    except ErrorSolicitud as exc:
        raise error_de_dominio(exc, _CAMPOS) from None
    autor = limpiar(llamada.usuario.nombre_visible)
    estructura = {
        "numero_radicado": solicitud.numero_radicado,
        "id_solicitud": solicitud.pk,
        "enlace": solicitud.enlace,
        "tipo": limpiar(solicitud.tipo.nombre),
        "estado": solicitud.estado,
        "autor": autor,
        "comentario": texto,
    }
    resumen = (
        f"Vista previa: se publicará en el chat de la solicitud {solicitud.numero_radicado} "
        f"({estructura['tipo']}, estado «{solicitud.get_estado_display()}»), a nombre de "
        f"{autor} y visible para sus participantes, este comentario: «{texto}»."
    )
    return Resultado(resumen, estructura)


def publicar(llamada: Llamada, datos: dict[str, Any], previa: Resultado) -> Resultado:
    """Step 2: the message is published (the engine already spent the token)."""
    # The service uses only the primary key; it checks visibility again in its transaction.
    solicitud = Solicitud(pk=previa.datos["id_solicitud"])
    try:
        comentario = services.comentar(
            solicitud=solicitud, autor=llamada.usuario, texto=datos["comentario"]
        )
    except ErrorSolicitud as exc:
        raise error_de_dominio(exc, _CAMPOS) from None
    estructura = {
        "publicado": True,
        "comentario_id": comentario.pk,
        "numero_radicado": previa.datos["numero_radicado"],
        "id_solicitud": previa.datos["id_solicitud"],
        "enlace": previa.datos["enlace"],
        "autor": previa.datos["autor"],
        "fecha": fecha(comentario.creado_en),
        "comentario": comentario.texto,
    }
    resumen = (
        f"Comentario publicado en el chat de la solicitud {estructura['numero_radicado']} a "
        f"nombre de {estructura['autor']} ({estructura['fecha']}). Los participantes ya lo ven."
    )
    objeto = {
        "tipo": "comentario",
        "texto": f"Comentario en {estructura['numero_radicado']}",
        "enlace": f"{estructura['enlace']}#comentario-{comentario.pk}",
    }
    return Resultado(resumen, estructura, objeto=objeto)


herramienta(
    nombre="comentar_solicitud",
    area="solicitudes",
    titulo="Comentar una solicitud",
    descripcion=(
        "Publica un comentario en el chat de una solicitud, a nombre de la persona y visible "
        "para sus participantes. Solo agrega un mensaje: no aprueba, no devuelve ni modifica la "
        "solicitud. Exige acceso a la solicitud. Dos pasos: sin confirmar devuelve una vista "
        "previa y un token_confirmacion; solo si la persona la aprueba, repita la llamada con "
        "los mismos argumentos, confirmar=true y el token."
    ),
    acceso=Acceso.USUARIO,
    permisos=PERMISOS_SOLICITUDES,
    escritura=True,
    argumentos=ArgsComentarSolicitud,
    salida=SALIDA_COMENTAR_SOLICITUD,
    salida_error=SALIDA_NO_ENCONTRADA,
    salida_vista_previa=SALIDA_VISTA_PREVIA,
    ejecutar=publicar,
)(vista_previa)
