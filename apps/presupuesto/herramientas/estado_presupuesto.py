"""estado_presupuesto: managerial dashboard of the active vigencia, for what the caller sees."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.presupuesto.herramientas.errores import (
    SALIDA_FILTRO_INVALIDO,
    filtro_invalido,
    sin_vigencia,
)
from apps.presupuesto.herramientas.esquemas import (
    AREA,
    CIFRAS,
    CONTEO,
    ENTERO,
    LINEAS_POR_ESTADO,
    LINEAS_TOTAL,
    NUMERO,
    NUMERO_O_NULO,
    POR_AREA,
    POR_PROYECTO,
    TEXTO,
    TEXTO_O_NULO,
    UMBRALES,
    lista,
    objeto,
)
from apps.presupuesto.herramientas.formato import (
    enumerar,
    limpio,
    lineas_en_texto,
    pesos,
    por_ciento,
)
from apps.presupuesto.herramientas.permisos import REPORTES
from apps.presupuesto.selectors import MAX_COINCIDENCIAS, FiltroInvalido, tablero
from hub.herramientas.registro import Acceso, Llamada, Resultado, herramienta
from hub.http.serializadores import Estricto


def filtro_area() -> serializers.CharField:
    """The budget's area filter (this tool's and the budget list pages')."""
    return serializers.CharField(
        max_length=100,
        required=False,
        help_text="Filtra por área: id, sigla exacta o parte del nombre. Solo áreas visibles.",
    )


class ArgsEstadoPresupuesto(Estricto):
    proyecto = serializers.CharField(
        max_length=100,
        required=False,
        help_text=(
            "Filtra por proyecto: id, código exacto o parte del nombre (todas las palabras, "
            "sin tildes). Si coinciden varios, suman juntos."
        ),
    )
    area = filtro_area()
    detalle = serializers.BooleanField(
        default=False,
        help_text=(
            "true con un proyecto que coincida con uno solo: agrega sus actividades y su "
            "reparto por área."
        ),
    )


_PROYECTO_FILTRO = objeto(
    {"id": ENTERO, "codigo": TEXTO, "nombre": TEXTO, "activo": {"type": "boolean"}}
)
_ACTIVIDAD = objeto(
    {
        "id": {"type": ["integer", "null"]},
        "codigo": TEXTO_O_NULO,
        "nombre": TEXTO,
        "activa": {"type": "boolean"},
        "lineas_paa": CONTEO,
        "programado": NUMERO,
        "certificado": NUMERO,
    }
)
DETALLE = objeto(
    {"proyecto": _PROYECTO_FILTRO, "actividades": lista(_ACTIVIDAD), "por_area": POR_AREA}
)

SALIDA_ESTADO_PRESUPUESTO: dict[str, Any] = objeto(
    {
        "vigencia": ENTERO,
        "todas_las_areas": {"type": "boolean"},
        "filtros": objeto(
            {
                "proyectos": {"anyOf": [lista(_PROYECTO_FILTRO), {"type": "null"}]},
                "areas": {"anyOf": [lista(AREA), {"type": "null"}]},
            }
        ),
        "tope": NUMERO,
        "sin_asignar": NUMERO_O_NULO,
        **CIFRAS,
        "lineas_paa": LINEAS_POR_ESTADO,
        "lineas_paa_total": LINEAS_TOTAL,
        "por_proyecto": POR_PROYECTO,
        "por_area": POR_AREA,
        "umbrales_semaforo": UMBRALES,
        "detalle": {"anyOf": [DETALLE, {"type": "null"}]},
        "aviso_detalle": TEXTO_O_NULO,
    }
)


def _aviso_detalle(datos: dict[str, Any], resultado: dict[str, Any], detalle) -> str | None:
    """Why `detalle` was asked for and not given (it needs exactly one matching project)."""
    if not datos["detalle"] or detalle is not None:
        return None
    if "proyecto" not in datos:
        return "El detalle se da para un proyecto: indique proyecto (id, código o nombre)."
    codigos = ", ".join(p["codigo"] for p in resultado["filtros"]["proyectos"])
    if len(resultado["filtros"]["proyectos"]) >= MAX_COINCIDENCIAS:
        codigos += ", …"
    return (
        f"El detalle se da para un solo proyecto y «{datos['proyecto']}» coincide con varios "
        f"({codigos}); indique el código exacto."
    )


def _cifras(d: dict[str, Any]) -> str:
    return (
        f"disponible {pesos(d['disponible'])} ({por_ciento(d['porcentaje_disponible'])} de lo "
        f"asignado, semáforo {d['semaforo']})"
    )


