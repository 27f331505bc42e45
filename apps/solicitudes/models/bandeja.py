"""The inbox (tasks), the chat (comments) and the history (events) of a request."""

from __future__ import annotations

import operator
from datetime import datetime, timedelta
from functools import reduce

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models
from django.db.models import Q
from django.utils import timezone

# "Due soon" window of the interface (mis_tareas: por_vencer = due within 48 hours).
HORAS_POR_VENCER = 48

# The columns of a task line (mis_tareas), read as plain values (`para_linea`): what the line's
# rules below and its request, type, stage and role show.
COLUMNAS_LINEA = (
    "solicitud_id",
    "asignada_a_id",
    "es_correccion",
    "requiere_firma",
    "recibida_en",
    "vence_en",
    "completada_en",
    "etapa__nombre",
    "rol__name",
    "solicitud__numero_radicado",
    "solicitud__resumen",
    "solicitud__estado",
    "solicitud__tipo__nombre",
)

# The line's rules, on plain values: `Tarea`'s methods and mis_tareas' rows (`para_linea`) both
# apply them, so a task reads the same on the inbox page and in the tool (`COLUMNAS_LINEA`
# holds every value they take).


def nombre_rol_flujo(rol: str | None) -> str:
    """The workflow role's name; "Solicitante" for the filer's own correction (no role)."""
    return "Solicitante" if rol is None else rol


def asignada_a_usuario(asignada_a_id: int | None, usuario) -> bool:
    """Assigned to `usuario` in person (not in a role's common inbox)."""
    return usuario is not None and asignada_a_id is not None and asignada_a_id == usuario.pk


def es_correccion_de(es_correccion: bool, asignada_a_id: int | None, usuario) -> bool:
    """A correction asked of `usuario` in person (the filer's own)."""
    return es_correccion and asignada_a_usuario(asignada_a_id, usuario)


def vencida(vence_en: datetime, completada_en: datetime | None, ahora: datetime) -> bool:
    """Still pending and past its due time."""
    return completada_en is None and vence_en < ahora


def por_vencer(
    vence_en: datetime,
    completada_en: datetime | None,
    ahora: datetime,
    horas: int = HORAS_POR_VENCER,
) -> bool:
    """Still pending, not yet overdue, and due within `horas`."""
    return completada_en is None and ahora <= vence_en < ahora + timedelta(hours=horas)


def dias_pendiente(recibida_en: datetime, completada_en: datetime | None, ahora: datetime) -> int:
    """Whole days since the task arrived (until completion, if done)."""
    return max(0, ((completada_en or ahora) - recibida_en).days)


def ids_roles(usuario) -> list[int]:
    """The user's group ids, as a short literal list: it keeps the OR below index-friendly.

    Read once per user object (a request's, or the assistant's cached identity, which a change of
    the person's groups replaces).
    """
    ids = getattr(usuario, "_ids_roles", None)
    if ids is None:
        ids = usuario._ids_roles = list(usuario.groups.values_list("pk", flat=True))
    return ids


def usuario_valido(usuario) -> bool:
    """An authenticated, active person (anonymous and blocked users see and hold nothing)."""
    return bool(
        usuario is not None
        and getattr(usuario, "is_authenticated", False)
        and getattr(usuario, "is_active", False)
    )


