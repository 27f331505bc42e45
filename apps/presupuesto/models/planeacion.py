"""The fiscal period, its projects and the money assigned to them, and the PAA lines."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from apps.cuentas.models import Area
from apps.presupuesto.estados import DESCRIPCION_LINEA, EstadoLinea
from apps.presupuesto.models.base import (
    ConBusquedaManager,
    VisiblesQuerySet,
    areas_de,
    campo_valor,
    usuario_activo,
)
from hub.busqueda.columnas import ConBusqueda
from hub.busqueda.texto import normalizar


class VigenciaQuerySet(models.QuerySet):
    def activa(self) -> Vigencia | None:
        """The one active fiscal period (None before any is activated)."""
        return self.filter(activa=True).first()


class Vigencia(models.Model):
    """A fiscal year with its budget ceiling; exactly one is active at a time."""

    anio = models.PositiveSmallIntegerField(
        "año", unique=True, validators=[MinValueValidator(2000), MaxValueValidator(2100)]
    )
    activa = models.BooleanField(
        default=False,
        help_text="Solo una vigencia puede estar activa; activarla desactiva la otra.",
    )
    tope = campo_valor("tope presupuestal", help_text="Apropiación total de la vigencia.")
    # Consecutives of the hub's own numbers, taken under a row lock of the vigencia.
    consecutivo_cdp = models.PositiveIntegerField(default=0, editable=False)
    consecutivo_rp = models.PositiveIntegerField(default=0, editable=False)
    consecutivo_linea = models.PositiveIntegerField(default=0, editable=False)

    objects = VigenciaQuerySet.as_manager()

    class Meta:
        ordering = ["-anio"]
        verbose_name = "vigencia"
        verbose_name_plural = "vigencias"
        constraints = [
            models.UniqueConstraint(
                fields=["activa"], condition=Q(activa=True), name="presupuesto_una_vigencia_activa"
            ),
            models.CheckConstraint(condition=Q(tope__gte=0), name="presupuesto_tope_no_negativo"),
        ]
        # The interface's permission names (codename = the part after "presupuesto.").
        permissions = [
            ("planeacion.consultar", "Consultar CDP, RP y la planeación presupuestal"),
            ("reportes.consultar", "Consultar el tablero y los reportes de presupuesto"),
            ("reportes.personalizados", "Preparar reportes personalizados de presupuesto"),
            ("areas.todas", "Ver el presupuesto de todas las áreas"),
        ]

    def __str__(self) -> str:
        return f"Vigencia {self.anio}" + (" (activa)" if self.activa else "")


class ProyectoQuerySet(models.QuerySet):
    def de_vigencia(self, vigencia: Vigencia) -> ProyectoQuerySet:
        return self.filter(vigencia=vigencia)

    def visibles_para(self, user) -> ProyectoQuerySet:
        """Projects with an assignment or a PAA line in the user's areas (all with areas.todas)."""
        if not usuario_activo(user):
            return self.none()
        if user.has_perm("presupuesto.areas.todas"):
            return self
        mias = areas_de(user)
        return self.filter(
            Exists(Asignacion.objects.filter(proyecto=OuterRef("pk"), area__in=mias))
            | Exists(LineaPaa.objects.filter(proyecto=OuterRef("pk"), area__in=mias))
        )

    def coincidentes(self, texto: str) -> ProyectoQuerySet:
        """By id or exact code; otherwise every word of `texto` in code or name.

        One query: partial matches count only when nothing matches exactly.
        """
        texto = (texto or "").strip()
        if not texto:
            return self.none()
        exacto = Q(codigo__iexact=texto)
        if texto.isdigit() and len(texto) <= 18:
            exacto |= Q(pk=int(texto))
        parcial = Q()
        for palabra in normalizar(texto).split(" "):
            parcial &= Q(busqueda__contains=palabra)
        hay_exacto = Exists(self.filter(exacto))
        return self.filter(exacto | (parcial & ~hay_exacto))


