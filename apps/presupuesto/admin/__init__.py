"""Budget admin: vigencias, projects with assignments, PAA lines, CDP and RP with movements.

Every write goes through `apps.presupuesto.services`, so the admin can never leave a balance
or a state inconsistent; state changes are admin actions (with a reason field beside them).
"""

from __future__ import annotations

from apps.presupuesto.admin import documentos, planeacion

__all__ = ["documentos", "planeacion"]
