"""Budget documents: CDP (availability certificate), RP (commitment record), their movements.

Balances are stored (so dashboards aggregate without recomputing) and kept right by the
services, which change them only under a row lock; `services.recalcular_saldos` checks them.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.db.models import Q
from django.urls import reverse

from apps.cuentas.models import Area
from apps.presupuesto.estados import (
    CDP_CERTIFICAN,
    DESCRIPCION_CDP,
    DESCRIPCION_RP,
    RP_COMPROMETEN,
    EstadoCdp,
    EstadoExpedicion,
    EstadoMovimiento,
    EstadoRp,
    TipoMovimientoCdp,
    TipoMovimientoRp,
)
from apps.presupuesto.models.base import (
    ConBusquedaManager,
    ConNumeroQuerySet,
    VisiblesQuerySet,
    campo_valor,
)
from apps.presupuesto.models.planeacion import LineaPaa, Proyecto, Vigencia
from hub.busqueda.columnas import ConBusqueda, filtrar_texto


def _usuario(related_name: str = "+", verbose: str = "usuario") -> models.ForeignKey:
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name=related_name,
        verbose_name=verbose,
    )


class DocumentoQuerySet(ConNumeroQuerySet):
    def de_vigencia(self, vigencia: Vigencia):
        return self.filter(vigencia=vigencia)

    def buscar(self, texto: str):
        """Every word of `texto` in numbers, object or beneficiary (accents and case apart)."""
        return filtrar_texto(self, texto)


class CdpQuerySet(DocumentoQuerySet):
    def certificados(self) -> CdpQuerySet:
        """CDPs whose value counts as certified (expedido or agotado)."""
        return self.filter(estado__in=CDP_CERTIFICAN)


class CdpManager(ConBusquedaManager.from_queryset(CdpQuerySet)):
    pass


class DocumentoPresupuestal(ConBusqueda):
    """What CDP and RP share: numbers, object, value, the issuance record and who moved it.

    A concrete document declares `vigencia`, `numero`, `numero_radicado` and `estado` (their
    related name, help text and choices are its own), its `Estado` and its `descripciones`
    (state → what it means). A related name written once as "%(class)ss" would be the same
    relation, but migrations record it as written, so the literal names stay per model.
    """

    Estado: type[models.TextChoices]
    descripciones: dict[str, str]

    numero_externo = models.CharField(
        "número en el sistema financiero", max_length=30, null=True, blank=True, db_index=True
    )
    objeto = models.TextField()
    valor_inicial = campo_valor("valor inicial")
    valor_actual = campo_valor("valor actual")
    estado_expedicion = models.CharField(
        "estado de la expedición",
        max_length=30,
        choices=EstadoExpedicion.choices,
        null=True,
        blank=True,
    )
    fecha_expedicion = models.DateField("fecha de expedición", null=True, blank=True)
    motivo_devolucion = models.TextField("motivo de la devolución", null=True, blank=True)
    motivo_rechazo = models.TextField("motivo del rechazo", null=True, blank=True)
    motivo_anulacion = models.TextField("motivo de la anulación", null=True, blank=True)
    solicitado_por = _usuario(verbose="solicitado por")
    expedido_por = _usuario(verbose="expedido por")
    creado_en = models.DateTimeField(auto_now_add=True)
    actualizado_en = models.DateTimeField(auto_now=True)

    firmas = GenericRelation("firmas.Firma", related_query_name="%(class)s")

    class Meta:
        abstract = True
        ordering = ["-vigencia__anio", "-numero"]
        constraints = [
            models.UniqueConstraint(
                fields=["vigencia", "numero_externo"],
                condition=Q(numero_externo__isnull=False),
                name="%(app_label)s_%(class)s_externo_unico",
            ),
        ]

    def __str__(self) -> str:
        return self.numero

    def save(self, *args, **kwargs):
        # Numbers are compared exactly in upper case (see ConNumeroQuerySet.por_numero).
        self.numero = (self.numero or "").strip().upper()
        self.numero_externo = (self.numero_externo or "").strip().upper() or None
        super().save(*args, **kwargs)

    @property
    def estado_visible(self) -> str:
        return self.Estado(self.estado).label

    @property
    def estado_descripcion(self) -> str:
        return self.descripciones[self.estado]

    @property
    def enlace(self) -> str:
        """Relative path of the document's screen (read-only, never the admin's edit form)."""
        return reverse(f"presupuesto:{self._meta.model_name}", args=[self.pk])

    @property
    def enlace_impresion(self) -> str:
        """Relative path of the document's print view (its PDF: `enlace_pdf`)."""
        return f"{self.enlace}/imprimir"

    @property
    def enlace_pdf(self) -> str:
        return f"{self.enlace}/pdf"


