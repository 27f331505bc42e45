"""Results and codes in the assistant's admin read in Spanish ("Datos inválidos", "Correcta"),
while the filter's address, the search and the CSV keep the code."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.mcp.etiquetas import etiqueta
from apps.mcp.models import RechazoAsistente, RegistroAuditoria
from tests.factories import UserFactory
from tests.hub.test_admin_espanol import texto_visible

pytestmark = pytest.mark.django_db


@pytest.fixture
def administra(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _fila(resultado: str) -> RegistroAuditoria:
    return RegistroAuditoria.objects.create(
        herramienta="estado_cdp", resultado=resultado, credencial="clave_api"
    )


def test_the_audit_list_page_and_filter_show_results_in_spanish(administra):
    fila = _fila("DATOS_INVALIDOS")
    _fila("ok")
    lista = texto_visible(administra.get("/admin/mcp/registroauditoria/").content.decode())
    assert "Datos inválidos" in lista and "Correcta" in lista
    assert "DATOS_INVALIDOS" not in lista and " ok " not in f" {lista} "
    filtrada = administra.get("/admin/mcp/registroauditoria/", {"resultado": "DATOS_INVALIDOS"})
    assert [f.pk for f in filtrada.context["cl"].result_list] == [fila.pk]
    pagina = administra.get(f"/admin/mcp/registroauditoria/{fila.pk}/change/").content.decode()
    assert "Datos inválidos" in texto_visible(pagina)
    assert "DATOS_INVALIDOS" not in texto_visible(pagina)


def test_the_refusals_list_names_its_codes_in_spanish(administra):
    RechazoAsistente.objects.create(
        minuto=timezone.now().replace(second=0, microsecond=0),
        quien="ip:203.0.113.5",
        estado=429,
        codigo="RATE_LIMIT",
        veces=3,
    )
    lista = texto_visible(administra.get("/admin/mcp/rechazoasistente/").content.decode())
    assert "Límite de uso superado" in lista and "RATE_LIMIT" not in lista


def test_an_unknown_code_reads_as_words():
    assert etiqueta("OTRO_CODIGO_NUEVO") == "Otro codigo nuevo"
    assert etiqueta("ok") == "Correcta"
