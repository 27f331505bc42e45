"""The budget test worlds (a CDP, an RP, the dashboard's three areas), the people who look at
them, and the fields estado_cdp and estado_rp promise."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from apps.presupuesto import services
from tests.factories import AreaFactory, UserFactory
from tests.mcp.factories import nuevo_token
from tests.presupuesto.factories import (
    MARZO,
    ActividadFactory,
    ProyectoFactory,
    VigenciaFactory,
    cdp_expedido,
    cdp_solicitado,
    celda,
    linea,
    rp_expedido,
    rp_solicitado,
)

USAR = "mcp.asistente.usar"
PLANEACION = "presupuesto.planeacion.consultar"
# The interface's fields of both tools (each adds its own below).
CAMPOS_COMUNES = {
    "numero_externo",
    "numero_radicado",
    "estado",
    "estado_visible",
    "estado_descripcion",
    "estado_expedicion",
    "objeto",
    "valor_inicial",
    "valor_actual",
    "fecha_expedicion",
    "motivo_devolucion",
    "motivo_rechazo",
    "encontrado",
}
CAMPOS_CDP = {
    "numero_cdp",
    "area",
    "dependencia",
    "comprometido",
    "saldo",
    "movimientos",
} | CAMPOS_COMUNES
EXTRAS_CDP = {"area_sigla", "vigencia", "proyecto", "linea_paa", "enlace", "url"}
CAMPOS_RP = {
    "numero_rp",
    "cdp",
    "beneficiario",
    "obligado",
    "fecha_inicio",
    "fecha_fin",
} | CAMPOS_COMUNES
EXTRAS_RP = {"movimientos", "area", "vigencia", "enlace", "url"}
IMPORTES_CDP = ("valor_inicial", "valor_actual", "comprometido", "saldo")
IMPORTES_RP = ("valor_inicial", "valor_actual", "obligado")
DOCUMENTO_BENEFICIARIO = "900123456-7"
# The figures of the dashboard, of each of its rows and of an area's summary.
CIFRAS = (
    "asignado",
    "programado",
    "certificado",
    "comprometido",
    "obligado",
    "disponible",
    "porcentaje_disponible",
    "avance",
    "semaforo",
)
OTI = "Oficina de Tecnologías de la Información"


def como(usuario) -> dict[str, str]:
    return {"X-MCP-User-Token": nuevo_token(usuario)[1]}


def persona(*permisos: str, areas=()) -> dict[str, str]:
    return como(UserFactory(areas=list(areas), permisos=[USAR, *permisos]))


def _proyecto_de_dos_areas(nombre_oti: str):
    """Project 2026-001 with 5.000.000,00 assigned to OAP and 1.000.000,00 to OTI."""
    vigencia = VigenciaFactory(tope=Decimal("10000000.00"))
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre=nombre_oti)
    proyecto = ProyectoFactory(vigencia=vigencia, codigo="2026-001")
    services.asignar(proyecto=proyecto, area=oap, valor="5000000.00")
    services.asignar(proyecto=proyecto, area=oti, valor="1000000.00")
    return proyecto, oap, oti


def _mundo(usuario: str, proyecto, oap, oti, **documentos) -> dict[str, Any]:
    """The world's documents, its areas and their owner: a person of OAP who may consult."""
    duena = UserFactory(username=usuario, areas=[oap], permisos=[USAR, PLANEACION])
    return {
        **documentos,
        "proyecto": proyecto,
        "oap": oap,
        "oti": oti,
        "duena": duena,
        "como_duena": como(duena),
    }


def mundo_cdp() -> dict[str, Any]:
    """One CDP of OAP (1.500.000,00 + 0,25 added, 500.000,00 committed), one of OTI."""
    # The outsiders' area name carries an invisible character the answers must remove.
    proyecto, oap, oti = _proyecto_de_dos_areas("Oficina de Tecnologías\u200b de la Información")
    solicitado = cdp_solicitado(
        proyecto,
        oap,
        "1500000.00",
        objeto="Consultoría\u202e para el plan\u200b estratégico",
        dependencia="Grupo de Planeación\u200b",
        numero_radicado="SOL-2026-000123",
    )
    cdp = services.expedir_cdp(
        cdp=solicitado, numero_externo="ext-4521", fecha_expedicion=datetime.date(2026, 3, 5)
    )
    services.registrar_movimiento_cdp(
        cdp=cdp, tipo="adicion", valor="0.25", descripcion="Ajuste de centavos"
    )
    rp_expedido(cdp, "500000.00")
    ajeno = cdp_expedido(proyecto, oti, "300000.00", objeto="Licencias de software")
    return _mundo("duena_cdp", proyecto, oap, oti, documento=cdp, cdp=cdp, ajeno=ajeno)


