"""The Spanish names of a call's results and of the error codes, for people (the admin)."""

from __future__ import annotations

# Results of a call and codes of a refusal as people read them (the code stays in the CSV, the
# search and the filter's address: it is what the logs and the interface documents say).
ETIQUETAS = {
    "ok": "Correcta",
    "DATOS_INVALIDOS": "Datos inválidos",
    "SIN_IDENTIDAD": "Sin token personal",
    "SIN_PERMISO": "Sin permiso",
    "NO_ENCONTRADO": "No encontrado",
    "SESION_EXPIRADA": "Acceso vencido o revocado",
    "FALTA_VERIFICACION": "Falta verificación",
    "DEMASIADOS_INTENTOS": "Demasiados intentos",
    "ESCRITURA_DESHABILITADA": "Escritura deshabilitada",
    "RATE_LIMIT": "Límite de uso superado",
    "CONFIRMACION_AJENA": "Confirmación ajena",
    "APROBACION_PENDIENTE": "Aprobación pendiente en el hub",
    "APROBACION_RECHAZADA": "Rechazada por la persona en el hub",
    "CREDENCIAL_AMBIGUA": "Credenciales contradictorias",
    "NO_AUTENTICADO": "Sin credencial válida",
    "TOKEN_MCP_INVALIDO": "Token inválido",
    "PARAMETROS_INVALIDOS": "Parámetros inválidos",
    "SOLICITUD_INVALIDA": "Petición inválida",
    "TIPO_NO_SOPORTADO": "Tipo de contenido no admitido",
    "VERSION_NO_SOPORTADA": "Versión no admitida",
    "SERVICIO_NO_DISPONIBLE": "Servicio no disponible",
    "ERROR_INTERNO": "Error interno",
}


def etiqueta(codigo: str) -> str:
    """'Datos inválidos' for DATOS_INVALIDOS; an unknown code in words ('Otro codigo')."""
    if codigo in ETIQUETAS:
        return ETIQUETAS[codigo]
    return codigo.replace("_", " ").capitalize() or "—"
