"""Demo: request types with workflows and requests in every state; safe to run twice.

The named requests below go through the real services (numbers, tasks, history), then their
timestamps are moved back so that ages, due dates and overdue tasks look like a working office.
`--escala N` then tops the total up to about 1000 × N requests with bulk inserts
(`demo_masivo`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F

from apps.cuentas.demo import CONTRASENA_DEMO
from apps.solicitudes import services
from apps.solicitudes.demo_masivo import cargar_masivo
from apps.solicitudes.models import (
    Comentario,
    Etapa,
    Evento,
    Solicitud,
    Tarea,
    TipoSolicitud,
)
from hub.operacion.demo import ContextoDemo

# codigo: (nombre, área, prefijo, es mesa de ayuda, descripción, etapas)
# etapa: (nombre, rol, plazo en horas, requiere firma)
TIPOS: dict[str, tuple[str, str, str, bool, str, list[tuple[str, str, int, bool]]]] = {
    "certificado-laboral": (
        "Certificado laboral",
        "GTH",
        "SOL",
        False,
        "Certificación de tiempo de servicio, cargo y salario de servidores y exservidores.",
        [
            ("Revisión de Talento Humano", "Bandeja de revisión", 48, False),
            ("Firma de la jefatura", "Jefatura de área", 24, True),
        ],
    ),
    "solicitud-cdp": (
        "Solicitud de CDP",
        "SAF",
        "SOL",
        False,
        "Solicitud de certificado de disponibilidad presupuestal para un proceso de contratación.",
        [
            ("Revisión presupuestal", "Bandeja de revisión", 72, False),
            ("Expedición del CDP", "Financiera", 48, True),
        ],
    ),
    "mesa-de-ayuda": (
        "Soporte tecnológico / Mesa de ayuda",
        "OTI",
        "MDA",
        True,
        "Errores, mejoras y sugerencias sobre los sistemas de información del hub.",
        [
            ("Clasificación del caso", "Mesa de ayuda", 8, False),
            ("Atención técnica", "Mesa de ayuda", 48, False),
            ("Verificación y cierre", "Jefatura de área", 24, False),
        ],
    ),
    "derecho-de-peticion": (
        "Derecho de petición",
        "OAJ",
        "SOL",
        False,
        "Peticiones, quejas y reclamos de la ciudadanía (Ley 1755 de 2015).",
        [
            ("Reparto", "Jefatura de área", 24, False),
            ("Proyección de respuesta", "Bandeja de revisión", 240, False),
            ("Firma de la respuesta", "Jefatura de área", 48, True),
        ],
    ),
    "viaticos": (
        "Viáticos y desplazamientos",
        "SAF",
        "SOL",
        False,
        "Reconocimiento de viáticos y gastos de viaje de comisiones de servicio.",
        [
            ("Visto bueno del jefe inmediato", "Jefatura de área", 24, False),
            ("Revisión financiera", "Financiera", 48, False),
            ("Autorización del ordenador del gasto", "Coordinación general", 24, True),
        ],
    ),
}


@dataclass
class Escenario:
    """A named request and what happened to it: steps run in order, `("esperar", h)` ages it."""

    clave: str
    tipo: str
    resumen: str
    solicitante: str | None = None  # username; None = outside person
    externo: tuple[str, str] | None = None  # (nombre, correo)
    campos: list[dict[str, Any]] = field(default_factory=list)
    pasos: list[tuple] = field(default_factory=list)
    padre: str | None = None
    borrador: bool = False
    mesa: dict[str, str] | None = None  # radicar_mesa_ayuda arguments


ESCENARIOS: list[Escenario] = [
    Escenario(
        "de_limitado",
        "certificado-laboral",
        "Certificado laboral con funciones y salario para crédito de vivienda",
        solicitante="limitado",
        campos=[
            {"nombre": "tipo_certificado", "etiqueta": "Tipo", "valor": "Con funciones y salario"},
            {
                "nombre": "dirigido_a",
                "etiqueta": "Dirigido a",
                "valor": "Fondo Nacional del Ahorro",
            },
            {"nombre": "numero_documento", "etiqueta": "Cédula", "valor": "1032456789"},
            {"nombre": "correo_respuesta", "etiqueta": "Correo", "valor": "agomez@correo.com"},
        ],
        pasos=[
            ("esperar", 26),
            ("asignar", "revisor", "revisor"),
            ("esperar", 3),
            ("comentar", "revisor", "Verifiqué la vinculación; paso a firma de la jefatura."),
            ("avanzar", "revisor"),
            ("esperar", 5),
        ],
    ),
    Escenario(
        "de_completo_ajena",
        "solicitud-cdp",
        "CDP para contratación de apoyo a la gestión de la Oficina Asesora de Planeación",
        solicitante="planeacion",
        campos=[
            {
                "nombre": "objeto",
                "etiqueta": "Objeto",
                "valor": "Prestación de servicios "
                "profesionales para el seguimiento del Plan de Acción 2026.",
            },
            {"nombre": "valor_estimado", "etiqueta": "Valor estimado", "valor": "48.000.000"},
            {"nombre": "rubro", "etiqueta": "Rubro", "valor": "O23011601"},
        ],
        pasos=[
            ("esperar", 60),
            ("asignar", "revisor", "revisor"),
            ("comentar", "revisor", "Falta el estudio previo firmado; lo reviso con el área."),
            ("esperar", 60),
        ],
    ),
    Escenario(
        "publica",
        "derecho-de-peticion",
        "Derecho de petición sobre el estado del pago de una cuenta de cobro de marzo",
        externo=("María Fernanda López Rincón", "mflopez@correo.com"),
        campos=[
            {
                "nombre": "peticion",
                "etiqueta": "Petición",
                "valor": "Solicito información sobre "
                "el estado del pago de la cuenta de cobro radicada en marzo.",
            },
            {"nombre": "documento_identidad", "etiqueta": "Documento", "valor": "52789456"},
            {"nombre": "telefono", "etiqueta": "Teléfono", "valor": "3104567890"},
        ],
        pasos=[
            ("esperar", 20),
            ("avanzar", "sin_asistente"),
            ("esperar", 30),
            ("comentar", "revisor", "Solicité a Tesorería el soporte del pago."),
            ("esperar", 10),
        ],
    ),
    Escenario(
        "borrador",
        "viaticos",
        "Viáticos para la comisión a Medellín del encuentro regional de planeación",
        solicitante="planeacion",
        borrador=True,
        campos=[{"nombre": "destino", "etiqueta": "Destino", "valor": "Medellín"}],
        pasos=[("esperar", 4)],
    ),
    Escenario(
        "radicado",
        "certificado-laboral",
        "Certificado de tiempo de servicio para trámite pensional",
        solicitante="sin_asistente",
        campos=[{"nombre": "tipo_certificado", "etiqueta": "Tipo", "valor": "Tiempo de servicio"}],
        pasos=[("esperar", 10)],
    ),
    Escenario(
        "en_tramite",
        "viaticos",
        "Viáticos comisión a Cartagena para la auditoría de la Contraloría",
        solicitante="jefe_oti",
        campos=[
            {"nombre": "destino", "etiqueta": "Destino", "valor": "Cartagena"},
            {"nombre": "fechas", "etiqueta": "Fechas", "valor": "Del 1 al 4 de diciembre"},
        ],
        pasos=[
            ("esperar", 50),
            ("avanzar", "jefe_oti"),
            ("esperar", 20),
            ("avanzar", "financiera"),
            ("esperar", 4),
            ("asignar", "completo", "completo"),
            ("esperar", 44),
        ],
    ),
    Escenario(
        "aprobado",
        "solicitud-cdp",
        "CDP para la renovación del licenciamiento de ofimática",
        solicitante="jefe_oti",
        campos=[{"nombre": "valor_estimado", "etiqueta": "Valor", "valor": "125.400.000"}],
        pasos=[
            ("esperar", 30),
            ("avanzar", "revisor"),
            ("esperar", 20),
            ("comentar", "financiera", "Expedido con cargo al rubro de licencias."),
            ("avanzar", "financiera"),
            ("esperar", 240),
        ],
    ),
    Escenario(
        "hija",
        "solicitud-cdp",
        "CDP para los viáticos de la comisión a Cartagena",
        solicitante="jefe_oti",
        padre="en_tramite",
        pasos=[("esperar", 8)],
    ),
    Escenario(
        "rechazado",
        "viaticos",
        "Viáticos para capacitación en Bogotá sin comisión autorizada",
        solicitante="limitado",
        pasos=[
            ("esperar", 20),
            ("rechazar", "sin_asistente", "La capacitación es en la ciudad sede: no hay viáticos."),
            ("esperar", 100),
        ],
    ),
    Escenario(
        "devuelto",
        "certificado-laboral",
        "Certificado laboral para licitación con la Gobernación",
        solicitante="planeacion",
        pasos=[
            ("esperar", 15),
            ("devolver", "revisor", "Indique a qué entidad va dirigido el certificado."),
            ("esperar", 20),
        ],
    ),
    Escenario(
        "anulado",
        "solicitud-cdp",
        "CDP duplicado para mantenimiento de la sede principal",
        solicitante="completo",
        pasos=[
            ("esperar", 5),
            ("anular", "completo", "Radicada dos veces por error; se tramita la anterior."),
            ("esperar", 70),
        ],
    ),
    Escenario(
        "requiere_atencion",
        "derecho-de-peticion",
        "Petición de copia de expedientes contractuales de 2019",
        externo=("Veeduría Ciudadana Transparencia Ya", "veeduria.transparencia@correo.org"),
        pasos=[
            ("esperar", 30),
            ("avanzar", "sin_asistente"),
            ("esperar", 10),
            ("atencion", "revisor", "Los expedientes están en el archivo central; pedir préstamo."),
            ("esperar", 20),
        ],
    ),
    Escenario(
        "vencida_revisor",
        "solicitud-cdp",
        "CDP para el contrato de vigilancia y seguridad privada",
        solicitante="jefe_oti",
        pasos=[("esperar", 2), ("asignar", "revisor", "revisor"), ("esperar", 118)],
    ),
    Escenario(
        "por_vencer_revisor",
        "certificado-laboral",
        "Certificado laboral de exservidor para bono pensional",
        externo=("Hernán Darío Cifuentes", "hdcifuentes@correo.com"),
        pasos=[("esperar", 1), ("asignar", "revisor", "revisor"), ("esperar", 19)],
    ),
    Escenario(
        "vencida_jefe_oti",
        "mesa-de-ayuda",
        "No carga el tablero de presupuesto desde esta mañana",
        solicitante="planeacion",
        mesa={
            "descripcion": "Al abrir el tablero de presupuesto aparece una pantalla en blanco. "
            "Probé en dos navegadores.",
            "severidad": "bloqueante",
            "modulo": "Presupuesto",
        },
        pasos=[("esperar", 30)],
    ),
    Escenario(
        "por_vencer_jefe_oti",
        "mesa-de-ayuda",
        "Error al adjuntar soportes PDF de más de 5 MB",
        solicitante="limitado",
        mesa={
            "descripcion": "Al adjuntar un PDF de 6 MB el formulario se queda cargando y no "
            "muestra ningún mensaje.",
            "severidad": "error",
            "modulo": "Solicitudes",
        },
        pasos=[
            ("esperar", 3),
            ("avanzar", "jefe_oti"),
            ("asignar", "jefe_oti", "jefe_oti"),
            ("esperar", 30),
        ],
    ),
    Escenario(
        "mesa_ayuda",
        "mesa-de-ayuda",
        "Sugerencia: ordenar la bandeja por fecha de vencimiento",
        solicitante="completo",
        mesa={
            "descripcion": "Sería útil que la bandeja de tareas se pudiera ordenar por fecha de "
            "vencimiento y no solo por fecha de llegada.",
            "severidad": "sugerencia",
            "modulo": "Bandeja de tareas",
        },
        pasos=[("esperar", 2)],
    ),
    Escenario(
        "vencida_completo",
        "viaticos",
        "Viáticos comisión a Cali para el comité regional de control interno",
        solicitante="sin_asistente",
        pasos=[
            ("esperar", 30),
            ("avanzar", "sin_asistente"),
            ("esperar", 10),
            ("avanzar", "financiera"),
            ("asignar", "completo", "completo"),
            ("esperar", 50),
        ],
    ),
    Escenario(
        "por_vencer_completo",
        "derecho-de-peticion",
        "Queja por demora en la expedición de paz y salvo",
        externo=("Jairo Andrés Bermúdez", "jairo.bermudez@correo.com"),
        pasos=[("esperar", 1), ("asignar", "completo", "completo"), ("esperar", 3)],
    ),
]


def _tipos(ctx: ContextoDemo) -> dict[str, TipoSolicitud]:
    areas, roles = ctx.objetos["areas"], ctx.objetos["roles"]
    tipos: dict[str, TipoSolicitud] = {}
    for codigo, (nombre, sigla, prefijo, mesa, descripcion, etapas) in TIPOS.items():
        tipo, _ = TipoSolicitud.objects.get_or_create(
            codigo=codigo,
            defaults={
                "nombre": nombre,
                "area": areas[sigla],
                "prefijo": prefijo,
                "es_mesa_ayuda": mesa,
                "descripcion": descripcion,
            },
        )
        for orden, (nombre_etapa, rol, horas, firma) in enumerate(etapas, start=1):
            Etapa.objects.get_or_create(
                tipo=tipo,
                orden=orden,
                defaults={
                    "nombre": nombre_etapa,
                    "rol": roles[rol],
                    "plazo_horas": horas,
                    "requiere_firma": firma,
                },
            )
        tipos[codigo] = tipo
    return tipos


def _desplazar(solicitud: Solicitud, horas: int) -> None:
    """Move every timestamp of the request back `horas` hours (as if it happened earlier)."""
    delta = timedelta(hours=horas)
    Solicitud.objects.filter(pk=solicitud.pk).update(
        creada_en=F("creada_en") - delta,
        fecha_radicacion=F("fecha_radicacion") - delta,
        fecha_actualizacion=F("fecha_actualizacion") - delta,
        fecha_cierre=F("fecha_cierre") - delta,
    )
    Tarea.objects.filter(solicitud=solicitud).update(
        recibida_en=F("recibida_en") - delta,
        vence_en=F("vence_en") - delta,
        completada_en=F("completada_en") - delta,
    )
    Evento.objects.filter(solicitud=solicitud).update(creado_en=F("creado_en") - delta)
    Comentario.objects.filter(solicitud=solicitud).update(creado_en=F("creado_en") - delta)


def _crear(e: Escenario, tipos, usuarios, hechas: dict[str, Solicitud]) -> Solicitud:
    tipo = tipos[e.tipo]
    solicitante = usuarios[e.solicitante] if e.solicitante else None
    padre = hechas.get(e.padre) if e.padre else None
    if e.mesa is not None:
        return services.radicar_mesa_ayuda(solicitante=solicitante, asunto=e.resumen, **e.mesa)
    if e.borrador:
        return services.crear_borrador(
            tipo=tipo, solicitante=solicitante, resumen=e.resumen, campos=e.campos, padre=padre
        )
    nombre, correo = e.externo if e.externo else (None, None)
    return services.radicar(
        tipo=tipo,
        solicitante=solicitante,
        nombre_solicitante=nombre,
        correo_solicitante=correo,
        resumen=e.resumen,
        campos=e.campos,
        padre=padre,
    )


def _completar(solicitud: Solicitud, actor) -> None:
    """Complete the current stage; one that requires a signature, signed by the person with the
    demo's password (as the page asks them to: no one completes it otherwise)."""
    actual = Solicitud.objects.select_related("etapa_actual").get(pk=solicitud.pk)
    if services.requiere_firma(actual):
        services.firmar(solicitud=actual, actor=actor, contrasena=CONTRASENA_DEMO)
    else:
        services.avanzar(solicitud=actual, actor=actor)


