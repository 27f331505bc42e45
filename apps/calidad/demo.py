"""Demo: the process map and quality documents of a Colombian public entity; safe to run twice."""

from __future__ import annotations

import datetime
import hashlib

from django.db import transaction

from apps.calidad.models import Documento, Proceso
from apps.calidad.uid import codificar
from hub.operacion.demo import ContextoDemo

T = Documento.Tipo

PROCESOS = [
    ("DE", "Direccionamiento Estratégico y Planeación", Proceso.Categoria.ESTRATEGICO),
    ("GC", "Gestión de Comunicaciones", Proceso.Categoria.ESTRATEGICO),
    ("ASC", "Atención y Servicio al Ciudadano", Proceso.Categoria.MISIONAL),
    ("GTH", "Gestión del Talento Humano", Proceso.Categoria.APOYO),
    ("GF", "Gestión Financiera", Proceso.Categoria.APOYO),
    ("GCT", "Gestión Contractual", Proceso.Categoria.APOYO),
    ("GD", "Gestión Documental", Proceso.Categoria.APOYO),
    ("GTI", "Gestión de Tecnologías de la Información", Proceso.Categoria.APOYO),
    ("GJ", "Gestión Jurídica", Proceso.Categoria.APOYO),
    ("EI", "Evaluación Independiente", Proceso.Categoria.EVALUACION),
    ("MC", "Mejora Continua", Proceso.Categoria.EVALUACION),
]


def _f(texto: str) -> datetime.date:
    return datetime.date.fromisoformat(texto)


# (process, type, title, topics, [(version, code, publication date)], draft version or None).
# The last version of the history is the current one; earlier ones are obsolete.
DOCUMENTOS: list[tuple[str, str, str, str, list[tuple[str, str, str]], str | None]] = [
    (
        "ASC",
        T.PROCEDIMIENTO,
        "Procedimiento de gestión de peticiones, quejas y reclamos",
        "PQRSD derecho de petición denuncias sugerencias Ley 1755 de 2015 términos de respuesta",
        [
            ("1", "SC-P-01", "2019-03-01"),
            ("2", "ASC-PR-001", "2021-06-15"),
            ("3", "ASC-PR-001", "2024-02-12"),
        ],
        "4",
    ),
    (
        "ASC",
        T.MANUAL,
        "Manual de atención y servicio a la ciudadanía",
        "canales de atención protocolo de servicio lenguaje claro accesibilidad",
        [("1", "ASC-MA-001", "2020-08-03"), ("2", "ASC-MA-001", "2023-11-20")],
        None,
    ),
    (
        "ASC",
        T.FORMATO,
        "Formato de encuesta de satisfacción del ciudadano",
        "medición de la satisfacción percepción del servicio",
        [("1", "ASC-FO-003", "2022-04-18")],
        None,
    ),
    (
        "GTH",
        T.PROCEDIMIENTO,
        "Procedimiento de vinculación y desvinculación de servidores públicos",
        "nombramiento posesión retiro hoja de vida SIGEP",
        [("1", "TH-PR-01", "2018-05-10"), ("2", "GTH-PR-001", "2022-01-24")],
        None,
    ),
    (
        "GTH",
        T.PLAN,
        "Plan institucional de capacitación",
        "PIC formación competencias inducción reinducción",
        [("1", "GTH-PL-002", "2025-01-30")],
        None,
    ),
    (
        "GTH",
        T.FORMATO,
        "Formato de solicitud de vacaciones",
        "vacaciones permisos licencias novedades de nómina",
        [("1", "GTH-FO-014", "2021-03-08"), ("2", "GTH-FO-014", "2023-07-03")],
        None,
    ),
    (
        "GF",
        T.PROCEDIMIENTO,
        "Procedimiento de expedición de certificados de disponibilidad presupuestal",
        "CDP disponibilidad presupuestal registro presupuestal RP compromiso rubro",
        [
            ("1", "GF-PR-004", "2020-02-14"),
            ("2", "GF-PR-004", "2022-09-01"),
            ("3", "GF-PR-004", "2025-03-17"),
        ],
        None,
    ),
    (
        "GF",
        T.INSTRUCTIVO,
        "Instructivo para la elaboración del plan anual de adquisiciones",
        "PAA plan de compras necesidades Colombia Compra Eficiente SECOP",
        [("1", "GF-IN-002", "2023-01-16")],
        "2",
    ),
    (
        "GCT",
        T.MANUAL,
        "Manual de contratación y supervisión",
        "supervisión interventoría modalidades de selección estudios previos Ley 80",
        [
            ("1", "GJ-MA-001", "2017-10-02"),
            ("2", "GCT-MA-001", "2021-05-04"),
            ("3", "GCT-MA-001", "2024-08-26"),
        ],
        None,
    ),
    (
        "GD",
        T.GUIA,
        "Guía de organización de archivos de gestión",
        "tablas de retención documental TRD transferencias primarias expedientes foliación",
        [("1", "GD-GU-001", "2022-06-06")],
        None,
    ),
    (
        "GD",
        T.INSTRUCTIVO,
        "Instructivo de radicación y distribución de comunicaciones oficiales",
        "ventanilla única correspondencia radicado consecutivo comunicaciones",
        [("1", "GD-IN-003", "2021-02-22"), ("2", "GD-IN-003", "2024-04-29")],
        None,
    ),
    (
        "GTI",
        T.POLITICA,
        "Política de seguridad y privacidad de la información",
        "MSPI seguridad digital tratamiento de datos personales Ley 1581 de 2012",
        [("1", "SI-PO-01", "2019-09-09"), ("2", "GTI-PO-001", "2023-03-13")],
        None,
    ),
    (
        "GTI",
        T.PROCEDIMIENTO,
        "Procedimiento de gestión de incidentes de la mesa de ayuda",
        "soporte técnico incidentes requerimientos niveles de servicio ANS",
        [("1", "GTI-PR-005", "2024-10-07")],
        None,
    ),
    (
        "DE",
        T.CARACTERIZACION,
        "Caracterización del proceso de direccionamiento estratégico y planeación",
        "MIPG planeación institucional indicadores riesgos",
        [("1", "DE-CA-001", "2021-01-18")],
        None,
    ),
    (
        "EI",
        T.PROCEDIMIENTO,
        "Procedimiento de auditoría interna de gestión",
        "control interno plan anual de auditoría informe hallazgos",
        [("1", "EI-PR-001", "2020-07-13"), ("2", "EI-PR-001", "2023-02-06")],
        None,
    ),
    (
        "MC",
        T.PROCEDIMIENTO,
        "Procedimiento de acciones correctivas y de mejora",
        "plan de mejoramiento no conformidades análisis de causas",
        [("1", "MC-PR-002", "2022-11-28")],
        None,
    ),
]

