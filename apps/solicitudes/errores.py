"""Domain errors of the requests services; each carries a stable `codigo` for views and tools."""

from __future__ import annotations

from collections.abc import Mapping


class ErrorSolicitud(Exception):
    """Base of the domain errors: a Spanish `detalle` and a stable `codigo`."""

    codigo = "ERROR_SOLICITUD"

    def __init__(self, detalle: str, *, campos: Mapping[str, list[str]] | None = None):
        self.detalle = detalle
        self.campos = dict(campos) if campos else None
        super().__init__(detalle)


class DatosInvalidos(ErrorSolicitud):
    """Bad input; `campos` maps each field to its problems (like the 422 envelope)."""

    codigo = "DATOS_INVALIDOS"


class TransicionInvalida(ErrorSolicitud):
    """The request's current state does not allow this action."""

    codigo = "TRANSICION_INVALIDA"


class AccionNoPermitida(ErrorSolicitud):
    """The actor may not do this on this request (not their task, role or request)."""

    codigo = "SIN_PERMISO"


class SolicitudNoEncontrada(ErrorSolicitud):
    """The request does not exist or the person cannot see it (same answer on purpose)."""

    codigo = "NO_ENCONTRADO"


class MesaAyudaNoConfigurada(ErrorSolicitud):
    """No active help-desk request type exists (an administrator must create one)."""

    codigo = "MESA_AYUDA_NO_CONFIGURADA"


class SolicitudCambio(TransicionInvalida):
    """The form was drawn for the request as it was before: it acts on nothing (409 on the page).

    The same code as any refused transition: the interface's codes stay as they are.
    """


class FirmaRequerida(TransicionInvalida):
    """The current stage completes only by signing it (`firmar`), not by advancing it."""
