"""Enumeration: a record that does not exist and one the caller may not see answer the very
same bytes (status, isError, codigo, texts, structuredContent) in every id-taking tool and in
the public signature verification."""

from __future__ import annotations

import uuid

import pytest

from apps.cuentas.models import Area
from apps.mcp.models import RegistroAuditoria
from apps.solicitudes.models import Comentario
from tests.conftest import limpiar_cache
from tests.factories import AreaFactory
from tests.firmas.factories import firmar
from tests.seguridad import (
    CORREO_EXTERNO,
    como,
    llamar_con_id,
    mundo,
    numero_inexistente,
    resultado,
)

pytestmark = pytest.mark.django_db

API_FIRMAS = "/presupuesto/api/v1/firmas/verificar/"
ALIAS_FIRMAS = "/presupuesto/api/v1/paa/firmas/verificar/"


@pytest.fixture
def m():
    return mundo()


def _iguales(client, nombre: str, existente: dict, inexistente: dict, cabeceras) -> dict:
    """Call both with the same JSON-RPC id; assert identical answers; return the tool result."""
    a = llamar_con_id(client, nombre, existente, id_=77, **cabeceras)
    b = llamar_con_id(client, nombre, inexistente, id_=77, **cabeceras)
    assert a.status_code == b.status_code == 200
    assert a["Content-Type"] == b["Content-Type"]
    assert a.content == b.content, (a.content, b.content)
    hecho = resultado(a)
    assert hecho["isError"] is True
    return hecho


def _sin_rastro_del_documento(hecho: dict, *textos: str) -> None:
    """The refusal does not echo what the caller may not see (no resumen, no area, no amounts)."""
    crudo = str(hecho)
    for texto in textos:
        assert texto not in crudo, texto


