"""The demo budget's content: projects, assignments, PAA lines, CDP and RP scenarios."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from apps.presupuesto.models import LineaPaa

M = Decimal(1_000_000)  # amounts below are in millions of pesos
TOPE_BASE = 12_000 * M
CDP_POR_ESCALA = 20
AREAS_MASIVAS = ["DG", "SAF", "GTH", "OAJ", "OCI"]  # green areas: the volume keeps them green
ASIGNACION_MASIVA = 400 * M  # per area and unit of escala; bulk CDPs use at most half

PROYECTOS = {
    "2026-01": (
        "Fortalecimiento de la gestión institucional",
        [
            ("A1", "Planeación estratégica y seguimiento"),
            ("A2", "Gestión jurídica"),
            ("A3", "Control y evaluación independiente"),
        ],
    ),
    "2026-02": (
        "Transformación digital y gobierno en línea",
        [("A1", "Infraestructura tecnológica"), ("A2", "Sistemas de información")],
    ),
    "2026-03": (
        "Bienestar y desarrollo del talento humano",
        [("A1", "Bienestar e incentivos"), ("A2", "Capacitación")],
    ),
    "2026-04": (
        "Funcionamiento y servicios administrativos",
        [("A1", "Servicios administrativos"), ("A2", "Mantenimiento de sedes")],
    ),
}
PROYECTO_MASIVO = ("2026-90", "Gestión operativa de las sedes regionales")

# (project, area, millions): OAP ends 20 % available (amarillo), OTI 6 % (rojo).
ASIGNACIONES = [
    ("2026-01", "DG", 800),
    ("2026-01", "OAP", 1200),
    ("2026-01", "OAJ", 400),
    ("2026-01", "OCI", 300),
    ("2026-02", "OTI", 2500),
    ("2026-02", "OAP", 300),
    ("2026-03", "GTH", 1500),
    ("2026-04", "SAF", 2000),
    ("2026-04", "DG", 200),
    ("2026-04", "OTI", 500),
]


@dataclass
class Linea:
    clave: str
    mes: int  # 0 = the current month
    proyecto: str
    area: str
    actividad: str
    objeto: str
    millones: int
    estado: str  # final state: borrador, en_revision, aprobada or anulada (CDPs do the rest)
    modalidad: str = LineaPaa.Modalidad.CONTRATACION_DIRECTA


LINEAS = [
    Linea(
        "plan-accion",
        2,
        "2026-01",
        "OAP",
        "A1",
        "Prestación de servicios profesionales para el seguimiento del Plan de Acción 2026",
        540,
        "aprobada",
    ),
    Linea(
        "cargas",
        3,
        "2026-01",
        "OAP",
        "A1",
        "Estudio de cargas de trabajo y rediseño de procesos",
        700,
        "aprobada",
        LineaPaa.Modalidad.CONCURSO_MERITOS,
    ),
    Linea(
        "ofimatica",
        1,
        "2026-02",
        "OTI",
        "A2",
        "Renovación del licenciamiento de ofimática",
        1150,
        "aprobada",
        LineaPaa.Modalidad.SELECCION_ABREVIADA,
    ),
    Linea(
        "nube",
        4,
        "2026-02",
        "OTI",
        "A1",
        "Servicios de nube pública y centro de datos alterno",
        1300,
        "aprobada",
        LineaPaa.Modalidad.LICITACION,
    ),
    Linea(
        "equipos",
        5,
        "2026-04",
        "OTI",
        "A2",
        "Mantenimiento preventivo y correctivo de equipos de cómputo",
        470,
        "aprobada",
        LineaPaa.Modalidad.MINIMA_CUANTIA,
    ),
    Linea(
        "asesoria-dg",
        1,
        "2026-01",
        "DG",
        "A1",
        "Asesoría estratégica a la Dirección General",
        300,
        "aprobada",
    ),
    Linea(
        "papeleria",
        2,
        "2026-04",
        "SAF",
        "A1",
        "Suministro de papelería y elementos de oficina",
        250,
        "aprobada",
        LineaPaa.Modalidad.MINIMA_CUANTIA,
    ),
    Linea(
        "seguros",
        6,
        "2026-04",
        "SAF",
        "A1",
        "Programa de seguros generales de la entidad",
        350,
        "aprobada",
        LineaPaa.Modalidad.LICITACION,
    ),
    Linea(
        "bienestar",
        3,
        "2026-03",
        "GTH",
        "A1",
        "Plan de bienestar e incentivos 2026",
        400,
        "aprobada",
    ),
    Linea(
        "defensa",
        2,
        "2026-01",
        "OAJ",
        "A2",
        "Representación judicial y defensa de la entidad",
        100,
        "aprobada",
    ),
    # Lines that stay in the plan: every month has some, the current month (0) several.
    Linea(
        "capacitacion",
        7,
        "2026-03",
        "GTH",
        "A2",
        "Plan institucional de capacitación",
        380,
        "aprobada",
        LineaPaa.Modalidad.SELECCION_ABREVIADA,
    ),
    Linea(
        "auditoria",
        8,
        "2026-01",
        "OCI",
        "A3",
        "Auditoría externa al sistema de gestión",
        90,
        "aprobada",
        LineaPaa.Modalidad.CONCURSO_MERITOS,
    ),
    Linea(
        "sede",
        9,
        "2026-04",
        "DG",
        "A2",
        "Adecuación de la sede principal",
        180,
        "en_revision",
        LineaPaa.Modalidad.LICITACION,
    ),
    Linea(
        "interoperabilidad",
        10,
        "2026-02",
        "OAP",
        "A2",
        "Interoperabilidad de los sistemas de planeación",
        250,
        "aprobada",
    ),
    Linea(
        "archivo",
        11,
        "2026-04",
        "SAF",
        "A1",
        "Organización y digitalización del archivo central",
        420,
        "en_revision",
        LineaPaa.Modalidad.SELECCION_ABREVIADA,
    ),
    Linea(
        "navidad",
        12,
        "2026-03",
        "GTH",
        "A1",
        "Actividades de cierre de año y reconocimientos",
        90,
        "borrador",
        LineaPaa.Modalidad.MINIMA_CUANTIA,
    ),
    Linea(
        "vehiculo",
        4,
        "2026-04",
        "SAF",
        "A1",
        "Adquisición de vehículo para la Dirección",
        300,
        "anulada",
        LineaPaa.Modalidad.SELECCION_ABREVIADA,
    ),
    Linea(
        "mes-oap",
        0,
        "2026-01",
        "OAP",
        "A1",
        "Evaluación de la planeación institucional del mes",
        120,
        "aprobada",
    ),
    Linea(
        "mes-dg",
        0,
        "2026-01",
        "DG",
        "A1",
        "Acompañamiento a la rendición de cuentas",
        85,
        "en_revision",
    ),
    Linea(
        "mes-oti",
        0,
        "2026-02",
        "OTI",
        "A2",
        "Soporte de la mesa de ayuda tecnológica",
        140,
        "aprobada",
        LineaPaa.Modalidad.MINIMA_CUANTIA,
    ),
    Linea(
        "mes-gth", 0, "2026-03", "GTH", "A2", "Jornada de inducción y reinducción", 35, "borrador"
    ),
]


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
