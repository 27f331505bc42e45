from __future__ import annotations

import json
import uuid

import pytest

from apps.firmas.models import Firma
from apps.firmas.selectors import resumen_verificacion
from hub.models import Limites
from tests.factories import UserFactory
from tests.firmas.factories import firma_anulada, firmar

pytestmark = pytest.mark.django_db

API = "/presupuesto/api/v1/firmas/verificar/"
ALIAS = "/presupuesto/api/v1/paa/firmas/verificar/"
CAMPOS = {"valido", "anulada", "firmante", "rol", "firmado_en", "documento", "total_firmas"}


def test_a_valid_signature_answers_200_with_the_interface_data(api, area_firmable):
    firma = firmar(area_firmable)
    r = api.get(f"{API}{firma.token}")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json"
    assert r["Cache-Control"] == "no-store"
    assert r.json() == {
        "success": True,
        "data": {
            "valido": True,
            "anulada": False,
            "firmante": "María Fernanda López Rincón",
            "rol": "Ordenador del gasto",
            "firmado_en": "2025-03-04 10:06:07",
            "documento": {
                "tipo": "cdp",
                "numero_cdp": f"CDP-2025-{area_firmable.pk:04d}",
                "radicado": f"RAD-2025-{area_firmable.pk:05d}",
                "objeto": "Prestación de servicios profesionales para la gestión documental",
                "estado": "expedido",
            },
            "total_firmas": 1,
        },
        "message": "Firma válida.",
    }


def test_the_data_keys_and_types_are_exactly_the_interface(api, area_firmable):
    firmar(area_firmable, rol="Jefe de presupuesto")
    firma = firmar(area_firmable)
    data = api.get(f"{API}{firma.token}").json()["data"]
    assert set(data) == CAMPOS
    assert type(data["valido"]) is bool and type(data["anulada"]) is bool
    assert type(data["total_firmas"]) is int and data["total_firmas"] == 2
    assert isinstance(data["firmante"], str) and isinstance(data["rol"], str)
    assert isinstance(data["documento"], dict) and isinstance(data["documento"]["tipo"], str)
    assert len(data["firmado_en"]) == 19


def test_an_annulled_signature_answers_200_with_its_message(api, area_firmable):
    firma = firma_anulada(area_firmable, motivo="Nota interna 4711 del comité")
    firmar(area_firmable, firmante="Otra persona")
    r = api.get(f"{API}{firma.token}")
    assert r.status_code == 200
    cuerpo = r.json()
    assert cuerpo["success"] is True
    assert cuerpo["message"] == "La firma fue anulada."
    assert cuerpo["data"]["valido"] is False
    assert cuerpo["data"]["anulada"] is True
    assert cuerpo["data"]["total_firmas"] == 1
    assert set(cuerpo["data"]) == CAMPOS
    # The reason of the annulment is internal.
    assert "4711" not in r.content.decode()


def test_the_paa_alias_answers_byte_for_byte_the_same(api, area_firmable):
    valida, anulada = firmar(area_firmable), firma_anulada(area_firmable)
    for token in (valida.token, anulada.token, uuid.uuid4(), "no-es-un-uuid"):
        a, b = api.get(f"{API}{token}"), api.get(f"{ALIAS}{token}")
        assert (a.status_code, a.content) == (b.status_code, b.content)
        assert a["Content-Type"] == b["Content-Type"]


def test_an_unknown_token_is_404_firma_no_encontrada(api, area_firmable):
    firmar(area_firmable)
    r = api.get(f"{API}{uuid.uuid4()}")
    assert r.status_code == 404
    assert r.json() == {
        "success": False,
        "error": {
            "code": "FIRMA_NO_ENCONTRADA",
            "detalle": "No existe una firma con ese código de verificación.",
        },
        "message": "No existe una firma con ese código de verificación.",
    }
    assert r["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    "token",
    [
        "abc",
        "",
        "00000000-0000-0000-0000-000000000000",
        "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
        "x" * 2000,
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "a/b/c",
        "1' OR '1'='1",
        "%00",
        "ñandú",
    ],
)
def test_a_malformed_token_gets_exactly_the_unknown_answer(api, area_firmable, token):
    firmar(area_firmable)
    desconocido = api.get(f"{API}{uuid.uuid4()}")
    r = api.get(f"{API}{token}")
    assert r.status_code == 404
    assert r.content == desconocido.content


