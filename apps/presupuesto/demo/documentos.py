"""The demo budget's CDP and RP scenarios, and the words of the bulk volume's documents."""

from __future__ import annotations

from dataclasses import dataclass

CDP_POR_ESCALA = 20


@dataclass
class Documento:
    clave: str
    proyecto: str
    area: str
    objeto: str
    millones: int
    estado: str  # solicitado, en_revision, devuelto, rechazado, expedido, anulado
    linea: str | None = None
    solicitud: str | None = None  # scenario key of apps.solicitudes' demo
    externo: str | None = None
    dias: int = 200  # days ago it was issued
    motivo: str = ""


CDPS = [
    Documento(
        "plan-accion",
        "2026-01",
        "OAP",
        "Prestación de servicios profesionales para el seguimiento del Plan de Acción 2026",
        480,
        "expedido",
        "plan-accion",
        externo="1126",
        dias=260,
    ),
    Documento(
        "cargas",
        "2026-01",
        "OAP",
        "Estudio de cargas de trabajo y rediseño de procesos",
        660,
        "expedido",
        "cargas",
        externo="1342",
        dias=230,
    ),
    Documento(
        "apoyo-oap",
        "2026-01",
        "OAP",
        "Contratación de apoyo a la gestión de la Oficina Asesora de Planeación",
        48,
        "devuelto",
        solicitud="de_completo_ajena",
        motivo="Falta el estudio previo firmado por la jefatura.",
    ),
    Documento(
        "ofimatica",
        "2026-02",
        "OTI",
        "Renovación del licenciamiento de ofimática",
        1150,
        "expedido",
        "ofimatica",
        solicitud="aprobado",
        externo="1088",
        dias=290,
    ),
    Documento(
        "nube",
        "2026-02",
        "OTI",
        "Servicios de nube pública y centro de datos alterno",
        1300,
        "expedido",
        "nube",
        externo="1410",
        dias=200,
    ),
    Documento(
        "equipos",
        "2026-04",
        "OTI",
        "Mantenimiento preventivo y correctivo de equipos de cómputo",
        470,
        "expedido",
        "equipos",
        externo="1502",
        dias=170,
    ),
    Documento(
        "viaticos",
        "2026-04",
        "OTI",
        "Viáticos de la comisión a Cartagena",
        12,
        "solicitado",
        solicitud="hija",
    ),
    Documento(
        "asesoria-dg",
        "2026-01",
        "DG",
        "Asesoría estratégica a la Dirección General",
        300,
        "expedido",
        "asesoria-dg",
        externo="1051",
        dias=300,
    ),
    Documento(
        "sede-duplicado",
        "2026-04",
        "DG",
        "Mantenimiento de la sede principal",
        150,
        "anulado",
        solicitud="anulado",
        externo="1207",
        dias=240,
        motivo="CDP duplicado: la necesidad ya estaba cubierta por otro certificado.",
    ),
    Documento(
        "papeleria",
        "2026-04",
        "SAF",
        "Suministro de papelería y elementos de oficina",
        250,
        "expedido",
        "papeleria",
        externo="1150",
        dias=250,
    ),
    Documento(
        "seguros",
        "2026-04",
        "SAF",
        "Programa de seguros generales de la entidad",
        350,
        "expedido",
        "seguros",
        externo="1620",
        dias=120,
    ),
    Documento(
        "vigilancia",
        "2026-04",
        "SAF",
        "Contrato de vigilancia y seguridad privada",
        210,
        "en_revision",
        solicitud="vencida_revisor",
    ),
    Documento(
        "vehiculo",
        "2026-04",
        "SAF",
        "Adquisición de vehículo para la Dirección",
        300,
        "rechazado",
        motivo="La adquisición no está en el plan de austeridad del gasto.",
    ),
    Documento(
        "bienestar",
        "2026-03",
        "GTH",
        "Plan de bienestar e incentivos 2026",
        400,
        "expedido",
        "bienestar",
        externo="1230",
        dias=210,
    ),
    Documento(
        "defensa",
        "2026-01",
        "OAJ",
        "Representación judicial y defensa de la entidad",
        100,
        "expedido",
        "defensa",
        externo="1099",
        dias=280,
    ),
    Documento(
        "auditoria", "2026-01", "OCI", "Auditoría externa al sistema de gestión", 60, "solicitado"
    ),
]

# (cdp key, beneficiary, document, object, millions, obligations in millions, annul?)
RPS = [
    (
        "plan-accion",
        "Consultores Asociados en Planeación S.A.S.",
        "900456123-1",
        "Seguimiento trimestral del Plan de Acción",
        240,
        [40, 40],
        False,
    ),
    (
        "cargas",
        "Gestión Pública y Procesos Ltda.",
        "830112987-4",
        "Estudio técnico de cargas de trabajo",
        660,
        [200],
        False,
    ),
    (
        "ofimatica",
        "Soluciones Licenciadas de Colombia S.A.S.",
        "901223344-5",
        "Licencias de ofimática por un año",
        1150,
        [575],
        False,
    ),
    (
        "nube",
        "Nube Andina Servicios S.A.",
        "900778899-2",
        "Servicios de nube pública (primer año)",
        900,
        [150, 150, 150],
        False,
    ),
    (
        "equipos",
        "Tecnología y Mantenimiento Integral S.A.S.",
        "900334455-6",
        "Mantenimiento de 420 equipos de cómputo",
        470,
        [],
        False,
    ),
    (
        "asesoria-dg",
        "Ana María Restrepo Vélez",
        "43567890",
        "Asesoría estratégica a la Dirección General",
        300,
        [50, 50],
        False,
    ),
    (
        "papeleria",
        "Papelería Comercial del Centro S.A.S.",
        "800234567-8",
        "Suministro de papelería 2026",
        250,
        [60],
        False,
    ),
    (
        "bienestar",
        "Caja de Compensación Familiar del Valle",
        "890303208-5",
        "Actividades de bienestar para servidores",
        150,
        [30],
        False,
    ),
    (
        "bienestar",
        "Eventos y Recreación del Pacífico S.A.S.",
        "901556677-3",
        "Celebración del día del servidor público",
        50,
        [],
        True,
    ),
    (
        "defensa",
        "Juan Carlos Ospina Mejía",
        "79456123",
        "Representación judicial de la entidad",
        100,
        [40, 60],
        False,
    ),
]


OBJETOS_MASIVOS = [
    "Prestación de servicios de apoyo a la gestión en la sede regional",
    "Suministro de combustible para el parque automotor regional",
    "Mantenimiento locativo de la sede regional",
    "Servicio de aseo y cafetería de la sede regional",
    "Transporte de correspondencia y mensajería",
    "Arrendamiento de bodega para el archivo regional",
]
BENEFICIARIOS_MASIVOS = [
    "Servicios Integrales del Norte S.A.S.",
    "Distribuidora Regional de Combustibles Ltda.",
    "Construcciones y Mantenimientos del Sur S.A.S.",
    "Aseo Total de Colombia S.A.",
    "Mensajería Express Nacional S.A.S.",
    "Inmobiliaria del Caribe Ltda.",
]