# Documents still being written: never visible outside.
BORRADORES = [
    ("GC", T.GUIA, "Guía de comunicación en lenguaje claro", "GC-GU-004", "redacción sencilla"),
    ("GJ", T.PROTOCOLO, "Protocolo de defensa judicial", "GJ-PT-001", "demandas conciliación"),
]

# Words for the bulk documents of --escala.
_TIPOS_ESCALA = [
    (T.FORMATO, "FO", "Formato de"),
    (T.PROCEDIMIENTO, "PR", "Procedimiento de"),
    (T.INSTRUCTIVO, "IN", "Instructivo de"),
    (T.GUIA, "GU", "Guía de"),
]
_ASUNTOS_ESCALA = [
    "control de asistencia a reuniones",
    "solicitud de certificación laboral",
    "seguimiento a indicadores de gestión",
    "préstamo de expedientes",
    "entrega de puesto de trabajo",
    "evaluación de proveedores",
    "registro de visitantes",
    "conciliación bancaria",
    "inventario de bienes muebles",
    "actualización de la página web",
]
POR_UNIDAD = 20
_EPOCA_ESCALA = int(datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC).timestamp() * 1000)


def uid_fijo(semilla: str, ms: int) -> str:
    """A deterministic identifier, so a second run recognizes what the first one made."""
    azar = int.from_bytes(hashlib.sha256(semilla.encode()).digest()[:10], "big")
    return codificar((ms << 80) | azar)


def _ms(fecha: datetime.date) -> int:
    inicio = datetime.datetime.combine(fecha, datetime.time(8), tzinfo=datetime.UTC)
    return int(inicio.timestamp() * 1000)