def _resumen(d: dict[str, Any]) -> str:
    filtros = []
    if d["filtros"]["proyectos"] is not None:
        filtros.append("proyecto " + ", ".join(p["codigo"] for p in d["filtros"]["proyectos"]))
    if d["filtros"]["areas"] is not None:
        filtros.append("área " + ", ".join(a["sigla"] for a in d["filtros"]["areas"]))
    alcance = "todas las áreas" if d["todas_las_areas"] else "solo las áreas que usted puede ver"
    if filtros:
        alcance += "; filtrado por " + " y ".join(filtros)
    tope = f"tope {pesos(d['tope'])}"
    if d["sin_asignar"] is not None:
        tope += f" (sin asignar {pesos(d['sin_asignar'])})"
    else:
        tope += " (lo asignado a esta vista)"
    partes = [
        f"Presupuesto de la vigencia {d['vigencia']} ({alcance}): {tope}; asignado "
        f"{pesos(d['asignado'])}; programado en el PAA {pesos(d['programado'])}; certificado en "
        f"CDP {pesos(d['certificado'])}; comprometido en RP {pesos(d['comprometido'])}; obligado "
        f"{pesos(d['obligado'])}; {_cifras(d)}; avance {por_ciento(d['avance'])}.",
        f"Líneas del PAA: {d['lineas_paa_total']['cantidad']} por "
        f"{pesos(d['lineas_paa_total']['valor'])} (sin anuladas); por estado: "
        f"{lineas_en_texto(d['lineas_paa'])}.",
    ]
    if d["por_proyecto"]:
        proyectos = [f"{p['codigo']} {p['nombre']}: {_cifras(p)}" for p in d["por_proyecto"]]
        partes.append(f"Por proyecto: {enumerar(proyectos)}.")
    if d["por_area"]:
        areas = [f"{a['sigla']}: {_cifras(a)}" for a in d["por_area"]]
        partes.append(f"Por área: {enumerar(areas)}.")
    if d["detalle"]:
        actividades = [
            f"{a['codigo'] or '—'} {a['nombre']}: programado {pesos(a['programado'])}, "
            f"certificado {pesos(a['certificado'])}"
            for a in d["detalle"]["actividades"]
        ]
        partes.append(
            f"Actividades de {d['detalle']['proyecto']['codigo']}: "
            f"{enumerar(actividades) if actividades else 'ninguna con movimiento'}."
        )
    if d["aviso_detalle"]:
        partes.append(d["aviso_detalle"])
    if not d["por_proyecto"] and not d["por_area"]:
        partes.append("No hay asignaciones, líneas ni documentos visibles en este alcance.")
    partes.append(
        f"Semáforo: verde desde el {d['umbrales_semaforo']['verde']} % disponible, amarillo "
        f"desde el {d['umbrales_semaforo']['amarillo']} %, rojo por debajo."
    )
    return " ".join(partes)


@herramienta(
    nombre="estado_presupuesto",
    area="presupuesto",
    titulo="Tablero de presupuesto",
    descripcion=(
        "Tablero gerencial de la vigencia activa: tope, asignado, programado, certificado, "
        "comprometido, disponible y avance; líneas del PAA por estado; disponibilidad por "
        "proyecto y por área con semáforo (verde ≥ 30 % disponible, amarillo ≥ 10 %, rojo "
        "menos). Solo lo de las áreas que la persona puede ver. Filtros opcionales por "
        "proyecto y área; detalle=true con un solo proyecto agrega sus actividades."
    ),
    acceso=Acceso.USUARIO,
    permisos=(REPORTES,),
    argumentos=ArgsEstadoPresupuesto,
    salida=SALIDA_ESTADO_PRESUPUESTO,
    salida_error=SALIDA_FILTRO_INVALIDO,
)
def estado_presupuesto(llamada: Llamada, datos: dict[str, Any]) -> Resultado:
    try:
        resultado = tablero(
            llamada.usuario,
            proyecto=datos.get("proyecto"),
            area=datos.get("area"),
            detalle=datos["detalle"],
        )
    except FiltroInvalido as exc:
        raise filtro_invalido(exc) from None
    if resultado is None:
        raise sin_vigencia()
    detalle = resultado.pop("detalle", None)
    if detalle is not None:
        # With one project the dashboard's areas are exactly that project's distribution.
        detalle["por_area"] = resultado["por_area"]
    estructura = limpio(
        {
            **resultado,
            "detalle": detalle,
            "aviso_detalle": _aviso_detalle(datos, resultado, detalle),
        }
    )
    return Resultado(_resumen(estructura), estructura)
