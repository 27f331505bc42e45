"""Quality-system documents: one row per version; only the published one is ever searchable."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import reverse

from apps.calidad.uid import nuevo_uid
from hub.busqueda.columnas import ConBusqueda, filtrar_texto


class Proceso(models.Model):
    """A process of the entity's process map (e.g. Gestión del Talento Humano)."""

    class Categoria(models.TextChoices):
        ESTRATEGICO = "estrategico", "Estratégico"
        MISIONAL = "misional", "Misional"
        APOYO = "apoyo", "De apoyo"
        EVALUACION = "evaluacion", "De evaluación"

    sigla = models.CharField(max_length=10, unique=True)
    nombre = models.CharField(max_length=150, unique=True)
    categoria = models.CharField(
        "categoría", max_length=20, choices=Categoria.choices, default=Categoria.APOYO
    )

    class Meta:
        ordering = ["nombre"]
        verbose_name = "proceso"
        verbose_name_plural = "procesos"

    def __str__(self) -> str:
        return f"{self.sigla} · {self.nombre}"

    def save(self, *args, **kwargs):
        anterior = None
        if self.pk:
            anterior = Proceso.objects.filter(pk=self.pk).values_list("nombre", flat=True).first()
        super().save(*args, **kwargs)
        if anterior is not None and anterior != self.nombre:
            # The process name is part of each document's search text.
            Documento.objects.filter(proceso=self).reindexar()


class DocumentoQuerySet(models.QuerySet):
    """Reads of quality documents; outside the admin only `vigentes()` may be used."""

    def vigentes(self) -> DocumentoQuerySet:
        """The current published version of each document (drafts and obsolete never)."""
        return self.filter(estado=Documento.Estado.PUBLICADO)

    def buscar(self, texto: str) -> DocumentoQuerySet:
        """Every word in title, code, previous codes, topic or process (accents and case apart)."""
        return filtrar_texto(self, texto)

    def reindexar(self, lote: int = 2000) -> int:
        """Recompute the search column (after changes that skipped `save()`)."""
        total = 0
        pendientes: list[Documento] = []
        for documento in self.select_related("proceso").iterator(chunk_size=lote):
            documento.preparar_busqueda()
            pendientes.append(documento)
            if len(pendientes) >= lote:
                Documento.objects.bulk_update(pendientes, ["busqueda"])
                total += len(pendientes)
                pendientes = []
        if pendientes:
            Documento.objects.bulk_update(pendientes, ["busqueda"])
            total += len(pendientes)
        return total


class DocumentoManager(models.Manager.from_queryset(DocumentoQuerySet)):
    def crear_en_bloque(self, documentos: list[Documento], lote: int = 2000) -> list[Documento]:
        """bulk_create that fills the search column first (bulk inserts skip `save()`)."""
        for documento in documentos:
            documento.preparar_busqueda()
        return self.bulk_create(documentos, batch_size=lote)


class Documento(ConBusqueda):
    """One version of a quality document; `uid` identifies the document across its versions."""

    class Tipo(models.TextChoices):
        CARACTERIZACION = "caracterizacion", "Caracterización"
        PROCEDIMIENTO = "procedimiento", "Procedimiento"
        MANUAL = "manual", "Manual"
        GUIA = "guia", "Guía"
        INSTRUCTIVO = "instructivo", "Instructivo"
        FORMATO = "formato", "Formato"
        POLITICA = "politica", "Política"
        PLAN = "plan", "Plan"
        PROTOCOLO = "protocolo", "Protocolo"

    class Estado(models.TextChoices):
        BORRADOR = "borrador", "Borrador"
        PUBLICADO = "publicado", "Publicado"
        OBSOLETO = "obsoleto", "Obsoleto"

    uid = models.CharField(
        "identificador",
        max_length=26,
        default=nuevo_uid,
        db_index=True,
        editable=False,
        help_text="Igual en todas las versiones del mismo documento.",
    )
    codigo_publicado = models.CharField("código", max_length=40, db_index=True)
    codigos_anteriores = models.JSONField("códigos anteriores", default=list, blank=True)
    titulo = models.CharField("título", max_length=250)
    version = models.CharField("versión", max_length=20, default="1")
    tipo = models.CharField(max_length=20, choices=Tipo.choices)
    proceso = models.ForeignKey(Proceso, on_delete=models.PROTECT, related_name="documentos")
    temas = models.TextField(
        "tema y palabras clave", blank=True, help_text="Palabras con las que se busca el documento."
    )
    estado = models.CharField(max_length=10, choices=Estado.choices, default=Estado.BORRADOR)
    fecha_publicacion = models.DateField("fecha de publicación", null=True, blank=True)
    creado_en = models.DateTimeField(auto_now_add=True)
    actualizado_en = models.DateTimeField(auto_now=True)

    objects = DocumentoManager()

    class Meta:
        ordering = ["codigo_publicado", "-id"]
        verbose_name = "documento"
        verbose_name_plural = "documentos"
        indexes = [
            models.Index(fields=["estado", "codigo_publicado"], name="calidad_doc_estado_cod")
        ]
        constraints = [
            models.UniqueConstraint(fields=["uid", "version"], name="calidad_doc_uid_version"),
            # At most one current version per document, and per published code.
            models.UniqueConstraint(
                fields=["uid"], condition=Q(estado="publicado"), name="calidad_doc_un_vigente"
            ),
            models.UniqueConstraint(
                fields=["codigo_publicado"],
                condition=Q(estado="publicado"),
                name="calidad_doc_codigo_vigente",
            ),
            models.CheckConstraint(
                condition=~Q(estado="publicado") | Q(fecha_publicacion__isnull=False),
                name="calidad_doc_publicado_con_fecha",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.codigo_publicado} v{self.version} · {self.titulo}"

    def texto_busqueda(self) -> str:
        anteriores = [c for c in self.codigos_anteriores or [] if isinstance(c, str)]
        nombre_proceso = self.proceso.nombre if self.proceso_id else ""
        return " ".join(
            [self.codigo_publicado, *anteriores, self.titulo, self.temas, nombre_proceso]
        )

    @property
    def enlace(self) -> str:
        """Relative path of the document's page; the uid is stable across versions."""
        return reverse("calidad:documento", args=[self.uid])

    def resumen_publico(self) -> dict:
        """The item of buscar_documento (identification only, never the content)."""
        return {
            "id": self.pk,
            "uid": self.uid,
            "codigo_publicado": self.codigo_publicado,
            "codigos_anteriores": list(self.codigos_anteriores or []),
            "titulo": self.titulo,
            "version": self.version,
            "tipo": self.tipo,
            "proceso": self.proceso.nombre,
            "estado": self.estado,
            "fecha_publicacion": (
                self.fecha_publicacion.isoformat() if self.fecha_publicacion else None
            ),
            "enlace": self.enlace,
        }
