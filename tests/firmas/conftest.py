"""Signable documents for the signature tests.

`Firma` signs any model that offers `resumen_firma()`; these tests give that method, for the
duration of a test, to two existing models, so they exercise the generic mechanism without
depending on the budget app.
"""

from __future__ import annotations

import pytest

from apps.calidad.models import Documento
from apps.cuentas.models import Area
from tests.calidad.factories import DocumentoFactory
from tests.factories import AreaFactory


def _resumen_area(self) -> dict:
    return {
        "tipo": "cdp",
        "numero_cdp": f"CDP-2025-{self.pk:04d}",
        "radicado": f"RAD-2025-{self.pk:05d}",
        "objeto": self.nombre,
        "estado": "expedido",
    }


def _resumen_documento(self) -> dict:
    return {"tipo": "cdp_adicion", "numero_cdp": self.codigo_publicado, "estado": "aprobado"}


@pytest.fixture
def firmables(monkeypatch):
    monkeypatch.setattr(Area, "resumen_firma", _resumen_area, raising=False)
    monkeypatch.setattr(Documento, "resumen_firma", _resumen_documento, raising=False)


@pytest.fixture
def area_firmable(firmables):
    """An area that signs as a CDP (it wears `resumen_firma` for the test)."""
    return AreaFactory(nombre="Prestación de servicios profesionales para la gestión documental")


@pytest.fixture
def documento_calidad_firmable(firmables):
    """A quality document that signs as a CDP movement: a second model, whose signatures are a
    document of their own."""
    return DocumentoFactory()
