"""factory-boy factories for people, areas and roles (each app adds its own under tests/<app>/)."""

from __future__ import annotations

import factory
from django.contrib.auth.models import Group, Permission

from apps.cuentas.models import Area, User


class AreaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Area
        django_get_or_create = ("sigla",)

    nombre = factory.Sequence(lambda n: f"Área {n}")
    sigla = factory.Sequence(lambda n: f"A{n}")


# The password every person the factory makes signs in with.
CONTRASENA = "clave-de-prueba-123"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"persona{n}")
    first_name = factory.Faker("first_name", locale="es_CO")
    last_name = factory.Faker("last_name", locale="es_CO")
    email = factory.LazyAttribute(lambda u: f"{u.username}@entidad.gov.co")
    password = factory.django.Password(CONTRASENA)
    is_active = True

    @factory.post_generation
    def permisos(self, create, extracted, **kwargs):
        """UserFactory(permisos=["solicitudes.bandeja.ver", ...]) grants them directly."""
        if create and extracted:
            dar_permisos(self, *extracted)

    @factory.post_generation
    def areas(self, create, extracted, **kwargs):
        if create and extracted:
            self.areas.set(extracted)


class GroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Group
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Rol {n}")


def permiso(nombre: str) -> Permission:
    """The Permission named 'app_label.codename' (codenames may contain dots)."""
    app_label, codename = nombre.split(".", 1)
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


def dar_permisos(usuario: User, *nombres: str) -> None:
    """Grant permissions directly and drop Django's per-user permission cache."""
    usuario.user_permissions.add(*[permiso(n) for n in nombres])
    for atributo in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        usuario.__dict__.pop(atributo, None)
