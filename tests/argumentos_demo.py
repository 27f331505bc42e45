"""A meaningful call of every tool with the demo's identifiers: plain Python, no Django.

The tests and the live clients outside pytest (scripts/mcp/cliente_2026.py) call the same tools
with the same arguments, so one list serves both.
"""

from __future__ import annotations


def argumentos_demo(demo: dict) -> dict[str, dict]:
    """A meaningful call of every tool with the demo's own identifiers."""
    ajena = demo["solicitud_ajena"]
    return {
        "buscar_ayuda": {"consulta": "¿cómo creo un token personal?"},
        "buscar_documento": {"texto": demo["documento"]},
        "buscar_solicitudes": {"alcance": "todas"},
        "busqueda_global": {"texto": "certificado"},
        "comentar_solicitud": {"numero_radicado": ajena, "comentario": "Revisado, gracias."},
        "diagnostico_servicio": {},
        "estado_cdp": {"numero": demo["cdp"]},
        "estado_presupuesto": {},
        "estado_rp": {"numero": demo["rp"]},
        "estado_solicitud": {"numero_radicado": ajena},
        "mis_accesos": {},
        "mis_tareas": {},
        "radicar_mesa_ayuda": {
            "asunto": "No exporta el tablero",
            "descripcion": "El botón de exportar del tablero presupuestal no responde.",
            "modulo": "Presupuesto",
        },
        "reporte_preparar": {
            "ficha": {"fuente": "cdp", "titulo": "CDP del año", "filtros": [], "formato": "xlsx"}
        },
        "resumen_ejecutivo": {"ambito": "paa_mes"},
        "resumen_solicitud": {"numero_radicado": ajena, "incluir_comentarios": True},
        "uso_asistente": {},
    }