def _numero(sigla: str) -> models.CharField:
    return models.CharField(
        "número",
        max_length=30,
        unique=True,
        help_text=f"Número del hub, p. ej. {sigla}-2026-00001.",
    )


def _estado(estados: type[models.TextChoices]) -> models.CharField:
    return models.CharField(
        max_length=20, choices=estados.choices, default=estados.SOLICITADO, db_index=True
    )


class Cdp(DocumentoPresupuestal):
    """Certificado de disponibilidad presupuestal: reserves part of a project's area assignment."""

    Estado = EstadoCdp
    descripciones = DESCRIPCION_CDP

    vigencia = models.ForeignKey(Vigencia, on_delete=models.PROTECT, related_name="cdps")
    numero = _numero("CDP")
    numero_radicado = models.CharField(
        "radicado de origen",
        max_length=60,
        null=True,
        blank=True,
        db_index=True,
        help_text="Número de la solicitud que originó el CDP.",
    )
    linea_paa = models.ForeignKey(
        LineaPaa,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cdps",
        verbose_name="línea del PAA",
    )
    proyecto = models.ForeignKey(Proyecto, on_delete=models.PROTECT, related_name="cdps")
    area = models.ForeignKey(
        Area, on_delete=models.PROTECT, related_name="cdps", verbose_name="área"
    )
    dependencia = models.CharField(
        max_length=150, blank=True, help_text="Grupo o dependencia dentro del área (opcional)."
    )
    comprometido = campo_valor("comprometido", help_text="Suma de sus RP vigentes.")
    saldo = campo_valor("saldo", help_text="Valor actual menos comprometido.")
    estado = _estado(EstadoCdp)

    objects = CdpManager()

    class Meta(DocumentoPresupuestal.Meta):
        verbose_name = "CDP"
        verbose_name_plural = "CDP"
        constraints = [
            *DocumentoPresupuestal.Meta.constraints,
            models.CheckConstraint(
                condition=Q(valor_inicial__gte=0, valor_actual__gte=0, comprometido__gte=0),
                name="presupuesto_cdp_valores_no_negativos",
            ),
            # The last guard against overdrawing: a CDP never commits more than it is worth.
            models.CheckConstraint(
                condition=Q(saldo__gte=0, comprometido__lte=models.F("valor_actual")),
                name="presupuesto_cdp_sin_sobregiro",
            ),
        ]
        indexes = [models.Index(fields=["vigencia", "area", "estado"], name="presupuesto_cdp_va")]

    def texto_busqueda(self) -> str:
        return " ".join(
            filter(None, [self.numero, self.numero_externo, self.numero_radicado, self.objeto])
        )

    @classmethod
    def consulta_firma(cls) -> models.QuerySet:
        """How apps.firmas reads a signed CDP (everything resumen_firma needs, one query)."""
        return cls._base_manager.all()

    def resumen_firma(self) -> dict:
        """The `documento` of the signature verification endpoint."""
        return {
            "tipo": "cdp",
            "numero_cdp": self.numero,
            "radicado": self.numero_radicado,
            "objeto": self.objeto,
            "estado": str(self.estado),
        }


