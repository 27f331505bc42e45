"""Spanish verbs of Django's permission codenames, shared by the library's permissions
(apps.py, renamed after migrate) and the admin proxies' own (models.py); a leaf module, so that
both import it without an import circle."""

from __future__ import annotations

VERBOS = {"add": "agregar", "change": "cambiar", "delete": "eliminar", "view": "ver"}
