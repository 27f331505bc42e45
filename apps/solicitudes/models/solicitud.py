"""The request (radicado), its visibility rule, and the fields of its filed form."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from apps.solicitudes.models.bandeja import Comentario, Evento, Tarea, ids_roles, usuario_valido
from apps.solicitudes.models.flujo import Etapa, TipoSolicitud
from apps.solicitudes.models.indices import IndiceNulosAlFinal
from hub.busqueda.columnas import ConBusqueda, filtrar_texto


class Estado(models.TextChoices):
    """The eight states of the interface (transitions: docs/decisiones/solicitudes.md)."""

    BORRADOR = "borrador", "Borrador"
    RADICADO = "radicado", "Radicado"
    EN_TRAMITE = "en_tramite", "En trámite"
    APROBADO = "aprobado", "Aprobado"
    RECHAZADO = "rechazado", "Rechazado"
    DEVUELTO = "devuelto", "Devuelto"
    ANULADO = "anulado", "Anulado"
    REQUIERE_ATENCION = "requiere_atencion", "Requiere atención"


# Filed and not finished: someone still has to act.
ESTADOS_ABIERTOS = frozenset(
    {Estado.RADICADO, Estado.EN_TRAMITE, Estado.DEVUELTO, Estado.REQUIERE_ATENCION}
)
ESTADOS_CERRADOS = frozenset({Estado.APROBADO, Estado.RECHAZADO, Estado.ANULADO})


# Newest filing first; drafts (no filing date) last, the same on PostgreSQL and SQLite.
RECIENTES = F("fecha_radicacion").desc(nulls_last=True)


def enlace_de(pk: int) -> str:
    """Relative path of a request's screen (`Solicitud.enlace`, for rows read without a model)."""
    return f"/solicitudes/{pk}"


def numero_visible_de(numero_radicado: str | None, pk: int) -> str:
    """`Solicitud.numero_visible` from the number and the pk (for rows read without a model)."""
    return numero_radicado or f"Borrador #{pk}"


def nombre_de_etapa(nombre: str | None, estado: str) -> str:
    """`Solicitud.nombre_etapa_actual` from the stage's name (None: no stage) and the state."""
    if nombre is not None:
        return nombre
    if estado == Estado.BORRADOR:
        return "Borrador (sin radicar)"
    if estado in ESTADOS_CERRADOS:
        return "Finalizada"
    return ""


def _inicio_del_dia(dia: date) -> datetime:
    return timezone.make_aware(datetime.combine(dia, time.min))


