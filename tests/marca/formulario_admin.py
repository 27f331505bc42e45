"""The brand's admin form as a person fills it in, for the tests that post it."""

from __future__ import annotations

CAMBIO = "/admin/marca/marca/1/change/"


def formulario_marca(**cambios) -> dict:
    """Every field of the brand's change form, filled in and saved; `cambios` replace or add."""
    return {
        "modo": "comarca",
        "nombre": "IDGP en línea",
        "tagline": "Trámites en un solo lugar",
        "nombre_entidad": "Instituto Distrital de Gestión Pública",
        "color_primario": "#0b4f6c",
        "color_acento": "#f2a541",
        "login_titulo": "Ingreso del personal",
        "login_bullets": "Radique solicitudes.\n\n  Consulte su presupuesto.  \n",
        "contacto_correo": "atencion@idgp.gov.co",
        "contacto_sitio": "https://www.idgp.gov.co",
        "_save": "Guardar",
        **cambios,
    }
