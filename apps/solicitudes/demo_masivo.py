"""Bulk demo volume: about 1000 requests per `--escala` unit, inserted in batches.

Rows are built in memory and written with `bulk_create` (the search column prepared by hand,
numbers reserved per prefix and year by advancing the counter once per batch), so
`--escala 1000` (a million requests) loads on PostgreSQL in minutes. Open requests get their
pending task; every request gets its filing event and, when it moved, one more; a few get a
comment. Running it again only tops the total up to the target.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.utils import timezone

from apps.cuentas.models import Area, User
from apps.solicitudes.models import (
    Accion,
    Comentario,
    Consecutivo,
    Estado,
    Etapa,
    Evento,
    Solicitud,
    Tarea,
    TipoSolicitud,
    formatear_numero,
)
from apps.solicitudes.services import PLAZO_CORRECCION_HORAS
from hub.busqueda.texto import normalizar
from hub.operacion.demo import ContextoDemo

LOTE = 5000
PREFIJO_POOL = "func"
ROLES_FLUJO = [
    "Bandeja de revisión",
    "Jefatura de área",
    "Mesa de ayuda",
    "Financiera",
    "Coordinación general",
]

NOMBRES = [
    "Ana", "Luis", "Carolina", "Juan", "Sandra", "Carlos", "Diana", "Jorge", "Paola", "Andrés",
    "Marcela", "Felipe", "Claudia", "Óscar", "Lorena", "Sebastián", "Natalia", "Camilo", "Yolanda",
    "Fabián", "Liliana", "Hernán", "Ángela", "Mauricio", "Gloria", "Iván", "Patricia", "Édgar",
]  # fmt: skip
APELLIDOS = [
    "García", "Rodríguez", "Martínez", "López", "González", "Hernández", "Pérez", "Sánchez",
    "Ramírez", "Torres", "Díaz", "Vargas", "Moreno", "Rojas", "Jiménez", "Muñoz", "Castro",
    "Ortiz", "Suárez", "Romero", "Quintero", "Cárdenas", "Ospina", "Beltrán", "Guzmán", "Peña",
]  # fmt: skip

RESUMENES: dict[str, list[str]] = {
    "certificado-laboral": [
        "Certificado laboral con funciones para {destino}",
        "Certificado de tiempo de servicio para {destino}",
        "Certificado laboral con salario para {destino}",
        "Constancia de vinculación y cargo para {destino}",
    ],
    "solicitud-cdp": [
        "CDP para {objeto}",
        "Disponibilidad presupuestal para {objeto}",
        "Solicitud de CDP por adición al contrato de {objeto}",
    ],
    "mesa-de-ayuda": [
        "Error al {accion} en el módulo de {modulo}",
        "No es posible {accion} desde {modulo}",
        "Mejora: permitir {accion} en {modulo}",
        "Lentitud al {accion} en {modulo}",
    ],
    "derecho-de-peticion": [
        "Petición de información sobre {tema}",
        "Queja por {tema}",
        "Reclamo relacionado con {tema}",
        "Solicitud de copias sobre {tema}",
    ],
    "viaticos": [
        "Viáticos comisión a {ciudad} para {evento}",
        "Gastos de desplazamiento a {ciudad} por {evento}",
        "Legalización de viáticos del viaje a {ciudad}",
    ],
}
RELLENO: dict[str, list[str]] = {
    "destino": ["entidad bancaria", "trámite pensional", "licitación pública", "embajada",
                "caja de compensación", "crédito de vivienda", "universidad"],
    "objeto": ["mantenimiento de sedes", "servicios de aseo y cafetería", "licencias de software",
               "apoyo jurídico", "suministro de papelería", "transporte especial",
               "capacitación del personal", "interventoría de obra"],
    "accion": ["adjuntar soportes", "descargar reportes", "firmar documentos", "iniciar sesión",
               "exportar a Excel", "consultar el historial", "cambiar la contraseña"],
    "modulo": ["Presupuesto", "Solicitudes", "Calidad", "Firmas", "Bandeja de tareas", "Perfil"],
    "tema": ["el pago de cuentas de cobro", "la atención al ciudadano", "los horarios de atención",
             "un proceso de contratación", "la expedición de paz y salvo", "el archivo de gestión",
             "la publicación de resultados"],
    "ciudad": ["Medellín", "Cali", "Barranquilla", "Cartagena", "Bucaramanga", "Pereira",
               "Manizales", "Villavicencio", "Pasto", "Neiva"],
    "evento": ["la auditoría regional", "el comité técnico", "la mesa interinstitucional",
               "la capacitación en contratación", "la visita de seguimiento"],
}  # fmt: skip
COMENTARIOS = [
    "Adjunto el soporte que faltaba.",
    "Se revisó la documentación; continúa el trámite.",
    "¿Podrían confirmar la fecha estimada de respuesta?",
    "Se solicitó concepto al área responsable.",
    "Queda pendiente la firma del ordenador del gasto.",
]

# (estado, peso) for requests of the last 45 days, and for older ones (mostly finished).
RECIENTES = [
    (Estado.RADICADO, 25), (Estado.EN_TRAMITE, 35), (Estado.DEVUELTO, 8),
    (Estado.REQUIERE_ATENCION, 5), (Estado.APROBADO, 15), (Estado.RECHAZADO, 4),
    (Estado.ANULADO, 3), (Estado.BORRADOR, 5),
]  # fmt: skip
ANTIGUAS = [
    (Estado.APROBADO, 75), (Estado.RECHAZADO, 12), (Estado.ANULADO, 7), (Estado.BORRADOR, 1),
    (Estado.EN_TRAMITE, 2), (Estado.REQUIERE_ATENCION, 1), (Estado.DEVUELTO, 1),
    (Estado.RADICADO, 1),
]  # fmt: skip
PESOS_TIPO = {
    "certificado-laboral": 25,
    "solicitud-cdp": 20,
    "mesa-de-ayuda": 20,
    "derecho-de-peticion": 20,
    "viaticos": 15,
}
CIERRE = {
    Estado.APROBADO: (Accion.APROBADA, "Aprobada al completar la última etapa."),
    Estado.RECHAZADO: (Accion.RECHAZADA, "Rechazada: no cumple los requisitos."),
    Estado.ANULADO: (Accion.ANULADA, "Anulada a petición del solicitante."),
}


def _pool(rng: random.Random, cantidad: int) -> tuple[list[int], dict[int, list[int]]]:
    """Synthetic staff (`func00001`…): every one may file and holds one workflow role."""
    roles = {g.name: g for g in Group.objects.filter(name__in=[*ROLES_FLUJO, "Radicación"])}
    existentes = set(
        User.objects.filter(username__startswith=PREFIJO_POOL).values_list("username", flat=True)
    )
    clave = make_password(None)  # unusable: these people never sign in
    nuevos = []
    for n in range(1, cantidad + 1):
        username = f"{PREFIJO_POOL}{n:05d}"
        if username in existentes:
            continue
        nuevos.append(
            User(
                username=username,
                first_name=rng.choice(NOMBRES),
                last_name=f"{rng.choice(APELLIDOS)} {rng.choice(APELLIDOS)}",
                email=f"{username}@entidad.gov.co",
                password=clave,
                cargo="Servidor público",
            )
        )
    User.objects.bulk_create(nuevos, batch_size=1000)
    usuarios = list(
        User.objects.filter(username__startswith=PREFIJO_POOL)
        .order_by("username")
        .values_list("pk", "username")
    )
    areas = list(Area.objects.values_list("pk", flat=True))
    por_rol: dict[int, list[int]] = defaultdict(list)
    grupos, en_areas = [], []
    for pk, username in usuarios:
        n = int(username[len(PREFIJO_POOL) :])
        rol = roles.get(ROLES_FLUJO[n % len(ROLES_FLUJO)])
        for grupo in (rol, roles.get("Radicación")):
            if grupo is not None:
                grupos.append(User.groups.through(user_id=pk, group_id=grupo.pk))
        if rol is not None:
            por_rol[rol.pk].append(pk)
        if areas:
            en_areas.append(User.areas.through(user_id=pk, area_id=areas[n % len(areas)]))
    User.groups.through.objects.bulk_create(grupos, batch_size=2000, ignore_conflicts=True)
    User.areas.through.objects.bulk_create(en_areas, batch_size=2000, ignore_conflicts=True)
    return [pk for pk, _ in usuarios], por_rol


def _resumen(rng: random.Random, codigo: str) -> str:
    plantilla = rng.choice(RESUMENES.get(codigo, ["Solicitud sobre {tema}"]))
    valores = {k: rng.choice(v) for k, v in RELLENO.items()}
    return plantilla.format(**valores)


def _elegir(rng: random.Random, opciones: list[tuple[str, int]]) -> str:
    return rng.choices([o for o, _ in opciones], weights=[p for _, p in opciones])[0]


class _Lote:
    """One batch: requests first (to get their ids), then tasks, events and comments."""

    def __init__(self, rng, tipos, etapas, pool, por_rol, ahora):
        self.rng, self.tipos, self.etapas = rng, tipos, etapas
        self.pool, self.por_rol, self.ahora = pool, por_rol, ahora
        self.pesos = [PESOS_TIPO.get(t.codigo, 10) for t in tipos]

    def _alguien_de(self, rol_id: int) -> int:
        return self.rng.choice(self.por_rol.get(rol_id) or self.pool)

    def construir(self, fechas: list[datetime]) -> None:
        rng = self.rng
        filas: list[tuple[Solicitud, list[Etapa], datetime]] = []
        for fecha in fechas:
            tipo = rng.choices(self.tipos, weights=self.pesos)[0]
            etapas = self.etapas[tipo.pk]
            reciente = (self.ahora - fecha).days <= 45
            estado = _elegir(rng, RECIENTES if reciente else ANTIGUAS)
            s = Solicitud(tipo=tipo, area_id=tipo.area_id, estado=estado, creada_en=fecha)
            s.resumen = _resumen(rng, tipo.codigo)
            if tipo.es_mesa_ayuda or rng.random() < 0.85:
                s.solicitante_id = rng.choice(self.pool)
            else:
                nombre, apellido = rng.choice(NOMBRES), rng.choice(APELLIDOS)
                s.nombre_solicitante = f"{nombre} {apellido} {rng.choice(APELLIDOS)}"
                usuario = normalizar(f"{nombre}.{apellido}").replace(" ", "")
                s.correo_solicitante = f"{usuario}{rng.randint(1, 99)}@correo.com"
            if estado != Estado.BORRADOR:
                s.fecha_radicacion = fecha
            horas = rng.randint(1, 24 * 20 if estado in CIERRE else 24 * 5)
            s.fecha_actualizacion = min(fecha + timedelta(hours=horas), self.ahora)
            if estado in CIERRE:
                s.fecha_cierre = s.fecha_actualizacion
            elif estado == Estado.RADICADO:
                s.etapa_actual = etapas[0]
            elif estado != Estado.BORRADOR:
                s.etapa_actual = etapas[rng.randint(1, len(etapas) - 1) if len(etapas) > 1 else 0]
            if s.etapa_actual is not None and estado != Estado.DEVUELTO:
                s.rol_responsable_id = s.etapa_actual.rol_id
            filas.append((s, etapas, fecha))
        self._numerar([s for s, _, _ in filas])
        for s, _, _ in filas:
            s.preparar_busqueda()
        Solicitud.objects.bulk_create([s for s, _, _ in filas], batch_size=1000)
        self._dependientes(filas)

    def _numerar(self, solicitudes: list[Solicitud]) -> None:
        grupos: dict[tuple[str, int], list[Solicitud]] = defaultdict(list)
        for s in solicitudes:
            if s.estado != Estado.BORRADOR:
                anio = timezone.localtime(s.fecha_radicacion).year
                grupos[(s.tipo.prefijo, anio)].append(s)
        for (prefijo, anio), del_grupo in sorted(grupos.items()):
            primero = Consecutivo.reservar(prefijo, anio, len(del_grupo))
            for i, s in enumerate(del_grupo):
                s.numero_radicado = formatear_numero(prefijo, anio, primero + i)

    def _dependientes(self, filas) -> None:
        rng = self.rng
        tareas: list[Tarea] = []
        eventos: list[Evento] = []
        comentarios: list[Comentario] = []
        for s, etapas, fecha in filas:
            if s.estado == Estado.BORRADOR:
                eventos.append(
                    Evento(
                        solicitud_id=s.pk,
                        actor_id=s.solicitante_id,
                        creado_en=fecha,
                        accion=Accion.BORRADOR,
                        descripcion="Guardada como borrador.",
                    )
                )
                continue
            eventos.append(
                Evento(
                    solicitud_id=s.pk,
                    actor_id=s.solicitante_id,
                    creado_en=fecha,
                    accion=Accion.RADICADA,
                    descripcion=f"Radicada como {s.numero_radicado}. Pasa a «{etapas[0].nombre}».",
                    etapa_destino=etapas[0],
                )
            )
            cuando = s.fecha_actualizacion
            etapa = s.etapa_actual
            if s.estado in CIERRE:
                ultima = etapas[-1]
                accion, texto = CIERRE[s.estado]
                actor = s.solicitante_id if s.estado == Estado.ANULADO else None
                eventos.append(
                    Evento(
                        solicitud_id=s.pk,
                        actor_id=actor or self._alguien_de(ultima.rol_id),
                        creado_en=cuando,
                        accion=accion,
                        descripcion=texto,
                        etapa_origen=ultima,
                    )
                )
            elif s.estado == Estado.DEVUELTO:
                eventos.append(
                    Evento(
                        solicitud_id=s.pk,
                        actor_id=self._alguien_de(etapa.rol_id),
                        creado_en=cuando,
                        accion=Accion.DEVUELTA,
                        descripcion="Devuelta al solicitante. Motivo: faltan soportes.",
                        etapa_origen=etapa,
                    )
                )
                tareas.append(
                    Tarea(
                        solicitud_id=s.pk,
                        etapa=etapa,
                        rol_id=None if s.solicitante_id else etapa.rol_id,
                        asignada_a_id=s.solicitante_id,
                        es_correccion=True,
                        instrucciones="Adjunte los soportes que faltan.",
                        recibida_en=cuando,
                        vence_en=cuando + timedelta(hours=PLAZO_CORRECCION_HORAS),
                    )
                )
            else:
                if etapa.orden > 1:
                    anterior = etapas[etapa.orden - 2]
                    eventos.append(
                        Evento(
                            solicitud_id=s.pk,
                            actor_id=self._alguien_de(anterior.rol_id),
                            creado_en=cuando,
                            accion=Accion.AVANZADA,
                            descripcion=f"Completó «{anterior.nombre}»; pasa a «{etapa.nombre}».",
                            etapa_origen=anterior,
                            etapa_destino=etapa,
                        )
                    )
                if s.estado == Estado.REQUIERE_ATENCION:
                    eventos.append(
                        Evento(
                            solicitud_id=s.pk,
                            actor_id=self._alguien_de(etapa.rol_id),
                            creado_en=cuando,
                            accion=Accion.ATENCION,
                            descripcion="Marcada para atención: requiere concepto jurídico.",
                            etapa_origen=etapa,
                        )
                    )
                asignada = self._alguien_de(etapa.rol_id) if rng.random() < 0.6 else None
                tareas.append(
                    Tarea(
                        solicitud_id=s.pk,
                        etapa=etapa,
                        rol_id=etapa.rol_id,
                        asignada_a_id=asignada,
                        requiere_firma=etapa.requiere_firma,
                        recibida_en=cuando,
                        vence_en=cuando + timedelta(hours=etapa.plazo_horas),
                    )
                )
            if rng.random() < 0.08:
                autor = s.solicitante_id or self._alguien_de(etapas[0].rol_id)
                comentarios.append(
                    Comentario(
                        solicitud_id=s.pk,
                        autor_id=autor,
                        creado_en=cuando,
                        texto=rng.choice(COMENTARIOS),
                    )
                )
        Tarea.objects.bulk_create(tareas, batch_size=2000)
        Evento.objects.bulk_create(eventos, batch_size=2000)
        Comentario.objects.bulk_create(comentarios, batch_size=2000)


def cargar_masivo(ctx: ContextoDemo, objetivo: int) -> int:
    """Top the number of requests up to `objetivo`; returns how many were created."""
    existentes = Solicitud.objects.count()
    faltan = objetivo - existentes
    if faltan <= 0:
        return 0
    rng = random.Random(20260101 + existentes)  # noqa: S311 - demo data, not secrets
    tipos = list(TipoSolicitud.objects.activos().filter(etapas__isnull=False).distinct())
    etapas: dict[int, list[Etapa]] = defaultdict(list)
    for etapa in Etapa.objects.filter(tipo__in=tipos).order_by("tipo_id", "orden"):
        etapas[etapa.tipo_id].append(etapa)
    if not tipos:
        return 0
    with transaction.atomic():
        pool, por_rol = _pool(rng, min(5000, max(40, 10 * ctx.escala)))
    ahora = timezone.now() - timedelta(hours=1)
    inicio = timezone.make_aware(datetime(ahora.year - 2, 1, 1))
    paso = (ahora - inicio) / faltan
    lote = _Lote(rng, tipos, etapas, pool, por_rol, ahora)
    for desde in range(0, faltan, LOTE):
        hasta = min(desde + LOTE, faltan)
        # Chronological order: numbers grow with the filing date within each run.
        fechas = [inicio + paso * (i + rng.random()) for i in range(desde, hasta)]
        with transaction.atomic():
            lote.construir(fechas)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for modelo in (Solicitud, Tarea, Evento, Comentario):
                cursor.execute(f"ANALYZE {connection.ops.quote_name(modelo._meta.db_table)}")
    return faltan