def mundo_rp() -> dict[str, Any]:
    """An RP of OAP for 1.200.000,00 with 450.000,50 obligated; another RP in OTI."""
    proyecto, oap, oti = _proyecto_de_dos_areas(OTI)
    cdp = cdp_expedido(proyecto, oap, "2000000.00")
    solicitado = rp_solicitado(
        cdp,
        "1200000.00",
        beneficiario="Consultores\u200b Andinos S.A.S.\u202e",
        documento_beneficiario=DOCUMENTO_BENEFICIARIO,
        objeto="Consultoría para el plan estratégico",
        fecha_inicio=datetime.date(2026, 4, 1),
        fecha_fin=datetime.date(2026, 12, 15),
        numero_radicado="SOL-2026-000456",
    )
    rp = services.expedir_rp(
        rp=solicitado, numero_externo="rp-77", fecha_expedicion=datetime.date(2026, 3, 20)
    )
    services.registrar_movimiento_rp(
        rp=rp, tipo="obligacion", valor="450000.50", descripcion="Primer pago"
    )
    ajeno = rp_expedido(cdp_expedido(proyecto, oti, "300000.00"), "100000.00")
    return _mundo("duena_rp", proyecto, oap, oti, documento=rp, rp=rp, cdp=cdp, ajeno=ajeno)


def cdp_de_oap(
    *,
    objeto: str,
    reduccion: str,
    campos_linea: dict[str, str] | None = None,
    campos_cdp: dict[str, str] | None = None,
    campos_rp: dict[str, str] | None = None,
) -> dict[str, Any]:
    """OAP's CDP 2326 of 900 from a PAA line, reduced by 100, with RP 7781 of 400 to María
    Fernanda Ruiz; its project also assigns 1000 to OAJ. The `campos_*` add fields to the line,
    the CDP request and the RP."""
    area = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    otra = AreaFactory(sigla="OAJ", nombre="Oficina Asesora Jurídica")
    proyecto, _ = celda("5000", area=area)
    services.asignar(proyecto=proyecto, area=otra, valor="1000")
    lin = linea(proyecto, area, "900", **(campos_linea or {}))
    cdp = services.expedir_cdp(
        cdp=services.solicitar_cdp(linea_paa=lin, objeto=objeto, valor="900", **(campos_cdp or {})),
        numero_externo="2326",
    )
    rp = rp_expedido(
        cdp, "400", numero_externo="7781", beneficiario="María Fernanda Ruiz", **(campos_rp or {})
    )
    movimiento = services.registrar_movimiento_cdp(
        cdp=cdp, tipo="reduccion", valor="100", descripcion=reduccion
    )
    return {
        "area": area,
        "otra": otra,
        "proyecto": proyecto,
        "linea": lin,
        "cdp": cdp,
        "rp": rp,
        "movimiento": movimiento,
    }


def mundo_tablero(
    *, obligado: str = "200000.10", certificado_oti: str = "499999.65", nombre_p2: str = ""
) -> dict[str, Any]:
    """The dashboard's world: three areas over two projects; OAP amarillo, OTI rojo, GTH verde.

    Assigned 4.000.000,00 of a 10.000.000,00 ceiling; programmed 1.800.000,00; certified
    2.200.000,00 + `certificado_oti`; committed 1.900.000,00; obligated `obligado`.
    """
    vigencia = VigenciaFactory(tope=Decimal("10000000.00"))
    oap = AreaFactory(sigla="OAP", nombre="Oficina Asesora de Planeación")
    oti = AreaFactory(sigla="OTI", nombre=OTI)
    gth = AreaFactory(sigla="GTH", nombre="Grupo de Talento Humano")
    p1 = ProyectoFactory(
        vigencia=vigencia, codigo="2026-001", nombre="Fortalecimiento institucional"
    )
    p2 = ProyectoFactory(
        vigencia=vigencia, codigo="2026-002", nombre=nombre_p2 or "Transformación digital"
    )
    actividad = ActividadFactory(proyecto=p2, codigo="ACT-1", nombre="Nube y servidores")
    for proyecto, area, valor in [
        (p1, oap, "1000000.00"),
        (p1, oti, "500000.00"),
        (p2, oti, "1500000.00"),
        (p2, gth, "1000000.00"),
    ]:
        services.asignar(proyecto=proyecto, area=area, valor=valor)
    l1 = linea(p1, oap, "600000.00", mes=MARZO)
    linea(p1, oap, "100000.00", mes=MARZO, estado="borrador")
    l3 = linea(p2, oti, "1200000.00", mes=datetime.date(2026, 4, 1), actividad=actividad)
    linea(p2, gth, "300000.00", mes=MARZO, estado="anulada")
    linea(p2, gth, "200000.00", mes=datetime.date(2026, 5, 1), estado="en_revision")
    c1 = services.expedir_cdp(
        cdp=services.solicitar_cdp(linea_paa=l1, objeto="Consultoría", valor="800000.00")
    )
    rp1 = rp_expedido(c1, "500000.00")
    services.registrar_movimiento_rp(
        rp=rp1, tipo="obligacion", valor=obligado, descripcion="Pago 1"
    )
    cdp_expedido(p1, oti, certificado_oti)
    c3 = services.expedir_cdp(
        cdp=services.solicitar_cdp(linea_paa=l3, objeto="Nube", valor="1400000.00")
    )
    rp_expedido(c3, "1400000.00")
    cdp_solicitado(p2, gth, "100000.00")
    services.anular_cdp(cdp=cdp_expedido(p2, gth, "50000.00"), motivo="Desistido")
    return {
        "vigencia": vigencia,
        "oap": oap,
        "oti": oti,
        "gth": gth,
        "p1": p1,
        "p2": p2,
        "actividad": actividad,
    }