class Movimiento(models.Model):
    """What CDP and RP movements share; only applied movements change their document's balances.

    A concrete movement declares its document's foreign key (named `campo_documento`), the
    `numero` and `tipo` fields (their help text and choices are its own), and `ruta_firma`.
    """

    Estado = EstadoMovimiento
    campo_documento: str
    ruta_firma: str

    valor = campo_valor("valor")
    fecha = models.DateField()
    descripcion = models.TextField("descripción")
    estado = models.CharField(
        max_length=20, choices=EstadoMovimiento.choices, default=EstadoMovimiento.SOLICITADO
    )
    numero_radicado = models.CharField("radicado de origen", max_length=60, null=True, blank=True)
    motivo_rechazo = models.TextField("motivo del rechazo", null=True, blank=True)
    registrado_por = _usuario(verbose="registrado por")
    creado_en = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        numero = getattr(self, f"{self.campo_documento}_id") and self.documento.numero
        return f"{numero} · {self.get_tipo_display()} {self.numero}"

    @property
    def documento(self) -> Cdp | Rp:
        """The CDP or RP this movement changes."""
        return getattr(self, self.campo_documento)

    @property
    def enlace_impresion(self) -> str:
        """Relative path of the movement's print view, under its document's screen."""
        return f"{self.documento.enlace}/movimientos/{self.numero}/imprimir"

    @property
    def enlace_pdf(self) -> str:
        return f"{self.documento.enlace}/movimientos/{self.numero}/pdf"

    @classmethod
    def consulta_firma(cls) -> models.QuerySet:
        """How apps.firmas reads a signed movement (with what resumen_firma needs)."""
        return cls._base_manager.select_related(cls.ruta_firma)

    def resumen_firma(self) -> dict:
        """The `documento` of the signature verification endpoint (tipo cdp_<tipo>, rp_<tipo>).

        Its document's summary, without the radicado, in the movement's own type and state.
        """
        resumen = self.documento.resumen_firma()
        del resumen["radicado"]
        return {**resumen, "tipo": f"{resumen['tipo']}_{self.tipo}", "estado": str(self.estado)}


class MovimientoCdpQuerySet(VisiblesQuerySet):
    ruta_area = "cdp__area"


class MovimientoCdp(Movimiento):
    """An addition, reduction or annulment of a CDP."""

    Tipo = TipoMovimientoCdp
    campo_documento = "cdp"
    ruta_firma = "cdp"

    cdp = models.ForeignKey(Cdp, on_delete=models.PROTECT, related_name="movimientos")
    numero = models.PositiveSmallIntegerField("número", help_text="Consecutivo dentro del CDP.")
    tipo = models.CharField(max_length=20, choices=TipoMovimientoCdp.choices)

    firmas = GenericRelation("firmas.Firma", related_query_name="movimiento_cdp")

    objects = MovimientoCdpQuerySet.as_manager()

    class Meta:
        ordering = ["cdp", "numero"]
        verbose_name = "movimiento de CDP"
        verbose_name_plural = "movimientos de CDP"
        constraints = [
            models.UniqueConstraint(fields=["cdp", "numero"], name="presupuesto_movcdp_unico"),
            models.CheckConstraint(condition=Q(valor__gt=0), name="presupuesto_movcdp_positivo"),
        ]


class RpQuerySet(DocumentoQuerySet):
    ruta_area = "cdp__area"

    def comprometidos(self) -> RpQuerySet:
        """RPs whose value counts as committed (expedido or ejecutado)."""
        return self.filter(estado__in=RP_COMPROMETEN)


class RpManager(ConBusquedaManager.from_queryset(RpQuerySet)):
    pass


