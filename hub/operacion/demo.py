"""Demo data plumbing: each app's `demo.py` adds its part, in INSTALLED_APPS order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ContextoDemo:
    """What the apps' demo loaders share: the scale, objects made so far, and the output JSON."""

    escala: int = 1
    base: str = "http://127.0.0.1:8000"
    objetos: dict[str, Any] = field(default_factory=dict)
    salida: dict[str, Any] = field(default_factory=dict)
    resumen: list[str] = field(default_factory=list)

    def anotar(self, linea: str) -> None:
        """A line for the summary printed by `make run`."""
        self.resumen.append(linea)
