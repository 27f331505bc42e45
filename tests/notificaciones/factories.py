"""factory-boy factories of the contact form."""

from __future__ import annotations

import factory
from django.utils import timezone

from apps.notificaciones.models import MensajeContacto, SitioContacto
from apps.notificaciones.services import nueva_referencia


class SitioContactoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SitioContacto
        django_get_or_create = ("codigo",)

    codigo = factory.Sequence(lambda n: f"sitio-{n}")
    nombre = factory.Sequence(lambda n: f"Sitio {n}")
    activo = True
    correo_destino = factory.LazyAttribute(lambda s: f"{s.codigo}@entidad.gov.co")


class MensajeContactoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MensajeContacto

    referencia = factory.LazyFunction(nueva_referencia)
    sitio = factory.SubFactory(SitioContactoFactory)
    nombre = "Ana Pérez"
    correo = "ana@correo.com"
    asunto = factory.Sequence(lambda n: f"Consulta número {n}")
    mensaje = "Quisiera información sobre el trámite."
    ip = "203.0.113.5"
    user_agent = "Pruebas/1.0"
    recibido_en = factory.LazyFunction(timezone.now)