def test_a_token_in_upper_case_or_without_hyphens_still_verifies(api, area_firmable):
    firma = firmar(area_firmable)
    for escrito in (str(firma.token).upper(), firma.token.hex):
        assert api.get(f"{API}{escrito}").json()["data"]["valido"] is True


def test_an_unknown_and_a_malformed_token_cost_the_same_single_query(
    django_assert_num_queries, area_firmable
):
    firmar(area_firmable)
    with django_assert_num_queries(1):
        assert resumen_verificacion(str(uuid.uuid4())) is None
    with django_assert_num_queries(1):
        assert resumen_verificacion("no-es-un-uuid") is None


def test_verification_costs_three_queries_whatever_the_number_of_signatures(
    django_assert_num_queries, area_firmable, documento_calidad_firmable
):
    firma = firmar(area_firmable)
    with django_assert_num_queries(3):
        assert resumen_verificacion(str(firma.token))["total_firmas"] == 1
    for n in range(10):
        firmar(area_firmable, firmante=f"Persona {n}")
        firmar(documento_calidad_firmable, firmante=f"Persona {n}")
    firma_anulada(area_firmable)
    with django_assert_num_queries(3):
        assert resumen_verificacion(str(firma.token))["total_firmas"] == 11


def test_nothing_personal_beyond_name_and_role_leaves(api, area_firmable):
    usuario = UserFactory(username="mflopez", email="mflopez@entidad.gov.co", cargo="Secretaria")
    firma = firmar(area_firmable, usuario=usuario)
    Firma.objects.filter(pk=firma.pk).update(imagen="firmas/2025/03/mflopez.png")
    r = api.get(f"{API}{firma.token}")
    texto = r.content.decode()
    for secreto in ("mflopez", "entidad.gov.co", "Secretaria", ".png", str(usuario.pk) + ","):
        assert secreto not in texto
    assert set(r.json()["data"]) == CAMPOS
    assert set(r.json()) == {"success", "data", "message"}


def test_the_object_is_shortened_and_cleaned_of_invisible_characters(api, area_firmable):
    area_firmable.nombre = "Objeto\u202e largo " + "palabra " * 17
    area_firmable.save()
    firma = firmar(area_firmable)
    objeto = api.get(f"{API}{firma.token}").json()["data"]["documento"]["objeto"]
    assert len(objeto) == 120
    assert objeto.endswith("…")
    assert "\u202e" not in objeto
    assert objeto.startswith("Objeto largo palabra")


def test_local_time_is_bogota_and_formatted_with_seconds(api, area_firmable):
    import datetime

    firma = firmar(
        area_firmable, firmado_en=datetime.datetime(2025, 12, 31, 23, 59, 58, tzinfo=datetime.UTC)
    )
    assert api.get(f"{API}{firma.token}").json()["data"]["firmado_en"] == "2025-12-31 18:59:58"


def test_a_signature_whose_document_was_deleted_is_not_found(api, documento_calidad_firmable):
    firma = firmar(documento_calidad_firmable)
    documento_calidad_firmable.delete()
    r = api.get(f"{API}{firma.token}")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "FIRMA_NO_ENCONTRADA"


@pytest.mark.parametrize("metodo", ["post", "put", "patch", "delete"])
def test_other_methods_get_the_405_envelope(api, area_firmable, metodo):
    firma = firmar(area_firmable)
    r = getattr(api, metodo)(f"{API}{firma.token}", data="{}", content_type="application/json")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"
    assert r["Allow"] == "GET, HEAD"


