from __future__ import annotations

import pytest

from apps.calidad import services
from apps.calidad.models import Documento
from tests.calidad.factories import DocumentoFactory, ProcesoFactory

pytestmark = pytest.mark.django_db

URL = "/admin/calidad/documento/"


def test_the_changelist_filters_by_state_type_and_process(admin_client):
    proceso = ProcesoFactory(nombre="Gestión Financiera")
    DocumentoFactory(titulo="Formato uno", tipo="formato", proceso=proceso)
    DocumentoFactory(titulo="Borrador dos", estado=Documento.Estado.BORRADOR)
    r = admin_client.get(URL, {"estado__exact": "borrador"})
    assert r.status_code == 200
    assert "Borrador dos" in r.text and "Formato uno" not in r.text
    r = admin_client.get(URL, {"tipo__exact": "formato", "proceso__id__exact": proceso.pk})
    assert "Formato uno" in r.text and "Borrador dos" not in r.text


def test_the_admin_search_ignores_accents_and_finds_old_codes(admin_client):
    DocumentoFactory(
        titulo="Política de seguridad",
        codigo_publicado="GTI-PO-001",
        codigos_anteriores=["SI-PO-01"],
    )
    DocumentoFactory(titulo="Otro documento")
    for termino in ("politica", "si-po-01"):
        r = admin_client.get(URL, {"q": termino})
        assert r.status_code == 200
        assert "Política de seguridad" in r.text
        assert "Otro documento" not in r.text


def test_the_uid_and_state_are_read_only(admin_client):
    documento = DocumentoFactory()
    r = admin_client.get(f"{URL}{documento.pk}/change/")
    assert r.status_code == 200
    assert 'name="uid"' not in r.text and 'name="estado"' not in r.text
    assert documento.uid in r.text


def test_the_publish_action_publishes_a_draft_and_obsoletes_the_current(admin_client):
    vigente = DocumentoFactory()
    borrador = services.crear_borrador(documento=vigente)
    r = admin_client.post(
        URL, {"action": "publicar", "_selected_action": [borrador.pk]}, follow=True
    )
    assert r.status_code == 200
    vigente.refresh_from_db()
    borrador.refresh_from_db()
    assert (vigente.estado, borrador.estado) == ("obsoleto", "publicado")


def test_the_publish_action_warns_for_a_published_document_and_changes_nothing(admin_client):
    vigente = DocumentoFactory()
    r = admin_client.post(
        URL, {"action": "publicar", "_selected_action": [vigente.pk]}, follow=True
    )
    assert "Solo se publica una versión en borrador." in r.text
    vigente.refresh_from_db()
    assert vigente.estado == "publicado"


def test_editing_a_version_to_an_existing_number_is_a_form_error_not_a_500(admin_client):
    vigente = DocumentoFactory(version="1")
    borrador = services.crear_borrador(documento=vigente)
    r = admin_client.post(
        f"{URL}{borrador.pk}/change/",
        {
            "codigo_publicado": borrador.codigo_publicado,
            "titulo": borrador.titulo,
            "version": "1",
            "tipo": borrador.tipo,
            "proceso": borrador.proceso_id,
            "temas": "",
        },
    )
    assert r.status_code == 200
    assert "Esa versión ya existe para este documento." in r.text


def _mensajes(respuesta) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in respuesta.context["messages"]]


def test_the_retire_action_retires_the_published_and_warns_for_each_other_in_id_order(
    admin_client,
):
    vigente = DocumentoFactory()
    borrador = services.crear_borrador(documento=DocumentoFactory())
    otro_borrador = services.crear_borrador(documento=DocumentoFactory())
    r = admin_client.post(
        URL,
        {
            "action": "marcar_obsoleto",
            "_selected_action": [otro_borrador.pk, vigente.pk, borrador.pk],
        },
        follow=True,
    )
    assert _mensajes(r) == [
        ("warning", f"{borrador}: Solo se retira una versión publicada."),
        ("warning", f"{otro_borrador}: Solo se retira una versión publicada."),
        ("success", "1 documento(s) retirados."),
    ]
    vigente.refresh_from_db()
    assert vigente.estado == "obsoleto"


def test_the_new_version_action_makes_a_draft_of_each_selected_document(admin_client):
    uno, otro = DocumentoFactory(), DocumentoFactory()
    r = admin_client.post(
        URL, {"action": "nueva_version", "_selected_action": [uno.pk, otro.pk]}, follow=True
    )
    assert _mensajes(r) == [("success", "2 documento(s) con nuevo borrador.")]
    assert Documento.objects.filter(estado="borrador").count() == 2


def test_old_codes_read_as_text_not_as_a_json_list(admin_client):
    documento = DocumentoFactory(
        codigo_publicado="SC-P-03", codigos_anteriores=["SC-P-01", "SC-P-02"]
    )
    r = admin_client.get(f"{URL}{documento.pk}/change/")
    assert "SC-P-01, SC-P-02" in r.text
    assert "[&quot;SC-P-01&quot;" not in r.text and '["SC-P-01"' not in r.text
    sin_codigos = DocumentoFactory(codigos_anteriores=[])
    from django.contrib import admin

    assert admin.site._registry[Documento].anteriores(sin_codigos) == "—"
