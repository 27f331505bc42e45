"""Read queries of the requests domain (the visibility rule lives in the QuerySets)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Value, Window
from django.utils import timezone

from apps.solicitudes.models import (
    HORAS_POR_VENCER,
    CampoFormulario,
    Comentario,
    Etapa,
    Evento,
    Solicitud,
    Tarea,
    TipoSolicitud,
)
from hub.lecturas import admite_lateral, filas_de_pagina


def puede_ver(usuario, solicitud: Solicitud) -> bool:
    """Whether `usuario` may see this request (one query; none for ver_todas holders)."""
    return Solicitud.objects.visibles_para(usuario).filter(pk=solicitud.pk).exists()


# What estado_solicitud shows. Every joined table costs planning time even when unused: with the
# filer and the area as well (seven tables), PostgreSQL spent ~3 ms planning a 0.1 ms lookup.
RELACIONES_ESTADO = ("tipo", "etapa_actual", "rol_responsable", "padre")
# resumen_solicitud (and comentar_solicitud) never read the responsible role's row.
RELACIONES_RESUMEN = ("tipo", "etapa_actual", "padre", "solicitante", "area")


def solicitud_visible(
    usuario, numero_radicado: str, relaciones: tuple[str, ...] = RELACIONES_RESUMEN
) -> Solicitud | None:
    """The request with this exact number if `usuario` may see it, with `relaciones` joined
    and its children's numbers loaded (`radicados_hijos`).

    The number is unique, so no ORDER BY: `first()` would sort by the model's ordering, whose
    expression took a third of the Python cost of building this query. The children's numbers
    come from one flat query rather than a prefetch (the same SQL, without its machinery).
    """
    consulta = (
        Solicitud.objects.visibles_para(usuario)
        .por_numero(numero_radicado)
        .select_related(*relaciones)
        .order_by()[:1]
    )
    solicitud = next(iter(consulta), None)
    if solicitud is not None:
        solicitud.cargar_hijos()
    return solicitud


def solicitud_publica(numero_radicado: str, correo_solicitante: str) -> Solicitud | None:
    """Without a user: the request only if the e-mail is its filer's (else None, same as absent)."""
    return (
        Solicitud.objects.radicadas()
        .por_numero(numero_radicado)
        .con_correo_solicitante(correo_solicitante)
        .select_related("tipo", "etapa_actual")
        .first()
    )


def campos_publicos(solicitud: Solicitud) -> list[dict[str, str]]:
    """Filed form fields safe to show: never identity documents or contact data."""
    return [
        {"nombre": c.nombre, "etiqueta": c.etiqueta, "valor": c.valor}
        for c in CampoFormulario.objects.publicos().filter(solicitud_id=solicitud.pk)
    ]


def participantes(solicitud: Solicitud) -> QuerySet:
    """People taking part: the filer, task holders, commenters and everyone in the history."""
    User = get_user_model()
    sid = solicitud.pk
    return User.objects.filter(
        Q(pk=solicitud.solicitante_id)
        | Exists(Tarea.objects.filter(solicitud_id=sid, asignada_a=OuterRef("pk")))
        | Exists(Comentario.objects.filter(solicitud_id=sid, autor=OuterRef("pk")))
        | Exists(Evento.objects.filter(solicitud_id=sid, actor=OuterRef("pk")))
    ).order_by("first_name", "last_name", "username")


def tarea_actual(solicitud: Solicitud) -> Tarea | None:
    """The pending task that holds the request now (stage task, or the filer's correction)."""
    return (
        Tarea.objects.pendientes()
        .filter(solicitud_id=solicitud.pk)
        .select_related("etapa", "rol", "asignada_a")
        .order_by("recibida_en", "pk")
        .first()
    )


def tareas_de(solicitud: Solicitud, limite: int = 50) -> list[Tarea]:
    """The request's tasks, done and pending, oldest first (its history of who had it)."""
    return list(
        Tarea.objects.filter(solicitud_id=solicitud.pk)
        .select_related("etapa", "rol", "asignada_a", "completada_por")
        .order_by("recibida_en", "pk")[:limite]
    )


def progreso(solicitud: Solicitud) -> dict[str, Any]:
    """Where the request is in its workflow: current stage order, completed and total stages."""
    # Unordered: the model's ordering ("tipo", "orden") would join the type only to sort by it.
    etapas = list(
        Etapa.objects.filter(tipo_id=solicitud.tipo_id).order_by().values_list("orden", flat=True)
    )
    total = len(etapas)
    if solicitud.estado == "aprobado":
        completadas = total
    elif solicitud.etapa_actual_id is not None:
        actual = solicitud.etapa_actual.orden
        completadas = sum(1 for orden in etapas if orden < actual)
    else:
        completadas = 0
    return {
        "etapa_orden": solicitud.etapa_actual.orden if solicitud.etapa_actual_id else None,
        "etapas_completadas": completadas,
        "total_etapas": total,
    }