class Rp(DocumentoPresupuestal):
    """Registro presupuestal: commits part of a CDP's balance to a beneficiary."""

    Estado = EstadoRp
    descripciones = DESCRIPCION_RP

    vigencia = models.ForeignKey(Vigencia, on_delete=models.PROTECT, related_name="rps")
    numero = _numero("RP")
    numero_radicado = models.CharField(
        "radicado de origen", max_length=60, null=True, blank=True, db_index=True
    )
    cdp = models.ForeignKey(Cdp, on_delete=models.PROTECT, related_name="rps", verbose_name="CDP")
    beneficiario = models.CharField(max_length=250)
    # Personal data: kept for the record, never returned by a query, tool or search.
    documento_beneficiario = models.CharField(
        "documento del beneficiario",
        max_length=30,
        blank=True,
        help_text="Dato personal: no se publica ni se devuelve en consultas.",
    )
    obligado = campo_valor("obligado", help_text="Suma de sus obligaciones aplicadas.")
    estado = _estado(EstadoRp)
    fecha_inicio = models.DateField("fecha de inicio", null=True, blank=True)
    fecha_fin = models.DateField("fecha de terminación", null=True, blank=True)

    objects = RpManager()

    class Meta(DocumentoPresupuestal.Meta):
        verbose_name = "RP"
        verbose_name_plural = "RP"
        constraints = [
            *DocumentoPresupuestal.Meta.constraints,
            models.CheckConstraint(
                condition=Q(
                    valor_inicial__gte=0,
                    valor_actual__gte=0,
                    obligado__gte=0,
                    obligado__lte=models.F("valor_actual"),
                ),
                name="presupuesto_rp_valores_validos",
            ),
            models.CheckConstraint(
                condition=Q(fecha_inicio__isnull=True)
                | Q(fecha_fin__isnull=True)
                | Q(fecha_fin__gte=models.F("fecha_inicio")),
                name="presupuesto_rp_fechas_ordenadas",
            ),
        ]

    def texto_busqueda(self) -> str:
        # The beneficiary's document is deliberately left out: it must not be searchable.
        return " ".join(
            filter(
                None,
                [
                    self.numero,
                    self.numero_externo,
                    self.cdp.numero if self.cdp_id else None,
                    self.numero_radicado,
                    self.beneficiario,
                    self.objeto,
                ],
            )
        )

    @property
    def por_obligar(self):
        return self.valor_actual - self.obligado

    @classmethod
    def consulta_firma(cls) -> models.QuerySet:
        return cls._base_manager.select_related("cdp")

    def resumen_firma(self) -> dict:
        """The `documento` of the signature verification endpoint."""
        return {
            "tipo": "rp",
            "numero_rp": self.numero,
            "numero_cdp": self.cdp.numero,
            "radicado": self.numero_radicado,
            "objeto": self.objeto,
            "estado": str(self.estado),
        }


class MovimientoRpQuerySet(VisiblesQuerySet):
    ruta_area = "rp__cdp__area"


class MovimientoRp(Movimiento):
    """An addition, reduction, obligation or annulment of an RP."""

    Tipo = TipoMovimientoRp
    campo_documento = "rp"
    ruta_firma = "rp__cdp"

    rp = models.ForeignKey(Rp, on_delete=models.PROTECT, related_name="movimientos")
    numero = models.PositiveSmallIntegerField("número", help_text="Consecutivo dentro del RP.")
    tipo = models.CharField(max_length=20, choices=TipoMovimientoRp.choices)

    firmas = GenericRelation("firmas.Firma", related_query_name="movimiento_rp")

    objects = MovimientoRpQuerySet.as_manager()

    class Meta:
        ordering = ["rp", "numero"]
        verbose_name = "movimiento de RP"
        verbose_name_plural = "movimientos de RP"
        constraints = [
            models.UniqueConstraint(fields=["rp", "numero"], name="presupuesto_movrp_unico"),
            models.CheckConstraint(condition=Q(valor__gt=0), name="presupuesto_movrp_positivo"),
        ]