class TareaQuerySet(models.QuerySet):
    """Reads of the inbox, chainable: `Tarea.objects.pendientes().bandeja_de(user).vencidas()`."""

    def pendientes(self) -> TareaQuerySet:
        return self.filter(completada_en__isnull=True)

    def completadas(self) -> TareaQuerySet:
        return self.filter(completada_en__isnull=False)

    def bandeja_de(self, usuario, alcance: str = "rol") -> TareaQuerySet:
        """Tasks assigned to `usuario` ("mias"), plus the common inbox of their roles ("rol")."""
        partes = self.partes_de_bandeja(usuario, alcance)
        return reduce(operator.or_, partes) if partes else self.none()

    def partes_de_bandeja(
        self, usuario, alcance: str = "rol", *, por_rol: bool = False
    ) -> list[TareaQuerySet]:
        """`bandeja_de` as its halves (assigned; the roles' common inbox), each served by its
        own partial index alone: an OR of the two makes PostgreSQL read every task's row.

        `por_rol`: the common inbox as one part per role, each a single range of its index
        (rol, vence_en) that is already in due order.
        """
        if not usuario_valido(usuario):
            return []
        if alcance not in ("rol", "mias"):
            raise ValueError(f"alcance desconocido: {alcance!r}")
        partes = [self.filter(asignada_a=usuario)]
        roles = ids_roles(usuario) if alcance == "rol" else []
        if not roles:
            return partes
        # The common inbox's condition built once: a part per role adds only its role.
        comun = self.filter(asignada_a__isnull=True)
        if por_rol:
            partes += [comun.filter(rol_id=rol) for rol in roles]
        else:
            partes.append(comun.filter(rol_id__in=roles))
        return partes

    def vencidas(self, ahora: datetime | None = None) -> TareaQuerySet:
        """Pending tasks past their due time."""
        return self.pendientes().filter(vence_en__lt=ahora or timezone.now())

    def por_vencer(
        self, ahora: datetime | None = None, horas: int = HORAS_POR_VENCER
    ) -> TareaQuerySet:
        """Pending tasks not yet overdue that fall due within `horas`."""
        ahora = ahora or timezone.now()
        return self.pendientes().filter(
            vence_en__gte=ahora, vence_en__lt=ahora + timedelta(hours=horas)
        )

    def correcciones(self) -> TareaQuerySet:
        return self.filter(es_correccion=True)

    def para_bandeja(self) -> TareaQuerySet:
        """Everything an inbox line shows, in one query, most urgent first."""
        return self.select_related(
            "solicitud", "solicitud__tipo", "etapa", "rol", "asignada_a"
        ).order_by("vence_en", "pk")

    def para_linea(self) -> TareaQuerySet:
        """What mis_tareas' line shows and no more, most urgent first, as rows of plain values
        (`COLUMNAS_LINEA`): five model objects per task cost a third more CPU than the row."""
        return self.order_by("vence_en", "pk").values(*COLUMNAS_LINEA)


class Tarea(models.Model):
    """A pending (or done) piece of work on a request, for a person or a role's common inbox."""

    solicitud = models.ForeignKey(
        "solicitudes.Solicitud", on_delete=models.CASCADE, related_name="tareas"
    )
    etapa = models.ForeignKey(
        "solicitudes.Etapa",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tareas",
    )
    rol = models.ForeignKey(
        Group,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tareas_solicitudes",
        help_text="Rol del flujo; vacío en la corrección que hace el propio solicitante.",
    )
    asignada_a = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tareas_solicitudes",
        help_text="Vacío: la tarea está en la bandeja común del rol.",
    )
    requiere_firma = models.BooleanField(default=False)
    es_correccion = models.BooleanField(
        "es corrección", default=False, help_text="Corrección pedida al solicitante."
    )
    instrucciones = models.TextField(blank=True, help_text="Qué se pide (p. ej. el motivo).")
    recibida_en = models.DateTimeField("recibida", default=timezone.now)
    vence_en = models.DateTimeField("vence")
    completada_en = models.DateTimeField("completada", null=True, blank=True)
    completada_por = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )

    objects = TareaQuerySet.as_manager()

    class Meta:
        ordering = ["vence_en", "pk"]
        verbose_name = "tarea"
        verbose_name_plural = "tareas"
        indexes = [
            # The two halves of an inbox (assigned / role's common inbox), pending only.
            # The id rides along (PostgreSQL): counts and the most urgent page are read from
            # the index alone.
            models.Index(
                fields=["asignada_a", "vence_en"],
                include=["id"],
                condition=Q(completada_en__isnull=True),
                name="sol_tarea_pend_asignada",
            ),
            models.Index(
                fields=["rol", "vence_en"],
                include=["id"],
                condition=Q(completada_en__isnull=True, asignada_a__isnull=True),
                name="sol_tarea_pend_comun",
            ),
        ]

    def __str__(self) -> str:
        # No id prefix: the task is shown on its request's page, which names the request.
        destino = self.asignada_a or self.rol or "solicitante"
        return f"{self.etapa or 'corrección'} · {destino}"

    @property
    def pendiente(self) -> bool:
        return self.completada_en is None

    @property
    def rol_flujo(self) -> str:
        """The workflow role's name; "Solicitante" for the filer's own correction."""
        return nombre_rol_flujo(self.rol.name if self.rol_id is not None else None)

    def asignada_a_usuario(self, usuario) -> bool:
        return asignada_a_usuario(self.asignada_a_id, usuario)

    def es_correccion_de(self, usuario) -> bool:
        return es_correccion_de(self.es_correccion, self.asignada_a_id, usuario)

    def vencida_en(self, ahora: datetime | None = None) -> bool:
        return vencida(self.vence_en, self.completada_en, ahora or timezone.now())

    def por_vencer_en(self, ahora: datetime | None = None, horas: int = HORAS_POR_VENCER) -> bool:
        return por_vencer(self.vence_en, self.completada_en, ahora or timezone.now(), horas)

    def dias_pendiente(self, ahora: datetime | None = None) -> int:
        """Whole days since the task arrived (until completion, if done)."""
        return dias_pendiente(self.recibida_en, self.completada_en, ahora or timezone.now())