def _ultimos(consulta: QuerySet, limite: int) -> list[Any]:
    """The latest `limite` rows of a request's events or messages, oldest first."""
    return list(consulta.order_by("-creado_en", "-pk")[:limite])[::-1]


def historial(solicitud: Solicitud, limite: int = 10) -> list[Evento]:
    """The latest `limite` events, oldest first."""
    eventos = Evento.objects.filter(solicitud_id=solicitud.pk)
    return _ultimos(eventos.select_related("actor", "etapa_origen", "etapa_destino"), limite)


def historial_y_total(solicitud: Solicitud, limite: int = 10) -> tuple[list[Evento], int]:
    """`historial` with its actors (not its stages: resumen_solicitud shows none) and how many
    events the request has in all, in one query: the count is a window over the request's
    events (read anyway from its index), computed before the limit."""
    eventos = Evento.objects.filter(solicitud_id=solicitud.pk).select_related("actor")
    ultimos = _ultimos(eventos.annotate(total_eventos=Window(Count("pk"))), limite)
    return ultimos, (ultimos[0].total_eventos if ultimos else 0)


def ultimos_comentarios(solicitud: Solicitud, limite: int = 5) -> list[Comentario]:
    """The latest `limite` chat messages, oldest first."""
    mensajes = Comentario.objects.filter(solicitud_id=solicitud.pk).select_related("autor")
    return _ultimos(mensajes, limite)


# Up to this many pending tasks, an inbox page is read in its two halves, not a part per role:
# PostgreSQL sorts them from the index in well under a millisecond, while each role's part
# costs Django about 0.45 ms to build and compile (issue 42, docs/rendimiento.md).
BANDEJA_PEQUENA = 1000


def bandeja(
    usuario,
    alcance: str = "rol",
    *,
    solo_vencidas: bool = False,
    ahora: datetime | None = None,
    limite: int = 20,
    desde: int = 0,
    total: int | None = None,
) -> list[Tarea]:
    """The `limite` most urgent pending tasks of the inbox after the first `desde` (a page),
    with everything a line of the inbox page shows (`para_bandeja`).
    `total`: the inbox's size, when the caller has counted it (`contar_bandeja`)."""
    pagina = _pagina(
        usuario,
        alcance,
        solo_vencidas=solo_vencidas,
        ahora=ahora,
        limite=limite,
        desde=desde,
        total=total,
    )
    ids = [pk for pk, _ in pagina] if pagina is not None else []
    return list(Tarea.objects.filter(pk__in=ids).para_bandeja()) if ids else []


def lineas_de_bandeja(
    usuario,
    alcance: str = "rol",
    *,
    solo_vencidas: bool = False,
    ahora: datetime | None = None,
    limite: int = 20,
    total: int | None = None,
) -> list[dict[str, Any]]:
    """`bandeja`'s first page as mis_tareas' lines: rows of `COLUMNAS_LINEA` (`para_linea`).

    On PostgreSQL the page's ids and their rows are one statement (`hub.lecturas`): each id's
    row read by primary key in a lateral join. Elsewhere two queries, as `bandeja` reads.
    """
    pagina = _pagina(
        usuario, alcance, solo_vencidas=solo_vencidas, ahora=ahora, limite=limite, total=total
    )
    if pagina is None:
        return []
    filas = Tarea.objects.all().para_linea()
    if admite_lateral(pagina):
        return filas_de_pagina(pagina, filas)
    ids = [pk for pk, _ in pagina]
    return list(filas.filter(pk__in=ids)) if ids else []


def _pagina(
    usuario,
    alcance: str,
    *,
    solo_vencidas: bool,
    ahora: datetime | None,
    limite: int,
    desde: int = 0,
    total: int | None,
) -> QuerySet | None:
    """An inbox page, most urgent first, as (id, vence_en) from the task table alone (a
    queryset, unevaluated); None for a person who holds no tasks (anonymous or inactive).

    The rows of these ids come in a second step (`bandeja`, `lineas_de_bandeja`): joining the
    request, type, stage and role before limiting would make PostgreSQL join every task of a
    busy common inbox, and with the ids as `pk IN (subquery)` of the rows' statement it read
    the whole task table for a person with a busy inbox (measured at 100,000 requests: 6.1 ms
    against 3.8 ms).

    Where the database allows a limit inside a union (PostgreSQL; not SQLite), each part (the
    assigned tasks, then each role's common inbox) gives only its own first `limite` rows,
    read in order from its index: the union then sorts a few rows, not the whole common inbox.
    The columns and the order are set once, before the parts are split: a part per role then
    costs one filter and one slice to build, not five copies of the query. An inbox of at most
    `BANDEJA_PEQUENA` tasks (`total`) keeps its two halves: PostgreSQL sorts that few in less
    time than Django takes to build a part per role.
    """
    orden = ("vence_en", "id")
    por_partes = connections[Tarea.objects.db].features.supports_slicing_ordering_in_compound
    por_rol = por_partes and (total is None or total > BANDEJA_PEQUENA)
    base = Tarea.objects.pendientes()
    if solo_vencidas:
        base = base.vencidas(ahora)
    # SQLite takes no ORDER BY inside a union's parts: there only the union is ordered.
    base = base.values_list("id", "vence_en").order_by(*(orden if por_partes else ()))
    partes = base.partes_de_bandeja(usuario, alcance, por_rol=por_rol)
    if not partes:
        return None
    if len(partes) == 1:
        consulta = partes[0].order_by(*orden)
    else:
        if por_partes:
            partes = [p[: desde + limite] for p in partes]
        consulta = partes[0].union(*partes[1:], all=True).order_by(*orden)
    return consulta[desde : desde + limite]


