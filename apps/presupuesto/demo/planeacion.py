"""The demo budget's planning: projects, assignments and PAA lines."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from apps.presupuesto.models import LineaPaa

M = Decimal(1_000_000)  # amounts below are in millions of pesos
TOPE_BASE = 12_000 * M
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