class SolicitudQuerySet(models.QuerySet):
    """Reads of requests; every listing starts from `visibles_para(user)`."""

    def visibles_para(self, usuario) -> SolicitudQuerySet:
        """What `usuario` may see: filed it, has or had a task, commented or acted on it.

        Holders of `solicitudes.ver_todas` see everything but other people's drafts; anonymous
        or inactive users see nothing.
        A task of the common inbox of one of the user's roles counts while it is pending (the
        person must be able to open what is in their inbox); once someone completes it, only
        that someone (through the history event) keeps the access.

        One `id IN (… UNION …)` over indexed columns instead of ORed EXISTS: PostgreSQL turns it
        into a semi-join driven by the (small) set of the user's ids, fast at a million rows.
        """
        if not usuario_valido(usuario):
            return self.none()
        if usuario.has_perm("solicitudes.ver_todas"):
            return self.radicadas_o_propias(usuario)
        fuentes = [
            Tarea.objects.filter(asignada_a=usuario).values("solicitud_id"),
            Comentario.objects.filter(autor=usuario).values("solicitud_id"),
            Evento.objects.filter(actor=usuario).values("solicitud_id"),
        ]
        # The role ids as literals (one tiny query): the planner then estimates the common
        # inbox from the partial index's statistics instead of guessing, and picks the plan
        # driven by this user's small set of requests.
        roles = ids_roles(usuario)
        if roles:
            fuentes.append(
                Tarea.objects.filter(
                    completada_en__isnull=True, asignada_a__isnull=True, rol_id__in=roles
                ).values("solicitud_id")
            )
        propias = Solicitud.objects.filter(solicitante=usuario).values("pk")
        ids = propias.order_by().union(*[f.order_by() for f in fuentes])
        return self.filter(pk__in=ids)

    def radicadas(self) -> SolicitudQuerySet:
        """Everything but drafts (drafts have no number yet)."""
        return self.exclude(estado=Estado.BORRADOR)

    def radicadas_o_propias(self, usuario) -> SolicitudQuerySet:
        """Everything filed, plus `usuario`'s own drafts: a draft stays private to its author
        (what `solicitudes.ver_todas` and the audit scope of busqueda_global see)."""
        return self.exclude(Q(estado=Estado.BORRADOR) & ~Q(solicitante=usuario))

    def pendientes(self) -> SolicitudQuerySet:
        """Filed and not finished: radicado, en_tramite, devuelto, requiere_atencion."""
        return self.filter(estado__in=ESTADOS_ABIERTOS)

    def cerradas(self) -> SolicitudQuerySet:
        return self.filter(estado__in=ESTADOS_CERRADOS)

    def con_estado(self, estado: str) -> SolicitudQuerySet:
        return self.filter(estado=estado)

    def del_solicitante(self, usuario) -> SolicitudQuerySet:
        """Filed by `usuario` (the `mias` scope of the tools)."""
        if usuario is None or usuario.pk is None:
            return self.none()
        return self.filter(solicitante=usuario)

    def del_tipo(self, texto: str) -> SolicitudQuerySet:
        """Of the types whose code is `texto` or whose name contains it (accent-insensitive)."""
        return self.filter(tipo__in=list(TipoSolicitud.objects.que_coinciden(texto)))

    def buscar(self, texto: str) -> SolicitudQuerySet:
        """Every word of `texto` in number, summary or type name (accent/case-insensitive)."""
        return filtrar_texto(self, texto)

    def por_numero(self, numero: str) -> SolicitudQuerySet:
        """The request with exactly this filing number (surrounding spaces and case ignored)."""
        numero = (numero or "").strip().upper()
        if not numero:
            return self.none()
        return self.filter(numero_radicado=numero)

    def con_correo_solicitante(self, correo: str) -> SolicitudQuerySet:
        """Filed by whoever has this e-mail: an outside person's, or the internal filer's."""
        correo = (correo or "").strip()
        if not correo:
            return self.none()
        return self.filter(
            Q(correo_solicitante__iexact=correo)
            | Q(solicitante__isnull=False, solicitante__email__iexact=correo)
        )

    def con_criterios(
        self,
        *,
        tipo: str | None = None,
        estado: str | None = None,
        desde: date | None = None,
        hasta: date | None = None,
    ) -> SolicitudQuerySet:
        """The search tools' optional filters (type, state, filing dates); empty ones apply none."""
        qs = self
        if tipo:
            qs = qs.del_tipo(tipo)
        if estado:
            qs = qs.con_estado(estado)
        if desde or hasta:
            qs = qs.radicadas_entre(desde, hasta)
        return qs

    def radicadas_entre(
        self, desde: date | None = None, hasta: date | None = None
    ) -> SolicitudQuerySet:
        """Filed between two local dates, both included (a range on the column: index-friendly);
        the calendar's edge days are served like any other."""
        qs = self
        if desde is not None:
            qs = qs.filter(fecha_radicacion__gte=_inicio_del_dia(desde))
        # The calendar's last day has no next one: "until then" is then no bound at all.
        if hasta is not None and hasta < date.max:
            qs = qs.filter(fecha_radicacion__lt=_inicio_del_dia(hasta + timedelta(days=1)))
        return qs

    def para_listado(self) -> SolicitudQuerySet:
        """What a list line shows, in one query; newest first."""
        return self.select_related(
            "tipo", "etapa_actual", "rol_responsable", "solicitante", "padre"
        ).order_by(RECIENTES, "-pk")

    def para_busqueda(self) -> SolicitudQuerySet:
        """What a search result shows (type and stage only), newest first.

        Narrower than `para_listado`: every joined table costs PostgreSQL planning time, even
        when nothing reads it.
        """
        return self.select_related("tipo", "etapa_actual").order_by(RECIENTES, "-pk")

    def con_hijos(self) -> SolicitudQuerySet:
        """Prefetch the children's numbers (for `radicados_hijos`) in one extra query."""
        return self.prefetch_related(
            models.Prefetch(
                "hijos",
                queryset=Solicitud.objects.only("pk", "numero_radicado", "padre_id").order_by("pk"),
            )
        )