class BandejaPaginable:
    """The whole inbox for Django's Paginator: `count` is `contar_bandeja`'s total, a slice is
    one `bandeja` page (never the whole inbox in memory)."""

    def __init__(self, usuario, alcance: str = "rol", *, ahora: datetime | None = None):
        self.usuario, self.alcance, self.ahora = usuario, alcance, ahora or timezone.now()
        self.cuentas = contar_bandeja(usuario, alcance, ahora=self.ahora)

    def count(self) -> int:
        return self.cuentas["total"]

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, tramo: slice) -> list[Tarea]:
        desde = tramo.start or 0
        hasta = self.count() if tramo.stop is None else tramo.stop
        if hasta <= desde:
            return []
        return bandeja(
            self.usuario,
            self.alcance,
            ahora=self.ahora,
            limite=hasta - desde,
            desde=desde,
            total=self.count(),
        )


def contar_bandeja(
    usuario, alcance: str = "rol", *, ahora: datetime | None = None
) -> dict[str, int]:
    """Totals of the inbox (total, overdue, due within 48 hours) in one statement: each half
    counted from its own partial index, the halves' rows joined by UNION ALL and added here."""
    ahora = ahora or timezone.now()
    limite = ahora + timedelta(hours=HORAS_POR_VENCER)
    claves = ("total", "vencidas", "por_vencer")
    # Grouped by a constant, which Django leaves out of GROUP BY: one aggregate row per half,
    # as aggregate() gives, but still a queryset that a union can take.
    base = (
        Tarea.objects.pendientes()
        .order_by()
        .annotate(fila=Value(1))
        .values("fila")
        .annotate(
            total=Count("vence_en"),
            vencidas=Count("vence_en", filter=Q(vence_en__lt=ahora)),
            por_vencer=Count("vence_en", filter=Q(vence_en__gte=ahora, vence_en__lt=limite)),
        )
        .values_list(*claves)
    )
    partes = base.partes_de_bandeja(usuario, alcance)
    if not partes:
        return dict.fromkeys(claves, 0)
    filas = partes[0].union(*partes[1:], all=True) if len(partes) > 1 else partes[0]
    cuentas = dict.fromkeys(claves, 0)
    for fila in filas:
        for clave, n in zip(claves, fila, strict=True):
            cuentas[clave] += n
    return cuentas


def total_bandeja(usuario) -> int:
    """How many tasks the person's inbox holds (the menu's "Mis tareas (N)"): one query, the
    halves of the inbox counted together (UNION ALL: a task is in one half only)."""
    partes = [
        p.order_by().values("pk") for p in Tarea.objects.pendientes().partes_de_bandeja(usuario)
    ]
    if not partes:
        return 0
    if len(partes) == 1:
        return partes[0].count()
    return partes[0].union(*partes[1:], all=True).count()


def tipo_mesa_ayuda() -> TipoSolicitud | None:
    """The active help-desk request type, if one is configured."""
    return TipoSolicitud.objects.mesa_ayuda().first()


def aplicar_criterios(qs: QuerySet, datos: dict[str, Any]) -> QuerySet:
    """The optional type, state and date arguments the searches take, applied to `qs`."""
    return qs.con_criterios(
        tipo=datos.get("tipo"),
        estado=datos.get("estado"),
        desde=datos.get("desde"),
        hasta=datos.get("hasta"),
    )


def solicitudes_filtradas(usuario, datos: dict[str, Any]) -> QuerySet:
    """buscar_solicitudes' requests (and the list page's): the arguments as its serializer
    validated them (`alcance`, and optionally `texto`, type, state and dates), unordered.

    alcance=todas is only for holders of solicitudes.ver_todas: the caller checks it first.
    """
    if datos["alcance"] == "todas":
        # With ver_todas, visibles_para is everything filed (other people's drafts excluded).
        qs = Solicitud.objects.visibles_para(usuario)
    else:
        # The filer always sees what they filed: no need for the (costlier) visibility union.
        qs = Solicitud.objects.del_solicitante(usuario)
    if datos.get("texto"):
        qs = qs.buscar(datos["texto"])
    return aplicar_criterios(qs, datos)