def _ejecutar(solicitud: Solicitud, pasos: list[tuple], usuarios) -> None:
    # Every step happens "now"; each wait moves everything done so far back in time.
    for paso in pasos:
        accion, *args = paso
        if accion == "esperar":
            _desplazar(solicitud, args[0])
            continue
        if accion == "asignar":
            usuario, actor = usuarios[args[0]], usuarios[args[1]]
            tarea = Tarea.objects.pendientes().filter(solicitud=solicitud).first()
            services.asignar(tarea=tarea, usuario=usuario, actor=actor)
        elif accion == "comentar":
            services.comentar(solicitud=solicitud, autor=usuarios[args[0]], texto=args[1])
        elif accion == "avanzar":
            _completar(solicitud, usuarios[args[0]])
        elif accion == "devolver":
            services.devolver(solicitud=solicitud, actor=usuarios[args[0]], motivo=args[1])
        elif accion == "rechazar":
            services.rechazar(solicitud=solicitud, actor=usuarios[args[0]], motivo=args[1])
        elif accion == "anular":
            services.anular(solicitud=solicitud, actor=usuarios[args[0]], motivo=args[1])
        elif accion == "atencion":
            services.marcar_atencion(solicitud=solicitud, actor=usuarios[args[0]], motivo=args[1])
        else:  # pragma: no cover - a typo in the scenarios above
            raise ValueError(f"paso desconocido: {accion}")