def test_a_real_client_posting_without_csrf_token_also_gets_the_405_envelope(area_firmable):
    from django.test import Client

    firma = firmar(area_firmable)
    r = Client(enforce_csrf_checks=True).post(f"{API}{firma.token}")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"


def test_head_is_accepted(api, area_firmable):
    firma = firmar(area_firmable)
    assert api.head(f"{API}{firma.token}").status_code == 200


def test_head_answers_the_get_headers_without_a_body(api, area_firmable):
    firma = firmar(area_firmable)
    get = api.get(f"{API}{firma.token}")
    r = api.head(f"{API}{firma.token}")
    assert r.status_code == 200
    assert r.content == b""
    for cabecera in ("Content-Type", "Content-Length", "Cache-Control"):
        assert r[cabecera] == get[cabecera]


@pytest.mark.parametrize("ruta", [API, ALIAS])
def test_options_and_trace_get_the_405_envelope_with_allow(api, area_firmable, ruta):
    firma = firmar(area_firmable)
    for metodo in ("OPTIONS", "TRACE"):
        r = api.generic(metodo, f"{ruta}{firma.token}")
        assert r.status_code == 405
        assert r.json()["error"]["code"] == "METODO_NO_PERMITIDO"
        assert r["Allow"] == "GET, HEAD"


def test_accept_query_and_if_none_match_change_nothing(api, area_firmable):
    firma = firmar(area_firmable)
    esperado = api.get(f"{API}{firma.token}").content
    for extra in (
        {"HTTP_ACCEPT": "application/xml"},
        {"HTTP_ACCEPT": "text/html;q=0.9, */*;q=0.1"},
        {"HTTP_IF_NONE_MATCH": "*"},
        {"QUERY_STRING": "token=otro&x=%00"},
    ):
        r = api.get(f"{API}{firma.token}", **extra)
        assert (r.status_code, r["Content-Type"], r.content) == (200, "application/json", esperado)
        assert r["Cache-Control"] == "no-store"


class TestLimite:
    def test_sixty_per_minute_then_429_with_retry_after(self, api, area_firmable):
        firma = firmar(area_firmable)
        for n in range(60):
            r = api.get(f"{API}{firma.token}")
            assert r.status_code == 200
            assert r["X-RateLimit-Limit"] == "60"
            assert r["X-RateLimit-Remaining"] == str(59 - n)
        r = api.get(f"{API}{firma.token}")
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "RATE_LIMIT"
        assert r.json()["success"] is False
        assert 1 <= int(r["Retry-After"]) <= 60
        assert r["X-RateLimit-Limit"] == "60"
        assert r["X-RateLimit-Remaining"] == "0"

    def test_unknown_tokens_count_too(self, api, area_firmable):
        for _ in range(60):
            assert api.get(f"{API}{uuid.uuid4()}").status_code == 404
        assert api.get(f"{API}{firmar(area_firmable).token}").status_code == 429

    def test_the_alias_shares_the_bucket_and_each_ip_has_its_own(self, api, area_firmable):
        firma = firmar(area_firmable)
        for n in range(60):
            ruta = API if n % 2 else ALIAS
            assert api.get(f"{ruta}{firma.token}", REMOTE_ADDR="10.1.1.1").status_code == 200
        assert api.get(f"{ALIAS}{firma.token}", REMOTE_ADDR="10.1.1.1").status_code == 429
        assert api.get(f"{API}{firma.token}", REMOTE_ADDR="10.1.1.2").status_code == 200

    def test_the_administrator_can_change_the_limit(self, api, area_firmable):
        limites = Limites.cargar()
        limites.verificacion_por_minuto = 2
        limites.save()
        firma = firmar(area_firmable)
        assert api.get(f"{API}{firma.token}")["X-RateLimit-Limit"] == "2"
        assert api.get(f"{API}{firma.token}").status_code == 200
        r = api.get(f"{API}{firma.token}")
        assert r.status_code == 429
        assert json.loads(r.content)["error"]["code"] == "RATE_LIMIT"
