"""A three-stage workflow with one person per role, shared by the requests tests."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from apps.solicitudes import services
from apps.solicitudes.models import Etapa, Solicitud, TipoSolicitud
from tests.factories import CONTRASENA, GroupFactory
from tests.solicitudes.factories import persona, radicadora, tipo_con_etapas


@dataclass
class Flujo:
    tipo: TipoSolicitud
    roles: list
    responsables: list  # one person per stage role
    solicitante: object

    def radicar(self, **kwargs) -> Solicitud:
        kwargs.setdefault("resumen", "Certificado laboral para trámite bancario")
        if "correo_solicitante" not in kwargs:
            kwargs.setdefault("solicitante", self.solicitante)
        return services.radicar(tipo=self.tipo, **kwargs)

    def en_estado(self, estado: str) -> Solicitud:
        """A request brought to `estado` through the services."""
        r1, r2, _ = self.responsables
        if estado == "borrador":
            return services.crear_borrador(
                tipo=self.tipo, solicitante=self.solicitante, resumen="Borrador pendiente"
            )
        s = self.radicar()
        if estado == "radicado":
            return s
        if estado == "en_tramite":
            return services.avanzar(solicitud=s, actor=r1)
        if estado == "devuelto":
            return services.devolver(solicitud=s, actor=r1, motivo="Falta un soporte")
        if estado == "requiere_atencion":
            return services.marcar_atencion(solicitud=s, actor=r1, motivo="Caso especial")
        if estado == "rechazado":
            return services.rechazar(solicitud=s, actor=r1, motivo="No cumple requisitos")
        if estado == "anulado":
            return services.anular(solicitud=s, actor=self.solicitante, motivo="Error al radicar")
        if estado == "aprobado":
            s = services.avanzar(solicitud=s, actor=r1)
            s = services.avanzar(solicitud=s, actor=r2)
            # The last stage requires a signature: signing it approves.
            return services.firmar(solicitud=s, actor=self.responsables[2], contrasena=CONTRASENA)
        raise ValueError(estado)

    def sin_firma(self) -> None:
        """No stage requires a signature (for tests of approving at the last stage, which a
        signature stage completes by signing instead)."""
        Etapa.objects.filter(tipo=self.tipo).update(requiere_firma=False)
        self.tipo.refresh_from_db()


@pytest.fixture
def flujo(db) -> Flujo:
    roles = [GroupFactory(name=f"Rol etapa {i}") for i in (1, 2, 3)]
    tipo = tipo_con_etapas(
        *roles, nombre="Certificado laboral", plazos={1: 48, 2: 24, 3: 72}, firmas={3: True}
    )
    responsables = [persona(rol, first_name=f"Responsable{i}") for i, rol in enumerate(roles, 1)]
    return Flujo(tipo, roles, responsables, radicadora(email="ana.perez@entidad.gov.co"))
