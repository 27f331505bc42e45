"""Permission names in Spanish: Django writes "Can add log entry" for every model, any library's.

Django names the default permissions in English with the model's untranslated name when it
creates them (after each `migrate`). Right after, for every model of the migrated app, this
renames them from the model's Spanish plural ("Puede agregar entradas de registro"): the plural
needs no article, so the sentence agrees whatever the noun's gender, and models added later
(any app, any library) are covered without a list to keep.
"""

from __future__ import annotations

from django.apps import AppConfig
from django.apps import apps as apps_globales
from django.conf import settings
from django.contrib.auth import get_permission_codename
from django.db import DEFAULT_DB_ALIAS, router
from django.utils import translation

VERBOS = {"add": "agregar", "change": "cambiar", "delete": "eliminar", "view": "ver"}


def nombre_permiso(accion: str, plural: str) -> str:
    """'Puede agregar áreas' for ('add', 'áreas'); an unknown action keeps its English verb."""
    return f"Puede {VERBOS.get(accion, accion)} {plural}"[:255]


def traducir_permisos(
    sender: AppConfig, using: str = DEFAULT_DB_ALIAS, apps=apps_globales, **kwargs
) -> None:
    """post_migrate: the default permissions of the app's models, named in Spanish."""
    try:
        Permission = apps.get_model("auth", "Permission")
        ContentType = apps.get_model("contenttypes", "ContentType")
    except LookupError:
        return  # auth or contenttypes not migrated yet
    if not router.allow_migrate_model(using, Permission):
        return
    tipos = ContentType.objects.db_manager(using)
    permisos = Permission.objects.using(using)
    # The real models (not the migration's): their names go through the translation catalogue.
    with translation.override(settings.LANGUAGE_CODE):
        for modelo in sender.get_models():
            opts = modelo._meta
            tipo = tipos.filter(app_label=opts.app_label, model=opts.model_name).first()
            if tipo is None:
                continue
            plural = str(opts.verbose_name_plural)
            for accion in opts.default_permissions:
                nombre = nombre_permiso(accion, plural)
                permisos.filter(
                    content_type=tipo, codename=get_permission_codename(accion, opts)
                ).exclude(name=nombre).update(name=nombre)
