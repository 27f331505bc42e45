from __future__ import annotations

import html
import uuid

import pytest

from apps.marca.models import Marca
from tests.firmas.factories import firma_anulada, firmar

pytestmark = pytest.mark.django_db

PAGINA = "/presupuesto/verificar/"
API = "/presupuesto/api/v1/firmas/verificar/"


def _texto(r) -> str:
    return html.unescape(r.content.decode())


def test_a_valid_signature_shows_the_same_facts_as_the_api(client, area_firmable):
    firmar(area_firmable, firmante="Jorge Iván Peña", rol="Jefe de presupuesto")
    firma = firmar(area_firmable)
    r = client.get(f"{PAGINA}{firma.token}")
    assert r.status_code == 200
    assert r["Content-Type"] == "text/html; charset=utf-8"
    texto = _texto(r)
    assert "Firma válida" in texto
    for dato in (
        "María Fernanda López Rincón",
        "Ordenador del gasto",
        "2025-03-04 10:06:07",
        "hora de Colombia",
        "Certificado de Disponibilidad Presupuestal (CDP)",
        f"CDP-2025-{area_firmable.pk:04d}",
        f"RAD-2025-{area_firmable.pk:05d}",
        "Prestación de servicios profesionales para la gestión documental",
        "Expedido",
        str(firma.token),
    ):
        assert dato in texto, dato
    assert "Firmas vigentes del documento</dt><dd>2</dd>" in texto
    assert "La firma fue anulada." not in texto


def test_the_page_is_branded_and_readable_on_a_phone(client, area_firmable):
    marca = Marca.cargar()
    marca.nombre = "Alcaldía de Villa Esperanza"
    marca.nombre_entidad = "Alcaldía Municipal de Villa Esperanza"
    marca.save()
    r = client.get(f"{PAGINA}{firmar(area_firmable).token}")
    texto = _texto(r)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in texto
    assert "<title>Firma válida · Alcaldía de Villa Esperanza</title>" in texto
    assert "Alcaldía Municipal de Villa Esperanza" in texto


def test_an_annulled_signature_says_so_clearly(client, area_firmable):
    firma = firma_anulada(area_firmable, motivo="Nota interna 4711 del comité")
    r = client.get(f"{PAGINA}{firma.token}")
    assert r.status_code == 200
    texto = _texto(r)
    assert "La firma fue anulada." in texto
    assert "Firma válida" not in texto
    assert "María Fernanda López Rincón" in texto
    assert "Firmas vigentes del documento</dt><dd>0</dd>" in texto
    assert "4711" not in texto  # the reason is internal


@pytest.mark.parametrize("token", ["uuid", "no-es-un-codigo", "a/b", "/"])
def test_an_unknown_or_malformed_code_is_a_clear_404_page(client, area_firmable, token):
    firmar(area_firmable)
    codigo = str(uuid.uuid4()) if token == "uuid" else token
    r = client.get(f"{PAGINA}{codigo}")
    assert r.status_code == 404
    assert r["Content-Type"] == "text/html; charset=utf-8"
    texto = _texto(r)
    assert "Firma no encontrada" in texto
    assert "Desconfíe del documento." in texto
    assert "María Fernanda" not in texto


def test_what_people_wrote_is_escaped(client, area_firmable):
    area_firmable.nombre = '<script>alert("objeto")</script>'
    area_firmable.save()
    firma = firmar(area_firmable, firmante="<img src=x onerror=alert(1)>", rol="<b>Rol</b>")
    crudo = client.get(f"{PAGINA}{firma.token}").content.decode()
    assert "<script>alert" not in crudo and "<img src=x" not in crudo and "<b>Rol" not in crudo
    assert "&lt;img src=x onerror=alert(1)&gt;" in crudo
    r = client.get(f"{PAGINA}%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert r.status_code == 404
    assert "<script>alert(1)" not in r.content.decode()


def test_the_page_is_neither_cached_nor_indexed_nor_leaks_its_address(client, area_firmable):
    for ruta in (f"{PAGINA}{firmar(area_firmable).token}", f"{PAGINA}{uuid.uuid4()}"):
        r = client.get(ruta)
        assert r["Cache-Control"] == "no-store"
        assert r["X-Robots-Tag"] == "noindex, nofollow"
        assert r["Referrer-Policy"] == "no-referrer"


def test_the_page_shares_the_api_bucket_and_answers_429_as_a_page(client, area_firmable):
    firma = firmar(area_firmable)
    for n in range(60):
        ruta = PAGINA if n % 2 else API
        r = client.get(f"{ruta}{firma.token}")
        assert r.status_code == 200
    assert r["X-RateLimit-Remaining"] == "0"
    r = client.get(f"{PAGINA}{firma.token}")
    assert r.status_code == 429
    assert r["Content-Type"] == "text/html; charset=utf-8"
    assert 1 <= int(r["Retry-After"]) <= 60
    assert r["X-RateLimit-Limit"] == "60"
    assert "Demasiadas consultas" in _texto(r)
    assert "María Fernanda" not in _texto(r)
    assert client.get(f"{API}{firma.token}").status_code == 429


def test_other_methods_are_405(client, area_firmable):
    firma = firmar(area_firmable)
    assert client.post(f"{PAGINA}{firma.token}").status_code == 405
    assert client.head(f"{PAGINA}{firma.token}").status_code == 200


def test_a_movement_shows_its_type_in_words(client, documento_calidad_firmable):
    r = client.get(f"{PAGINA}{firmar(documento_calidad_firmable).token}")
    assert "Movimiento de CDP: adición" in _texto(r)
    assert "Aprobado" in _texto(r)


@pytest.mark.parametrize(
    ("tipo", "nombre"),
    [
        ("paa", "Línea del Plan Anual de Adquisiciones (PAA)"),
        ("rp", "Registro Presupuestal (RP)"),
        ("rp_obligacion", "Movimiento de RP: obligación"),
        ("cdp_traslado_interno", "Movimiento de CDP: traslado interno"),
        ("acta_de_inicio", "Acta de inicio"),
        (None, "Documento"),
    ],
)
def test_document_types_read_as_words(tipo, nombre):
    from apps.firmas.views import nombre_tipo

    assert nombre_tipo(tipo) == nombre


def test_unknown_summary_fields_are_shown_and_nested_and_empty_ones_skipped():
    from apps.firmas.views import filas_documento

    filas = filas_documento(
        {"tipo": "rp", "numero_rp": "RP-7", "fecha_inicio": None, "extra": {"a": 1}, "ok": True}
    )
    assert filas == [
        ("Tipo de documento", "Registro Presupuestal (RP)"),
        ("Número de RP", "RP-7"),
        ("Ok", "Sí"),
    ]


def test_an_unknown_code_names_the_issuing_entity_with_an_article(client, db):
    from tests.marca.factories import cambiar_marca

    cambiar_marca(nombre_entidad="Instituto Distrital de Gestión Pública")
    texto = _texto(client.get(f"{PAGINA}{uuid.uuid4()}"))
    assert "registrada por la entidad Instituto Distrital de Gestión Pública." in texto
    assert "registrada por Instituto" not in texto