class Proyecto(ConBusqueda):
    """An investment or operating project of a vigencia; the money is assigned per area."""

    vigencia = models.ForeignKey(Vigencia, on_delete=models.PROTECT, related_name="proyectos")
    codigo = models.CharField("código", max_length=30)
    nombre = models.CharField(max_length=250)
    activo = models.BooleanField(default=True)

    objects = ProyectoQuerySet.as_manager()

    class Meta:
        ordering = ["vigencia", "codigo"]
        verbose_name = "proyecto"
        verbose_name_plural = "proyectos"
        constraints = [
            models.UniqueConstraint(
                fields=["vigencia", "codigo"], name="presupuesto_proyecto_codigo_unico"
            )
        ]

    def __str__(self) -> str:
        return f"{self.codigo} · {self.nombre}"

    def texto_busqueda(self) -> str:
        return f"{self.codigo} {self.nombre}"


class Actividad(models.Model):
    """An activity of a project; PAA lines may say which activity they serve."""

    proyecto = models.ForeignKey(Proyecto, on_delete=models.PROTECT, related_name="actividades")
    codigo = models.CharField("código", max_length=30)
    nombre = models.CharField(max_length=250)
    activa = models.BooleanField(default=True)

    class Meta:
        ordering = ["proyecto", "codigo"]
        verbose_name = "actividad"
        verbose_name_plural = "actividades"
        constraints = [
            models.UniqueConstraint(
                fields=["proyecto", "codigo"], name="presupuesto_actividad_codigo_unico"
            )
        ]

    def __str__(self) -> str:
        return f"{self.codigo} · {self.nombre}"


class AsignacionQuerySet(VisiblesQuerySet):
    def de_vigencia(self, vigencia: Vigencia) -> AsignacionQuerySet:
        return self.filter(proyecto__vigencia=vigencia)


class Asignacion(models.Model):
    """Money of a project assigned to an area: the budget cell every CDP of that pair draws on."""

    proyecto = models.ForeignKey(Proyecto, on_delete=models.PROTECT, related_name="asignaciones")
    area = models.ForeignKey(
        Area, on_delete=models.PROTECT, related_name="asignaciones", verbose_name="área"
    )
    valor = campo_valor("valor asignado")

    objects = AsignacionQuerySet.as_manager()

    class Meta:
        ordering = ["proyecto", "area__sigla"]
        verbose_name = "asignación"
        verbose_name_plural = "asignaciones"
        constraints = [
            models.UniqueConstraint(
                fields=["proyecto", "area"], name="presupuesto_asignacion_unica"
            ),
            models.CheckConstraint(
                condition=Q(valor__gte=0), name="presupuesto_asignacion_no_negativa"
            ),
        ]

    def __str__(self) -> str:
        # Imported here: the tools package imports the models.
        from apps.presupuesto.herramientas.formato import pesos

        return f"{self.proyecto.codigo} / {self.area.sigla}: {pesos(self.valor)}"


class LineaPaaQuerySet(VisiblesQuerySet):
    def de_vigencia(self, vigencia: Vigencia) -> LineaPaaQuerySet:
        return self.filter(vigencia=vigencia)

    def del_mes(self, mes) -> LineaPaaQuerySet:
        """Lines whose estimated start falls in the month of the date `mes`."""
        return self.filter(mes_inicio=mes.replace(day=1))

    def buscar(self, texto: str) -> LineaPaaQuerySet:
        from hub.busqueda.columnas import filtrar_texto

        return filtrar_texto(self, texto)


class LineaPaaManager(ConBusquedaManager.from_queryset(LineaPaaQuerySet)):
    pass