class Solicitud(ConBusqueda):
    """A request filed by a person of the organization or by an outside person."""

    numero_radicado = models.CharField(
        "número de radicado",
        max_length=30,
        unique=True,
        null=True,
        blank=True,
        editable=False,
        help_text="PREFIJO-AÑO-NNNNNN; vacío mientras es borrador.",
    )
    tipo = models.ForeignKey(
        TipoSolicitud, on_delete=models.PROTECT, related_name="solicitudes", db_index=False
    )
    estado = models.CharField(max_length=20, choices=Estado.choices, default=Estado.BORRADOR)
    etapa_actual = models.ForeignKey(
        Etapa, on_delete=models.PROTECT, null=True, blank=True, related_name="solicitudes"
    )
    rol_responsable = models.ForeignKey(
        Group,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="solicitudes_a_cargo",
        help_text="El rol de la etapa actual; vacío si la tiene el solicitante o está cerrada.",
    )
    resumen = models.CharField(max_length=500)
    solicitante = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="solicitudes_radicadas",
        db_index=False,
        help_text="Vacío si radicó una persona externa (nombre y correo).",
    )
    nombre_solicitante = models.CharField(max_length=150, blank=True)
    correo_solicitante = models.EmailField(max_length=150, blank=True)
    area = models.ForeignKey(
        "cuentas.Area", on_delete=models.PROTECT, related_name="solicitudes", verbose_name="área"
    )
    padre = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hijos",
        verbose_name="solicitud padre",
    )
    creada_en = models.DateTimeField("creada", default=timezone.now, editable=False)
    fecha_radicacion = models.DateTimeField("fecha de radicación", null=True, blank=True)
    fecha_actualizacion = models.DateTimeField("última actualización", default=timezone.now)
    fecha_cierre = models.DateTimeField("fecha de cierre", null=True, blank=True)
    version = models.PositiveIntegerField(
        "versión",
        default=0,
        editable=False,
        help_text="Sube con cada cambio del trámite: un formulario dibujado con otra versión "
        "llega tarde y no actúa.",
    )

    objects = SolicitudQuerySet.as_manager()

    class Meta:
        ordering = [RECIENTES, "-pk"]
        verbose_name = "solicitud"
        verbose_name_plural = "solicitudes"
        permissions = [
            ("bandeja.ver", "Puede ver la bandeja de tareas de solicitudes"),
            ("radicar", "Puede radicar solicitudes y casos de mesa de ayuda"),
            ("ver_todas", "Puede ver todas las solicitudes"),
            ("auditoria.ver", "Puede auditar las solicitudes (búsqueda global de todas)"),
        ]
        indexes = [
            # Hot filters of the listings, each ending in the listing order (drafts, without a
            # filing date, last on every database).
            IndiceNulosAlFinal(F("solicitante"), RECIENTES, name="sol_sol_solicitante"),
            IndiceNulosAlFinal(F("tipo"), RECIENTES, name="sol_sol_tipo_fecha"),
            IndiceNulosAlFinal(F("estado"), RECIENTES, name="sol_sol_estado_fecha"),
            IndiceNulosAlFinal(RECIENTES, F("id").desc(), name="sol_sol_fecha"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(solicitante__isnull=False) | ~Q(correo_solicitante=""),
                name="solicitudes_con_solicitante_o_correo",
                violation_error_message="Indique el usuario solicitante o el correo del externo.",
            ),
            models.CheckConstraint(
                # Only drafts (and drafts discarded: annulled) lack a number.
                condition=Q(estado__in=["borrador", "anulado"]) | Q(numero_radicado__isnull=False),
                name="solicitudes_radicada_con_numero",
            ),
        ]

    def __str__(self) -> str:
        return self.numero_visible

    def texto_busqueda(self) -> str:
        return f"{self.numero_radicado or ''} {self.resumen} {self.tipo.nombre}"

    @property
    def numero_visible(self) -> str:
        """The filing number, or "Borrador #id" for a draft."""
        return numero_visible_de(self.numero_radicado, self.pk)

    @property
    def enlace(self) -> str:
        """Relative path of the request screen."""
        return enlace_de(self.pk)

    @property
    def es_externa(self) -> bool:
        """Filed by an outside person (no user of the hub)."""
        return self.solicitante_id is None

    @property
    def correo_verificacion(self) -> str:
        """The e-mail that proves authorship: the internal filer's, or the outside person's."""
        if self.solicitante_id is not None and self.solicitante.email:
            return self.solicitante.email
        return self.correo_solicitante

    @property
    def nombre_visible_solicitante(self) -> str:
        if self.solicitante_id is not None:
            return self.solicitante.nombre_visible
        return self.nombre_solicitante or self.correo_solicitante

    @property
    def nombre_etapa_actual(self) -> str:
        """The current stage's name; for a request without one, what stands in its place."""
        etapa = self.etapa_actual.nombre if self.etapa_actual_id is not None else None
        return nombre_de_etapa(etapa, self.estado)

    @property
    def nombre_rol_responsable(self) -> str:
        """Who must act now: the stage's role, "Solicitante" when returned, "" when closed."""
        if self.estado == Estado.DEVUELTO:
            return "Solicitante"
        if self.rol_responsable_id is not None:
            return self.rol_responsable.name
        return ""

    @property
    def radicado_padre(self) -> str | None:
        return self.padre.numero_radicado if self.padre_id is not None else None

    @property
    def radicados_hijos(self) -> list[str]:
        """Children's numbers (drafts left out); use `con_hijos()` (many rows) or
        `cargar_hijos()` (one) to avoid a query per read."""
        cargados = self.__dict__.get("_radicados_hijos")
        if cargados is not None:
            return list(cargados)
        return [h.numero_radicado for h in self.hijos.all() if h.numero_radicado]

    def cargar_hijos(self) -> None:
        """Load the children's numbers in one flat query, in `con_hijos()`' order (by id)."""
        numeros = (
            Solicitud.objects.filter(padre_id=self.pk)
            .order_by("pk")
            .values_list("numero_radicado", flat=True)
        )
        self._radicados_hijos = [n for n in numeros if n]