def test_estado_solicitud_with_a_user_answers_the_same_bytes_for_missing_and_foreign(client, m):
    numero = m["propia"].numero_radicado
    hecho = _iguales(
        client,
        "estado_solicitud",
        {"numero_radicado": numero},
        {"numero_radicado": numero_inexistente(numero)},
        como(m["extrano"]),
    )
    assert hecho["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    assert hecho["structuredContent"]["encontrado"] is False
    _sin_rastro_del_documento(hecho, "Certificado para el banco", "Certificado laboral")


def test_estado_solicitud_without_a_user_answers_the_same_bytes_for_missing_and_wrong_email(
    client, m
):
    numero = m["externa"].numero_radicado
    cabeceras = m["clave"]
    hecho = _iguales(
        client,
        "estado_solicitud",
        {"numero_radicado": numero, "correo_solicitante": "otra@correo.example"},
        {"numero_radicado": numero_inexistente(numero), "correo_solicitante": CORREO_EXTERNO},
        cabeceras,
    )
    assert hecho["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    # ... while the right e-mail does find it: the refusals above were not a broken lookup.
    ok = llamar_con_id(
        client,
        "estado_solicitud",
        {"numero_radicado": numero, "correo_solicitante": CORREO_EXTERNO},
        **cabeceras,
    )
    assert resultado(ok)["isError"] is False


def test_resumen_solicitud_answers_the_same_bytes_for_missing_and_foreign(client, m):
    numero = m["propia"].numero_radicado
    hecho = _iguales(
        client,
        "resumen_solicitud",
        {"numero_radicado": numero, "incluir_comentarios": True},
        {"numero_radicado": numero_inexistente(numero), "incluir_comentarios": True},
        como(m["extrano"]),
    )
    assert hecho["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    _sin_rastro_del_documento(hecho, "Certificado para el banco")


def test_comentar_solicitud_preview_answers_the_same_bytes_for_missing_and_foreign(client, m):
    numero = m["propia"].numero_radicado
    antes = Comentario.objects.count()
    hecho = _iguales(
        client,
        "comentar_solicitud",
        {"numero_radicado": numero, "comentario": "¿Ya está listo?"},
        {"numero_radicado": numero_inexistente(numero), "comentario": "¿Ya está listo?"},
        como(m["extrano"]),
    )
    assert hecho["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    assert "token_confirmacion" not in hecho["structuredContent"]
    assert Comentario.objects.count() == antes


@pytest.mark.parametrize("campo", ["numero", "numero_externo"])
def test_estado_cdp_answers_the_same_bytes_for_missing_and_another_areas(client, m, campo):
    numero = getattr(m["cdp"], campo)
    hecho = _iguales(
        client,
        "estado_cdp",
        {"numero": numero},
        {"numero": numero_inexistente(numero)},
        como(m["extrano"]),
    )
    assert hecho["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    _sin_rastro_del_documento(hecho, "OAP", "1500000")


@pytest.mark.parametrize("campo", ["numero", "numero_externo"])
def test_estado_rp_answers_the_same_bytes_for_missing_and_another_areas(client, m, campo):
    numero = getattr(m["rp"], campo)
    hecho = _iguales(
        client,
        "estado_rp",
        {"numero": numero},
        {"numero": numero_inexistente(numero)},
        como(m["extrano"]),
    )
    assert hecho["structuredContent"]["codigo"] == "NO_ENCONTRADO"
    _sin_rastro_del_documento(hecho, "OAP", "500000", "Proveedora Andina")


def test_the_audit_cannot_tell_missing_from_foreign_either(client, m):
    numero = m["cdp"].numero
    cabeceras = como(m["extrano"])
    llamar_con_id(client, "estado_cdp", {"numero": numero}, **cabeceras)
    llamar_con_id(client, "estado_cdp", {"numero": numero_inexistente(numero)}, **cabeceras)
    assert list(RegistroAuditoria.objects.values_list("resultado", flat=True)) == [
        "NO_ENCONTRADO",
        "NO_ENCONTRADO",
    ]


def test_every_tool_still_answers_the_owner_so_the_refusals_are_about_visibility(client, m):
    cabeceras = como(m["duena"])
    numero = m["propia"].numero_radicado
    for nombre, argumentos in [
        ("estado_solicitud", {"numero_radicado": numero}),
        ("resumen_solicitud", {"numero_radicado": numero}),
        ("comentar_solicitud", {"numero_radicado": numero, "comentario": "¿Ya está listo?"}),
        ("estado_cdp", {"numero": m["cdp"].numero}),
        ("estado_rp", {"numero": m["rp"].numero}),
    ]:
        hecho = resultado(llamar_con_id(client, nombre, argumentos, **cabeceras))
        assert hecho["isError"] is False, (nombre, hecho)


# --- the public signature verification ------------------------------------------------------


def _resumen_area(self) -> dict:
    return {"tipo": "cdp", "numero_cdp": f"CDP-{self.pk}", "objeto": self.nombre}


@pytest.fixture
def firma_huerfana(monkeypatch):
    """A real signature whose signed document no longer exists (nothing left to vouch for)."""
    monkeypatch.setattr(Area, "resumen_firma", _resumen_area, raising=False)
    documento = AreaFactory(nombre="Documento que luego se borró")
    firma = firmar(documento)
    Area.objects.filter(pk=documento.pk).delete()
    return firma


@pytest.mark.parametrize("base", [API_FIRMAS, ALIAS_FIRMAS])
def test_signature_verification_answers_the_same_bytes_for_unknown_malformed_and_orphaned(
    client, firma_huerfana, base
):
    respuestas = [
        client.get(f"{base}{firma_huerfana.token}"),
        client.get(f"{base}{uuid.uuid4()}"),
        client.get(f"{base}no-es-un-uuid"),
        client.get(f"{base}{str(firma_huerfana.token).upper()}x"),
    ]
    for r in respuestas:
        assert r.status_code == 404
        assert r["Content-Type"] == "application/json"
        assert r["Cache-Control"] == "no-store"
        assert r.content == respuestas[0].content
    assert respuestas[0].json()["error"]["code"] == "FIRMA_NO_ENCONTRADA"
    assert "Documento que luego" not in respuestas[0].content.decode()


def test_a_live_signature_is_found_so_the_404s_above_are_not_a_broken_lookup(client, monkeypatch):
    monkeypatch.setattr(Area, "resumen_firma", _resumen_area, raising=False)
    firma = firmar(AreaFactory(nombre="Documento vigente"))
    limpiar_cache()
    r = client.get(f"{API_FIRMAS}{firma.token}")
    assert r.status_code == 200
    assert r.json()["data"]["documento"]["objeto"] == "Documento vigente"