def _familia(procesos: dict[str, Proceso], definicion) -> list[Documento]:
    sigla, tipo, titulo, temas, historia, borrador = definicion
    primera_version, primer_codigo, primera_fecha = historia[0]
    uid = uid_fijo(f"calidad:{primer_codigo}:{primera_version}", _ms(_f(primera_fecha)))
    filas = []
    anteriores: list[str] = []
    for i, (version, codigo, fecha) in enumerate(historia):
        vigente = i == len(historia) - 1
        filas.append(
            Documento(
                uid=uid,
                codigo_publicado=codigo,
                codigos_anteriores=[c for c in anteriores if c != codigo],
                titulo=titulo,
                version=version,
                tipo=tipo,
                proceso=procesos[sigla],
                temas=temas,
                estado=Documento.Estado.PUBLICADO if vigente else Documento.Estado.OBSOLETO,
                fecha_publicacion=_f(fecha),
            )
        )
        if codigo not in anteriores:
            anteriores.append(codigo)
    if borrador:
        actual = filas[-1]
        filas.append(
            Documento(
                uid=uid,
                codigo_publicado=actual.codigo_publicado,
                codigos_anteriores=list(actual.codigos_anteriores),
                titulo=titulo,
                version=borrador,
                tipo=tipo,
                proceso=procesos[sigla],
                temas=temas,
            )
        )
    return filas


def _escala(ctx: ContextoDemo, procesos: list[Proceso]) -> int:
    """POR_UNIDAD bulk documents per unit of scale beyond the first, inserted in batches."""
    total = POR_UNIDAD * (ctx.escala - 1)
    if total <= 0:
        return 0
    uids = [uid_fijo(f"calidad:escala:{i}", _EPOCA_ESCALA + i) for i in range(total)]
    existentes = set(
        Documento.objects.filter(uid__gte=uids[0], uid__lte=uids[-1]).values_list("uid", flat=True)
    )
    nuevos = []
    for i, uid in enumerate(uids):
        if uid in existentes:
            continue
        tipo, abreviatura, prefijo = _TIPOS_ESCALA[i % len(_TIPOS_ESCALA)]
        asunto = _ASUNTOS_ESCALA[(i // len(_TIPOS_ESCALA)) % len(_ASUNTOS_ESCALA)]
        proceso = procesos[i % len(procesos)]
        # One in ten is a draft and one in ten an obsolete (withdrawn) document.
        estado = (
            Documento.Estado.BORRADOR
            if i % 10 == 3
            else Documento.Estado.OBSOLETO
            if i % 10 == 7
            else Documento.Estado.PUBLICADO
        )
        nuevos.append(
            Documento(
                uid=uid,
                codigo_publicado=f"{proceso.sigla}-{abreviatura}-{1000 + i}",
                titulo=f"{prefijo} {asunto} ({i + 1})",
                version=str(1 + i % 4),
                tipo=tipo,
                proceso=proceso,
                temas=asunto,
                estado=estado,
                fecha_publicacion=(
                    None
                    if estado == Documento.Estado.BORRADOR
                    else datetime.date(2020, 1, 1) + datetime.timedelta(days=i % 2000)
                ),
            )
        )
    Documento.objects.crear_en_bloque(nuevos)
    return len(nuevos)


@transaction.atomic
def cargar(ctx: ContextoDemo) -> None:
    procesos: dict[str, Proceso] = {}
    for sigla, nombre, categoria in PROCESOS:
        procesos[sigla], _ = Proceso.objects.get_or_create(
            sigla=sigla, defaults={"nombre": nombre, "categoria": categoria}
        )

    filas: list[Documento] = []
    for definicion in DOCUMENTOS:
        filas.extend(_familia(procesos, definicion))
    for sigla, tipo, titulo, codigo, temas in BORRADORES:
        filas.append(
            Documento(
                uid=uid_fijo(f"calidad:borrador:{codigo}", _ms(datetime.date(2025, 6, 2))),
                codigo_publicado=codigo,
                titulo=titulo,
                tipo=tipo,
                proceso=procesos[sigla],
                temas=temas,
            )
        )
    existentes = set(
        Documento.objects.filter(uid__in={f.uid for f in filas}).values_list("uid", flat=True)
    )
    Documento.objects.crear_en_bloque([f for f in filas if f.uid not in existentes])
    masivos = _escala(ctx, list(procesos.values()))

    ctx.objetos["procesos"] = procesos
    ctx.salida["documento"] = "ASC-PR-001"
    vigentes = Documento.objects.vigentes().count()
    ctx.anotar(f"Calidad: {vigentes} documentos vigentes (+{masivos} nuevos de la escala).")
