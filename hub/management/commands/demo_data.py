"""Builds a realistic demo organization; safe to run twice."""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from hub.operacion.demo import ContextoDemo


class Command(BaseCommand):
    help = "Carga datos de demostración (marca, áreas, roles, usuarios y datos de cada app)."

    def add_arguments(self, parser):
        parser.add_argument("--escala", type=int, default=1, help="multiplica los volúmenes")
        parser.add_argument("--salida", help="archivo JSON con credenciales e identificadores")
        parser.add_argument("--resumen", action="store_true", help="imprime direcciones y claves")
        parser.add_argument("--base", default="http://127.0.0.1:8000", help="dirección base")

    def handle(self, *args, escala: int, salida: str | None, resumen: bool, base: str, **kw):
        if escala < 1:
            raise CommandError("--escala debe ser al menos 1")
        if settings.HUB_PRODUCCION:
            # Demo secrets are derived from the key and printed: never in production.
            raise CommandError("demo_data no se ejecuta con HUB_PRODUCCION activo.")
        ctx = ContextoDemo(escala=escala, base=base.rstrip("/"))
        inicio = time.monotonic()
        for config in apps.get_app_configs():
            if config.name == "hub":
                continue  # hub.operacion.demo is this plumbing, not a loader
            try:
                modulo = importlib.import_module(f"{config.name}.demo")
            except ModuleNotFoundError as exc:
                if exc.name != f"{config.name}.demo":
                    raise
                continue
            paso = time.monotonic()
            modulo.cargar(ctx)
            self.stderr.write(f"demo: {config.label} en {time.monotonic() - paso:.1f} s")
        self.stderr.write(f"demo: total {time.monotonic() - inicio:.1f} s (escala {escala})")
        if salida:
            ruta = Path(salida)
            ruta.parent.mkdir(parents=True, exist_ok=True)
            ruta.write_text(json.dumps(ctx.salida, indent=2, ensure_ascii=False, default=str))
            ruta.chmod(0o600)
        if resumen:
            self.stdout.write("\n".join(["", "=" * 72, *ctx.resumen, "=" * 72, ""]))
