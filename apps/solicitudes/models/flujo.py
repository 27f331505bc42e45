"""Request types, their ordered workflow stages, and the filing-number counters."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q

from hub.busqueda.texto import normalizar

validar_prefijo = RegexValidator(
    r"^[A-Z]{2,6}$", "El prefijo son de 2 a 6 letras mayúsculas sin tildes (p. ej. SOL)."
)


class TipoSolicitudQuerySet(models.QuerySet):
    """Reads of request types."""

    def activos(self) -> TipoSolicitudQuerySet:
        return self.filter(activo=True)

    def mesa_ayuda(self) -> TipoSolicitudQuerySet:
        """The active help-desk type (a constraint allows at most one)."""
        return self.activos().filter(es_mesa_ayuda=True)

    def que_coinciden(self, texto: str) -> TipoSolicitudQuerySet:
        """Types whose code equals `texto` or whose name contains it (accent/case-insensitive).

        The table is small (tens of rows), so the name match is done in Python on one query.
        """
        buscado = normalizar(texto)
        if not buscado:
            return self.none()
        ids = [
            pk
            for pk, codigo, nombre in self.values_list("pk", "codigo", "nombre")
            if normalizar(codigo) == buscado or buscado in normalizar(nombre)
        ]
        return self.filter(pk__in=ids)


class TipoSolicitud(models.Model):
    """A kind of request (certificate, CDP, petition, help desk...), with its own workflow."""

    codigo = models.SlugField("código", max_length=40, unique=True)
    nombre = models.CharField(max_length=120, unique=True)
    descripcion = models.TextField("descripción", blank=True)
    area = models.ForeignKey(
        "cuentas.Area",
        on_delete=models.PROTECT,
        related_name="tipos_solicitud",
        verbose_name="área responsable",
    )
    prefijo = models.CharField(
        max_length=6,
        default="SOL",
        validators=[validar_prefijo],
        help_text="Inicio del número de radicado: PREFIJO-AÑO-000123. Varios tipos pueden "
        "compartirlo; la secuencia es por prefijo y año.",
    )
    activo = models.BooleanField(default=True, help_text="Solo los tipos activos se radican.")
    es_mesa_ayuda = models.BooleanField(
        "es mesa de ayuda",
        default=False,
        help_text="Los casos de la mesa de ayuda (radicar_mesa_ayuda) se radican con este tipo. "
        "Solo puede haber un tipo activo de mesa de ayuda.",
    )

    objects = TipoSolicitudQuerySet.as_manager()

    class Meta:
        ordering = ["nombre"]
        verbose_name = "tipo de solicitud"
        verbose_name_plural = "tipos de solicitud"
        constraints = [
            models.UniqueConstraint(
                fields=["es_mesa_ayuda"],
                condition=Q(es_mesa_ayuda=True, activo=True),
                name="solicitudes_una_mesa_ayuda_activa",
                violation_error_message="Ya existe otro tipo activo de mesa de ayuda.",
            )
        ]

    def __str__(self) -> str:
        return self.nombre

    def primera_etapa(self) -> Etapa | None:
        return self.etapas.order_by("orden").first()


class Etapa(models.Model):
    """One step of a type's workflow: which role handles it, within how many hours."""

    tipo = models.ForeignKey(TipoSolicitud, on_delete=models.CASCADE, related_name="etapas")
    orden = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    nombre = models.CharField(max_length=120)
    rol = models.ForeignKey(
        Group,
        on_delete=models.PROTECT,
        related_name="etapas_solicitud",
        verbose_name="rol responsable",
    )
    plazo_horas = models.PositiveIntegerField(
        "plazo (horas)",
        default=72,
        validators=[MinValueValidator(1)],
        help_text="Horas que tiene el rol para atender la tarea; después queda vencida.",
    )
    requiere_firma = models.BooleanField(
        default=False, help_text="La tarea de esta etapa se completa con firma electrónica."
    )

    class Meta:
        ordering = ["tipo", "orden"]
        verbose_name = "etapa"
        verbose_name_plural = "etapas"
        constraints = [
            models.UniqueConstraint(fields=["tipo", "orden"], name="solicitudes_etapa_orden_unico")
        ]

    def __str__(self) -> str:
        return f"{self.orden}. {self.nombre}"

    def siguiente(self) -> Etapa | None:
        """The next stage of the same workflow, or None when this is the last one."""
        return (
            Etapa.objects.filter(tipo_id=self.tipo_id, orden__gt=self.orden)
            .order_by("orden")
            .first()
        )


class Consecutivo(models.Model):
    """The last number handed out per (prefix, year): one row, locked while filing."""

    prefijo = models.CharField(max_length=6, validators=[validar_prefijo])
    anio = models.PositiveSmallIntegerField("año")
    ultimo = models.PositiveIntegerField("último número", default=0)

    class Meta:
        verbose_name = "consecutivo de radicación"
        verbose_name_plural = "consecutivos de radicación"
        ordering = ["-anio", "prefijo"]
        constraints = [
            models.UniqueConstraint(
                fields=["prefijo", "anio"], name="solicitudes_consecutivo_unico"
            )
        ]

    def __str__(self) -> str:
        return f"{self.prefijo}-{self.anio}: {self.ultimo}"

    @classmethod
    def reservar(cls, prefijo: str, anio: int, cantidad: int = 1) -> int:
        """Reserve `cantidad` consecutive numbers; returns the first. Call inside a transaction.

        The counter row is locked (SELECT ... FOR UPDATE) until the caller's transaction ends,
        so concurrent filings queue up and a rolled-back filing gives its numbers back: no gaps,
        no collisions. On SQLite the settings open IMMEDIATE transactions, which serialize too.
        """
        if cantidad < 1:
            raise ValueError("cantidad debe ser al menos 1")
        fila = cls.objects.select_for_update().filter(prefijo=prefijo, anio=anio).first()
        if fila is None:
            # First filing of the year: create the row without racing (a concurrent creator
            # makes ours a no-op), then lock it like any other time.
            cls.objects.bulk_create(
                [cls(prefijo=prefijo, anio=anio, ultimo=0)], ignore_conflicts=True
            )
            fila = cls.objects.select_for_update().get(prefijo=prefijo, anio=anio)
        primero = fila.ultimo + 1
        cls.objects.filter(pk=fila.pk).update(ultimo=F("ultimo") + cantidad)
        return primero


def formatear_numero(prefijo: str, anio: int, secuencia: int) -> str:
    """PREFIJO-AÑO-NNNNNN (six digits, more only past 999 999)."""
    return f"{prefijo}-{anio}-{secuencia:06d}"
