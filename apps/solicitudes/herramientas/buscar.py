"""buscar_solicitudes: filter the caller's requests (or all they may see) when the number is
unknown; a count and one page, at a fixed number of queries."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.solicitudes.herramientas.esquemas import ENLACE, ENTERO, ESTADO, FECHA, TEXTO, objeto
from apps.solicitudes.herramientas.formato import fecha
from apps.solicitudes.herramientas.permisos import PERMISOS_SOLICITUDES
from apps.solicitudes.models import Estado
from apps.solicitudes.models.solicitud import RECIENTES, enlace_de, nombre_de_etapa
from apps.solicitudes.selectors import solicitudes_filtradas
from hub.busqueda.columnas import total_y_filas
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, ErrorHerramienta, Llamada, Resultado, herramienta
from hub.http.serializadores import ConFechas

PERMISO_TODAS = "solicitudes.ver_todas"


def filtros_solicitudes(*, todas: str, prefijo: str = "") -> tuple[serializers.Field, ...]:
    """The state, filing-date and scope filters of a search of requests, in that order.

    `todas` says what alcance=todas shows and the permission it takes; `prefijo` opens each
    description where the tool searches more than requests ("Solo solicitudes: ").
    """

    def descripcion(texto: str) -> str:
        return f"{prefijo}{texto[0].lower()}{texto[1:]}" if prefijo else texto

    return (
        serializers.ChoiceField(
            choices=list(Estado.values),
            required=False,
            help_text=descripcion("Estado de la solicitud."),
        ),
        serializers.DateField(
            required=False,
            help_text=descripcion("Radicadas desde este día, incluido (YYYY-MM-DD)."),
        ),
        serializers.DateField(
            required=False,
            help_text=descripcion("Radicadas hasta este día, incluido (YYYY-MM-DD)."),
        ),
        serializers.ChoiceField(
            choices=["mias", "todas"],
            default="mias",
            help_text=descripcion(f"mias: las que usted radicó; todas: {todas}."),
        ),
    )


class FiltrosSolicitudes(ConFechas):
    """The arguments of a search of requests: `desde` never after `hasta`."""


class ArgsBuscarSolicitudes(FiltrosSolicitudes):
    texto = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        help_text="Parte del número de radicado o del resumen (sin distinguir tildes).",
    )
    estado, desde, hasta, alcance = filtros_solicitudes(
        todas="todas las que puede ver (exige el permiso solicitudes.ver_todas)"
    )
    tipo = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        help_text="Código o parte del nombre del tipo de solicitud.",
    )
    limite = serializers.IntegerField(
        min_value=1, max_value=30, default=10, help_text="Cuántas solicitudes mostrar."
    )

    def validate_texto(self, valor: str) -> str:
        return limpiar(valor).strip()

    def validate_tipo(self, valor: str) -> str:
        return limpiar(valor).strip()


ITEM_SOLICITUD = objeto(
    {
        "numero_radicado": {"type": ["string", "null"]},
        "id_solicitud": {"type": "integer"},
        "enlace": ENLACE,
        "tipo": TEXTO,
        "estado": ESTADO,
        "etapa_actual": TEXTO,
        "resumen": TEXTO,
        "fecha_radicacion": FECHA,
        "fecha_actualizacion": FECHA,
    }
)
SALIDA_BUSCAR_SOLICITUDES: dict[str, Any] = objeto(
    {
        "alcance": {"type": "string", "enum": ["mias", "todas"]},
        "total": ENTERO,
        "mostradas": {"type": "integer", "minimum": 0, "maximum": 30},
        "solicitudes": {"type": "array", "maxItems": 30, "items": ITEM_SOLICITUD},
    }
)


# The columns a search item shows, read as plain values: building a model (and its type and
# stage) per row and compiling every column cost more than the rest of the page query.
_COLUMNAS_ITEM = (
    "numero_radicado",
    "tipo__nombre",
    "estado",
    "etapa_actual__nombre",
    "resumen",
    "fecha_radicacion",
    "creada_en",
    "fecha_actualizacion",
)


def item_solicitud(pk: int, fila: tuple[Any, ...]) -> dict[str, Any]:
    """A request as a search lists it (buscar_solicitudes and busqueda_global), from its pk and
    the values of `_COLUMNAS_ITEM`."""
    numero, tipo, estado, etapa, resumen, radicacion, creada, actualizacion = fila
    return {
        "numero_radicado": numero,
        "id_solicitud": pk,
        "enlace": enlace_de(pk),
        "tipo": limpiar(tipo),
        "estado": estado,
        "etapa_actual": limpiar(nombre_de_etapa(etapa, estado)),
        "resumen": limpiar(resumen),
        # A draft has no filing date yet: its creation stands in (as in estado_solicitud).
        "fecha_radicacion": fecha(radicacion or creada),
        "fecha_actualizacion": fecha(actualizacion),
    }


def total_e_items(qs, limite: int) -> tuple[int, list[dict[str, Any]]]:
    """The exact total of `qs` and its first `limite` requests (newest filing first) as search
    items: one query on PostgreSQL (hub.busqueda.columnas.total_y_filas)."""
    total, filas = total_y_filas(qs.order_by(RECIENTES, "-pk"), _COLUMNAS_ITEM, limite)
    return total, [item_solicitud(fila[0], fila[1:]) for fila in filas]


def _resumen(estructura: dict[str, Any]) -> str:
    donde = "radicadas por usted" if estructura["alcance"] == "mias" else "que usted puede ver"
    total, mostradas = estructura["total"], estructura["mostradas"]
    if total == 0:
        return f"No hay solicitudes {donde} con esos criterios."
    lineas = "; ".join(
        f"{i['numero_radicado'] or 'borrador #' + str(i['id_solicitud'])} ({i['estado']}, "
        f"{i['tipo']}): {i['resumen']}"
        for i in estructura["solicitudes"]
    )
    parcial = f", se muestran las {mostradas} más recientes" if total > mostradas else ""
    return f"{total} solicitud(es) {donde}{parcial}: {lineas}."


@herramienta(
    nombre="buscar_solicitudes",
    area="solicitudes",
    titulo="Buscar solicitudes",
    descripcion=(
        "Filtra solicitudes (radicados) cuando no se conoce el número exacto: por texto del "
        "número o del resumen, estado, tipo y fechas de radicación. alcance=mias (por defecto) "
        "son las que la persona radicó (el mismo significado que en busqueda_global); "
        "alcance=todas, todas las que puede ver (exige solicitudes.ver_todas). Devuelve el "
        "total y las más recientes primero, con su enlace."
    ),
    acceso=Acceso.USUARIO,
    permisos=PERMISOS_SOLICITUDES,
    argumentos=ArgsBuscarSolicitudes,
    salida=SALIDA_BUSCAR_SOLICITUDES,
)
def buscar_solicitudes(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    if datos["alcance"] == "todas" and not llamada.usuario.has_perm(PERMISO_TODAS):
        raise ErrorHerramienta(
            "SIN_PERMISO",
            "alcance=todas exige el permiso solicitudes.ver_todas; use alcance=mias.",
        )
    total, solicitudes = total_e_items(
        solicitudes_filtradas(llamada.usuario, datos), datos["limite"]
    )
    estructura = {
        "alcance": datos["alcance"],
        "total": total,
        "mostradas": len(solicitudes),
        "solicitudes": solicitudes,
    }
    return Resultado(_resumen(estructura), estructura)
