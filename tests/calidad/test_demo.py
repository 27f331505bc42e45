from __future__ import annotations

import pytest

from apps.calidad import demo
from apps.calidad.models import Documento, Proceso
from hub.operacion.demo import ContextoDemo

pytestmark = pytest.mark.django_db


def test_the_demo_loads_published_documents_with_history_and_drafts():
    ctx = ContextoDemo()
    demo.cargar(ctx)
    assert Proceso.objects.count() == len(demo.PROCESOS)
    assert Documento.objects.vigentes().count() == len(demo.DOCUMENTOS) >= 15
    assert Documento.objects.filter(estado="obsoleto").exists()
    assert Documento.objects.filter(estado="borrador").count() == 4
    assert Documento.objects.vigentes().exclude(codigos_anteriores=[]).count() >= 4
    codigo = ctx.salida["documento"]
    publicado = Documento.objects.vigentes().get(codigo_publicado=codigo)
    assert publicado.version == "3"
    assert publicado.codigos_anteriores == ["SC-P-01"]
    assert Documento.objects.vigentes().buscar("peticiones quejas").get() == publicado


def test_running_the_demo_twice_changes_nothing():
    demo.cargar(ContextoDemo())
    antes = sorted(Documento.objects.values_list("uid", "version", "estado"))
    demo.cargar(ContextoDemo())
    assert sorted(Documento.objects.values_list("uid", "version", "estado")) == antes


def test_scale_adds_bulk_documents_idempotently_and_searchable():
    demo.cargar(ContextoDemo())
    base = Documento.objects.count()
    demo.cargar(ContextoDemo(escala=3))
    assert Documento.objects.count() == base + 2 * demo.POR_UNIDAD
    demo.cargar(ContextoDemo(escala=3))
    assert Documento.objects.count() == base + 2 * demo.POR_UNIDAD
    assert not Documento.objects.filter(busqueda="").exists()
    assert Documento.objects.vigentes().buscar("prestamo de expedientes").exists()
    assert Documento.objects.filter(estado="borrador").count() > 4
