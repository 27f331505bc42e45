"""After restoring a database backup: nothing the cache kept from before is read again."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from hub.cache import coherencia
from hub.models import Coherencia


class Command(BaseCommand):
    help = (
        "Después de restaurar un respaldo de la base de datos: cambia su identidad y su "
        "generación de caché, de modo que ningún proceso vuelva a leer lo que la caché guardó "
        "antes (ajustes, marca, credenciales del asistente, verificaciones de firmas). Los "
        "procesos lo notan en pocos segundos; no hace falta reiniciarlos ni vaciar la caché "
        "(docs/despliegue.md, «Respaldos»)."
    )

    def handle(self, *args, **options) -> None:
        coherencia.rotar_identidad()
        fila = Coherencia.objects.get(pk=1)
        self.stdout.write(
            f"Base de datos restaurada: nueva identidad y generación {fila.generacion} de la "
            f"caché. Cada proceso deja de leer lo anterior en menos de "
            f"{coherencia.COTA_SEGUNDOS} s."
        )