# Field names that hold identity documents or contact data (matched as whole words, a number
# after the word included: forms number repeated contacts, "telefono2").
_NOMBRES_SENSIBLES = re.compile(
    r"(^|_)(documento|cedula|identificacion|identidad|nit|pasaporte|tarjeta|telefono|celular|"
    r"movil|correo|email|e_mail|direccion|domicilio|contacto|cuenta|banco|firma)\d*(_|$)"
)
_PARECE_CORREO = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class CampoFormularioQuerySet(models.QuerySet):
    def publicos(self) -> CampoFormularioQuerySet:
        """Non-sensitive fields with some text (what summaries may show)."""
        return self.filter(sensible=False).exclude(valor="")


class CampoFormulario(models.Model):
    """One field of the form the request was filed with (label and value as filed)."""

    solicitud = models.ForeignKey(
        Solicitud, on_delete=models.CASCADE, related_name="campos", db_index=False
    )
    orden = models.PositiveSmallIntegerField(default=0)
    nombre = models.SlugField(max_length=60)
    etiqueta = models.CharField(max_length=150)
    valor = models.TextField(blank=True)
    sensible = models.BooleanField(
        default=False,
        help_text="Documento de identidad o dato de contacto: nunca sale en resúmenes.",
    )

    objects = CampoFormularioQuerySet.as_manager()

    class Meta:
        ordering = ["solicitud", "orden", "pk"]
        verbose_name = "campo del formulario"
        verbose_name_plural = "campos del formulario"
        constraints = [
            models.UniqueConstraint(
                fields=["solicitud", "nombre"], name="solicitudes_campo_unico_por_solicitud"
            )
        ]

    def __str__(self) -> str:
        return self.etiqueta

    @staticmethod
    def parece_sensible(nombre: str, valor: str) -> bool:
        """By its name (documento, telefono, correo…) or an e-mail-looking value."""
        return bool(_NOMBRES_SENSIBLES.search(nombre.lower())) or bool(
            _PARECE_CORREO.search(valor or "")
        )
