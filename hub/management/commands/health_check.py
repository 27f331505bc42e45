"""Container probe: the checks of /salud/, one line each; exit 0 on pass or warn, 1 on fail."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from hub.observabilidad import salud


class Command(BaseCommand):
    help = "Comprueba la base de datos y la caché (sale con 0 si están sanas y 1 si no)."

    # The probe must answer even before migrations or with the database down.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args, **options) -> None:
        resultados = salud.comprobar()
        for r in resultados:
            linea = f"{r.componente}: {r.estado} {r.ms:.1f} ms"
            if r.error:
                linea += f" ({r.error})"
            self.stdout.write(linea)
        estado = salud.estado_global(resultados)
        if estado == "fail":
            # CommandError: manage.py exits with 1; call_command raises it (testable).
            raise CommandError("estado: fail", returncode=1)
        self.stdout.write(f"estado: {estado}")
