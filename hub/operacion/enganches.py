"""Lists the apps fill at start and hub reads: hub names no app (docs/decisiones/codigo.md).

The way the admin and the assistant's tool registry are filled: hub declares the list, each app
adds its part from a module hub discovers at start (as the admin discovers `admin.py`), and hub
only walks it. Apps start in INSTALLED_APPS order, and that is the order of the parts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Enganche(Generic[T]):
    """One list of parts, named for what they are."""

    def __init__(self, que: str) -> None:
        self.que = que
        self._partes: list[T] = []

    def agregar(self, parte: T) -> T:
        """Add a part once (a second import adds nothing); returns it, to serve as a decorator."""
        if parte not in self._partes:
            self._partes.append(parte)
        return parte

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._partes))

    def __repr__(self) -> str:
        return f"<Enganche {self.que}: {len(self._partes)}>"
