"""Shared fixtures of the quality-document tests."""

from __future__ import annotations

import datetime

import pytest

from apps.calidad import services
from tests.calidad.factories import ProcesoFactory


@pytest.fixture
def pqrs():
    """ASC-PR-001 v3 published (it was SC-P-01 once), v1 and v2 obsolete, v4 a draft."""
    proceso = ProcesoFactory(sigla="ASC", nombre="Atención y Servicio al Ciudadano")
    v1 = services.crear_documento(
        titulo="Procedimiento de gestión de peticiones, quejas y reclamos",
        codigo_publicado="SC-P-01",
        tipo="procedimiento",
        proceso=proceso,
        temas="PQRSD derecho de petición",
    )
    services.publicar_version(borrador=v1, fecha_publicacion=datetime.date(2019, 3, 1))
    v2 = services.crear_borrador(documento=v1, codigo_publicado="ASC-PR-001")
    services.publicar_version(borrador=v2, fecha_publicacion=datetime.date(2021, 6, 15))
    v3 = services.crear_borrador(documento=v2)
    services.publicar_version(borrador=v3, fecha_publicacion=datetime.date(2024, 2, 12))
    services.crear_borrador(documento=v3, titulo="Procedimiento de PQRSD (borrador en revisión)")
    v3.refresh_from_db()
    return v3
