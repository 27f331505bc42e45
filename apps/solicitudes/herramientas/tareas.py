"""mis_tareas: the caller's pending tasks (inbox), most urgent first, with age and due date.

The counts (total, overdue, due within 48 hours) are of the whole inbox in one aggregate query;
the list is one page. The same `ahora` is used for both, so they agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from apps.solicitudes import selectors
from apps.solicitudes.herramientas.esquemas import (
    BOOLEANO,
    ENLACE,
    ENTERO,
    ESTADO,
    FECHA,
    TEXTO,
    objeto,
)
from apps.solicitudes.herramientas.formato import fecha
from apps.solicitudes.models.bandeja import (
    asignada_a_usuario,
    dias_pendiente,
    es_correccion_de,
    nombre_rol_flujo,
    por_vencer,
    vencida,
)
from apps.solicitudes.models.solicitud import enlace_de, numero_visible_de
from hub.busqueda.texto import limpiar
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto


class ArgsMisTareas(Estricto):
    alcance = serializers.ChoiceField(
        choices=["rol", "mias"],
        default="rol",
        help_text=(
            "rol: las asignadas a usted más la bandeja común de sus roles del flujo; "
            "mias: solo las asignadas directamente a usted."
        ),
    )
    solo_vencidas = serializers.BooleanField(
        default=False, help_text="true: solo las tareas vencidas."
    )
    limite = serializers.IntegerField(
        min_value=1, max_value=50, default=20, help_text="Cuántas tareas mostrar."
    )


ITEM_TAREA = objeto(
    {
        "numero_radicado": TEXTO,
        "id_solicitud": {"type": "integer"},
        "enlace": ENLACE,
        "tipo": TEXTO,
        "resumen": TEXTO,
        "estado_solicitud": ESTADO,
        "etapa": TEXTO,
        "rol_flujo": TEXTO,
        "requiere_firma": BOOLEANO,
        "asignada_a_mi": BOOLEANO,
        "es_correccion_mia": BOOLEANO,
        "recibida": FECHA,
        "dias_pendiente": ENTERO,
        "vence_en": FECHA,
        "vencida": BOOLEANO,
        "por_vencer": BOOLEANO,
    }
)
SALIDA_MIS_TAREAS: dict[str, Any] = objeto(
    {
        "alcance": {"type": "string", "enum": ["rol", "mias"]},
        "total_bandeja": ENTERO,
        "mostradas": {"type": "integer", "minimum": 0, "maximum": 50},
        "vencidas": ENTERO,
        "por_vencer": ENTERO,
        "tareas": {"type": "array", "maxItems": 50, "items": ITEM_TAREA},
    }
)


def _etapa(fila: dict[str, Any]) -> str:
    nombre = fila["etapa__nombre"] or ""
    if fila["es_correccion"]:
        return f"Corrección: {nombre}" if nombre else "Corrección"
    return nombre


def _item(fila: dict[str, Any], usuario, ahora: datetime) -> dict[str, Any]:
    """A line of the inbox from its row of `COLUMNAS_LINEA` (selectors.lineas_de_bandeja)."""
    pk, vence, completada = fila["solicitud_id"], fila["vence_en"], fila["completada_en"]
    return {
        "numero_radicado": numero_visible_de(fila["solicitud__numero_radicado"], pk),
        "id_solicitud": pk,
        "enlace": enlace_de(pk),
        "tipo": limpiar(fila["solicitud__tipo__nombre"]),
        "resumen": limpiar(fila["solicitud__resumen"]),
        "estado_solicitud": fila["solicitud__estado"],
        "etapa": limpiar(_etapa(fila)),
        "rol_flujo": limpiar(nombre_rol_flujo(fila["rol__name"])),
        "requiere_firma": fila["requiere_firma"],
        "asignada_a_mi": asignada_a_usuario(fila["asignada_a_id"], usuario),
        "es_correccion_mia": es_correccion_de(
            fila["es_correccion"], fila["asignada_a_id"], usuario
        ),
        "recibida": fecha(fila["recibida_en"]),
        "dias_pendiente": dias_pendiente(fila["recibida_en"], completada, ahora),
        "vence_en": fecha(vence),
        "vencida": vencida(vence, completada, ahora),
        "por_vencer": por_vencer(vence, completada, ahora),
    }


def _marca(i: dict[str, Any]) -> str:
    if i["vencida"]:
        return "VENCIDA"
    if i["por_vencer"]:
        return "vence pronto"
    return "a tiempo"


def _resumen(e: dict[str, Any], solo_vencidas: bool) -> str:
    bandeja = "asignadas a usted" if e["alcance"] == "mias" else "en su bandeja"
    cabeza = (
        f"Tiene {e['total_bandeja']} tarea(s) pendiente(s) {bandeja}: {e['vencidas']} "
        f"vencida(s) y {e['por_vencer']} por vencer en 48 horas."
    )
    if not e["tareas"]:
        return cabeza + (" Ninguna está vencida." if solo_vencidas and e["total_bandeja"] else "")
    lineas = "; ".join(
        f"{i['numero_radicado']} — {i['etapa']} ({i['rol_flujo']}), vence {i['vence_en']} "
        f"[{_marca(i)}]: {i['resumen']}"
        for i in e["tareas"]
    )
    que = "vencida" if solo_vencidas else "más urgente"
    n = e["mostradas"]
    muestra = f"Se muestra la {que}" if n == 1 else f"Se muestran las {n} {que}s"
    return f"{cabeza} {muestra}: {lineas}."


@herramienta(
    nombre="mis_tareas",
    area="solicitudes",
    titulo="Mis tareas pendientes",
    descripcion=(
        "Tareas pendientes de la persona (bandeja): solicitudes por revisar, aprobar, firmar o "
        "corregir, las más urgentes primero, con su antigüedad y vencimiento (marca las "
        "vencidas y las que vencen en 48 horas). Los totales son de toda la bandeja."
    ),
    acceso=Acceso.USUARIO,
    permisos=("solicitudes.bandeja.ver",),
    argumentos=ArgsMisTareas,
    salida=SALIDA_MIS_TAREAS,
)
def mis_tareas(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    usuario = llamada.usuario
    alcance = datos["alcance"]
    ahora = timezone.now()
    cuentas = selectors.contar_bandeja(usuario, alcance, ahora=ahora)
    lineas = selectors.lineas_de_bandeja(
        usuario,
        alcance,
        solo_vencidas=datos["solo_vencidas"],
        ahora=ahora,
        limite=datos["limite"],
        total=cuentas["total"],
    )
    tareas = [_item(fila, usuario, ahora) for fila in lineas]
    estructura = {
        "alcance": alcance,
        "total_bandeja": cuentas["total"],
        "mostradas": len(tareas),
        "vencidas": cuentas["vencidas"],
        "por_vencer": cuentas["por_vencer"],
        "tareas": tareas,
    }
    return Resultado(_resumen(estructura, datos["solo_vencidas"]), estructura)