class Comentario(models.Model):
    """A message in the request's chat, visible to its participants."""

    # Indexed by (solicitud, creado_en) below.
    solicitud = models.ForeignKey(
        "solicitudes.Solicitud",
        on_delete=models.CASCADE,
        related_name="comentarios",
        db_index=False,
    )
    autor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="comentarios_solicitudes"
    )
    creado_en = models.DateTimeField("creado", default=timezone.now)
    texto = models.TextField()
    # The form's single-use marker: the same form sent twice stores one comment (NULLs differ).
    nonce = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)

    class Meta:
        ordering = ["creado_en", "pk"]
        verbose_name = "comentario"
        verbose_name_plural = "comentarios"
        indexes = [models.Index(fields=["solicitud", "creado_en"], name="sol_coment_sol_fecha")]

    def __str__(self) -> str:
        return f"{self.autor} · {timezone.localtime(self.creado_en):%d/%m/%Y %H:%M}"


class Accion(models.TextChoices):
    """What happened to a request (one event per transition or assignment)."""

    BORRADOR = "borrador", "Guardada como borrador"
    RADICADA = "radicada", "Radicada"
    ASIGNADA = "asignada", "Tarea asignada"
    AVANZADA = "avanzada", "Avanzó de etapa"
    FIRMADA = "firmada", "Firmada"
    DEVUELTA = "devuelta", "Devuelta al solicitante"
    CORREGIDA = "corregida", "Corregida por el solicitante"
    APROBADA = "aprobada", "Aprobada"
    RECHAZADA = "rechazada", "Rechazada"
    ANULADA = "anulada", "Anulada"
    ATENCION = "atencion", "Marcada para atención"
    REANUDADA = "reanudada", "Reanudada"


class Evento(models.Model):
    """One line of a request's history: who did what, and between which stages."""

    # Indexed by (solicitud, creado_en) below.
    solicitud = models.ForeignKey(
        "solicitudes.Solicitud", on_delete=models.CASCADE, related_name="eventos", db_index=False
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="eventos_solicitudes",
        help_text="Vacío: lo hizo el sistema o un canal externo.",
    )
    creado_en = models.DateTimeField("fecha", default=timezone.now)
    accion = models.CharField("acción", max_length=20, choices=Accion.choices)
    descripcion = models.TextField("descripción", blank=True)
    # No index of their own: history is read per request, never by stage.
    etapa_origen = models.ForeignKey(
        "solicitudes.Etapa",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    etapa_destino = models.ForeignKey(
        "solicitudes.Etapa",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )

    class Meta:
        ordering = ["creado_en", "pk"]
        verbose_name = "evento"
        verbose_name_plural = "historial"
        indexes = [models.Index(fields=["solicitud", "creado_en"], name="sol_evento_sol_fecha")]

    def __str__(self) -> str:
        # Local time, as the rows beside it (the database holds UTC).
        return f"{self.get_accion_display()} · {timezone.localtime(self.creado_en):%d/%m/%Y %H:%M}"