@transaction.atomic
def _cargar_escenarios(ctx: ContextoDemo, tipos) -> dict[str, Solicitud]:
    usuarios = ctx.objetos["usuarios"]
    hechas: dict[str, Solicitud] = {}
    for e in ESCENARIOS:
        existente = Solicitud.objects.filter(tipo=tipos[e.tipo], resumen=e.resumen).first()
        if existente is None:
            existente = _crear(e, tipos, usuarios, hechas)
            _ejecutar(existente, e.pasos, usuarios)
        hechas[e.clave] = existente
    # The children's numbers are what the tools show (radicados_hijos of "en_tramite").
    return {
        clave: Solicitud.objects.select_related("tipo").get(pk=s.pk) for clave, s in hechas.items()
    }


def cargar(ctx: ContextoDemo) -> None:
    with transaction.atomic():
        tipos = _tipos(ctx)
    muestras = _cargar_escenarios(ctx, tipos)
    ctx.objetos["tipos_solicitud"] = tipos
    ctx.objetos["solicitudes"] = muestras
    publica = muestras["publica"]
    ctx.salida["solicitud_publica"] = {
        "numero_radicado": publica.numero_radicado,
        "correo_solicitante": publica.correo_solicitante,
    }
    ctx.salida["solicitudes"] = {
        clave: s.numero_radicado for clave, s in muestras.items() if s.numero_radicado
    }
    creadas = cargar_masivo(ctx, objetivo=1000 * ctx.escala)
    total = Solicitud.objects.count()
    ctx.anotar(
        f"Solicitudes: {total} ({creadas} nuevas en carga masiva). Consulta pública: "
        f"{publica.numero_radicado} con el correo {publica.correo_solicitante}"
    )
