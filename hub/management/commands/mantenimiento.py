"""Daily maintenance: purge what is past its retention, in batches, and print the counts."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils import timezone

from hub.operacion import retencion


class Command(BaseCommand):
    help = (
        "Guarda las cuentas de rechazos del asistente que siguen en la caché y borra lo que pasó "
        "su retención (confirmaciones usadas vencidas, registro de auditoría y rechazos, "
        "mensajes de contacto, sesiones), por lotes, e imprime cuántas filas salieron. Para un "
        "temporizador diario (docs/despliegue.md)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--lote",
            type=int,
            default=retencion.LOTE,
            help=f"filas por lote, cada uno en su transacción (por defecto {retencion.LOTE})",
        )
        parser.add_argument(
            "--simular", action="store_true", help="solo contar lo que se borraría; no borra nada"
        )

    def handle(self, *args, lote: int, simular: bool, **options) -> None:
        lote = max(1, lote)
        if not simular:  # e.g. the refusal counts still in the cache reach their rows first
            for paso in retencion.ANTES_DE_PURGAR:
                self.stdout.write(paso())
        for purga in retencion.purgas(timezone.now()):
            if purga.consulta is None:
                self.stdout.write(f"{purga.nombre}: {purga.motivo}")
            elif simular:
                self.stdout.write(f"{purga.nombre}: {purga.consulta.count()} se borrarían")
            else:
                total = retencion.purgar(purga, lote=lote)
                self.stdout.write(f"{purga.nombre}: {total} {purga.participio}")
