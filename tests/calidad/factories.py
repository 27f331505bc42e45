"""factory-boy factories of quality documents."""

from __future__ import annotations

import datetime

import factory

from apps.calidad.models import Documento, Proceso


class ProcesoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Proceso
        django_get_or_create = ("sigla",)

    sigla = factory.Sequence(lambda n: f"P{n}")
    nombre = factory.Sequence(lambda n: f"Proceso de prueba {n}")


class DocumentoFactory(factory.django.DjangoModelFactory):
    """A published document by default; `estado=borrador` for a draft (no date)."""

    class Meta:
        model = Documento

    codigo_publicado = factory.Sequence(lambda n: f"DOC-PR-{n:03d}")
    titulo = factory.Sequence(lambda n: f"Documento de prueba {n}")
    version = "1"
    tipo = Documento.Tipo.PROCEDIMIENTO
    proceso = factory.SubFactory(ProcesoFactory)
    estado = Documento.Estado.PUBLICADO
    fecha_publicacion = factory.LazyAttribute(
        lambda d: None if d.estado == Documento.Estado.BORRADOR else datetime.date(2024, 5, 2)
    )