class LineaPaa(ConBusqueda):
    """A line of the annual procurement plan (PAA): what an area plans to contract and when."""

    class Modalidad(models.TextChoices):
        CONTRATACION_DIRECTA = "contratacion_directa", "Contratación directa"
        MINIMA_CUANTIA = "minima_cuantia", "Mínima cuantía"
        SELECCION_ABREVIADA = "seleccion_abreviada", "Selección abreviada"
        CONCURSO_MERITOS = "concurso_meritos", "Concurso de méritos"
        LICITACION = "licitacion", "Licitación pública"

    Estado = EstadoLinea

    vigencia = models.ForeignKey(Vigencia, on_delete=models.PROTECT, related_name="lineas_paa")
    numero = models.PositiveIntegerField("línea", help_text="Consecutivo de la línea en el plan.")
    objeto = models.TextField("objeto / descripción")
    area = models.ForeignKey(
        Area, on_delete=models.PROTECT, related_name="lineas_paa", verbose_name="área"
    )
    proyecto = models.ForeignKey(Proyecto, on_delete=models.PROTECT, related_name="lineas_paa")
    actividad = models.ForeignKey(
        Actividad, on_delete=models.PROTECT, null=True, blank=True, related_name="lineas_paa"
    )
    valor_estimado = campo_valor("valor estimado")
    mes_inicio = models.DateField(
        "mes estimado de inicio", help_text="Primer día del mes en que se espera iniciar."
    )
    duracion_meses = models.PositiveSmallIntegerField(
        "duración estimada (meses)", default=1, validators=[MinValueValidator(1)]
    )
    modalidad = models.CharField(
        "modalidad de selección",
        max_length=30,
        choices=Modalidad.choices,
        default=Modalidad.CONTRATACION_DIRECTA,
    )
    estado = models.CharField(
        max_length=20, choices=EstadoLinea.choices, default=EstadoLinea.BORRADOR, db_index=True
    )
    motivo_devolucion = models.TextField("motivo de la devolución", null=True, blank=True)
    motivo_anulacion = models.TextField("motivo de la anulación", null=True, blank=True)
    creado_por = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    creado_en = models.DateTimeField(auto_now_add=True)
    actualizado_en = models.DateTimeField(auto_now=True)

    firmas = GenericRelation("firmas.Firma", related_query_name="linea_paa")

    objects = LineaPaaManager()

    class Meta:
        ordering = ["vigencia", "numero"]
        verbose_name = "línea del PAA"
        verbose_name_plural = "líneas del PAA"
        constraints = [
            models.UniqueConstraint(fields=["vigencia", "numero"], name="presupuesto_linea_unica"),
            models.CheckConstraint(
                condition=Q(valor_estimado__gte=0), name="presupuesto_linea_valor_no_negativo"
            ),
            models.CheckConstraint(
                condition=Q(mes_inicio__day=1), name="presupuesto_linea_mes_primer_dia"
            ),
        ]
        indexes = [models.Index(fields=["mes_inicio", "area"], name="presupuesto_linea_mes_area")]

    def __str__(self) -> str:
        return f"PAA {self.vigencia_id and self.vigencia.anio} línea {self.numero}"

    def texto_busqueda(self) -> str:
        return f"linea {self.numero} {self.objeto}"

    @property
    def estado_visible(self) -> str:
        return EstadoLinea(self.estado).label

    @property
    def estado_descripcion(self) -> str:
        return DESCRIPCION_LINEA[self.estado]

    @property
    def enlace(self) -> str:
        """Relative path of the PAA line screen (read-only, never the admin's edit form)."""
        return reverse("presupuesto:linea_paa", args=[self.pk])

    @property
    def enlace_impresion(self) -> str:
        """Relative path of the line's print view (its PDF: `enlace_pdf`)."""
        return f"{self.enlace}/imprimir"

    @property
    def enlace_pdf(self) -> str:
        return f"{self.enlace}/pdf"

    def resumen_firma(self) -> dict:
        """The `documento` of the signature verification endpoint."""
        return {
            "tipo": "paa",
            "linea": self.numero,
            "objeto": self.objeto,
            "estado": str(self.estado),
        }
