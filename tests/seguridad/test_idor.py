"""IDOR: every identifier a caller can send reaches only records the caller may see or act on,
checked from three sides (owner, colleague with permission, outsider)."""

from __future__ import annotations

import re

import pytest

from apps.mcp.models import TokenPersonal
from apps.solicitudes import services as solicitudes
from apps.solicitudes.models import Comentario
from tests.factories import UserFactory
from tests.mcp.factories import nuevo_token
from tests.mcp_cliente import URL
from tests.seguridad import PLANEACION, USAR, como, llamar_con_id, mundo, resultado

pytestmark = pytest.mark.django_db
PERFIL = "/cuentas/perfil/"


@pytest.fixture
def m():
    return mundo()


def _codigo(r) -> str | None:
    hecho = resultado(r)
    return hecho["structuredContent"].get("codigo") if hecho["isError"] else None


# --- requests -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "nombre,extra",
    [
        ("estado_solicitud", {}),
        ("resumen_solicitud", {"incluir_comentarios": True}),
        ("comentar_solicitud", {"comentario": "¿Cómo va mi trámite?"}),
    ],
)
def test_a_request_answers_its_filer_and_a_colleague_with_ver_todas_but_not_an_outsider(
    client, m, nombre, extra
):
    argumentos = {"numero_radicado": m["propia"].numero_radicado, **extra}
    assert _codigo(llamar_con_id(client, nombre, argumentos, **como(m["duena"]))) is None
    assert _codigo(llamar_con_id(client, nombre, argumentos, **como(m["colega"]))) is None
    assert _codigo(llamar_con_id(client, nombre, argumentos, **como(m["extrano"]))) == (
        "NO_ENCONTRADO"
    )


def test_an_outsider_cannot_confirm_a_comment_with_the_owners_confirmation_token(client, m):
    argumentos = {"numero_radicado": m["propia"].numero_radicado, "comentario": "Lo apruebo yo."}
    duena = como(m["duena"])  # a confirmation is bound to the credential that asked for it
    previa = resultado(llamar_con_id(client, "comentar_solicitud", argumentos, **duena))
    token = previa["structuredContent"]["token_confirmacion"]
    confirmar = {**argumentos, "confirmar": True, "token_confirmacion": token}
    r = llamar_con_id(client, "comentar_solicitud", confirmar, **como(m["extrano"]))
    assert resultado(r)["isError"] is True
    assert Comentario.objects.filter(solicitud=m["propia"]).count() == 0
    # The owner's own confirmation still works afterwards: the token was not spent by the attack.
    r = llamar_con_id(client, "comentar_solicitud", confirmar, **duena)
    assert resultado(r)["isError"] is False
    assert Comentario.objects.filter(solicitud=m["propia"]).count() == 1


def test_an_outsider_cannot_reuse_their_own_preview_token_on_someone_elses_request(client, m):
    suya = solicitudes.radicar(tipo=m["tipo"], solicitante=m["extrano"], resumen="Mi trámite")
    extrano = como(m["extrano"])
    argumentos = {"numero_radicado": suya.numero_radicado, "comentario": "Texto inocente."}
    previa = resultado(llamar_con_id(client, "comentar_solicitud", argumentos, **extrano))
    assert previa["isError"] is False  # a preview: the token is bound to those arguments
    ajena = {
        "numero_radicado": m["propia"].numero_radicado,
        "comentario": "Texto inocente.",
        "confirmar": True,
        "token_confirmacion": previa["structuredContent"]["token_confirmacion"],
    }
    r = llamar_con_id(client, "comentar_solicitud", ajena, **extrano)
    assert resultado(r)["isError"] is True
    assert Comentario.objects.count() == 0


# --- budget ----------------------------------------------------------------------------------


@pytest.mark.parametrize("nombre,clave", [("estado_cdp", "cdp"), ("estado_rp", "rp")])
def test_a_budget_document_answers_its_area_and_all_areas_but_not_another_area(
    client, m, nombre, clave
):
    numero = m[clave].numero
    todas = UserFactory(permisos=[USAR, PLANEACION, "presupuesto.areas.todas"])
    assert _codigo(llamar_con_id(client, nombre, {"numero": numero}, **como(m["duena"]))) is None
    assert _codigo(llamar_con_id(client, nombre, {"numero": numero}, **como(todas))) is None
    r = llamar_con_id(client, nombre, {"numero": numero}, **como(m["extrano"]))
    assert _codigo(r) == "NO_ENCONTRADO"
    assert m["oap"].nombre not in r.content.decode()


def test_the_other_areas_cdp_is_visible_to_its_own_area_only(client, m):
    numero = m["cdp_oti"].numero
    assert (
        _codigo(llamar_con_id(client, "estado_cdp", {"numero": numero}, **como(m["extrano"])))
        is None
    )
    assert _codigo(llamar_con_id(client, "estado_cdp", {"numero": numero}, **como(m["duena"]))) == (
        "NO_ENCONTRADO"
    )


# --- the profile page: revoking a token by id -----------------------------------------------


def _vigente(token: TokenPersonal) -> bool:
    token.refresh_from_db()
    return token.revocado_en is None


def _usa(client, secreto: str) -> int:
    cuerpo = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
    r = client.post(
        URL, data=cuerpo, content_type="application/json", headers={"X-MCP-User-Token": secreto}
    )
    return r.status_code


@pytest.mark.parametrize("confirmado", ["", "si"])
def test_revoking_another_persons_token_by_id_is_404_and_leaves_it_active(client, m, confirmado):
    ajeno, secreto = nuevo_token(m["duena"], nombre="Token de la dueña")
    client.force_login(m["extrano"])
    r = client.post(
        PERFIL, {"accion": "revocar", "token_id": str(ajeno.pk), "confirmado": confirmado}
    )
    assert r.status_code == 404
    assert "Token de la dueña" not in r.content.decode()
    assert _vigente(ajeno)
    client.logout()
    assert _usa(client, secreto) == 200


def test_revoking_ones_own_token_by_id_works_so_the_404_is_about_ownership(client, m):
    propio, secreto = nuevo_token(m["extrano"], nombre="Mi portátil")
    client.force_login(m["extrano"])
    r = client.post(PERFIL, {"accion": "revocar", "token_id": str(propio.pk), "confirmado": "si"})
    assert r.status_code == 302
    assert not _vigente(propio)
    client.logout()
    assert _usa(client, secreto) == 401


def test_an_unknown_token_id_answers_exactly_like_another_persons(client, m):
    ajeno, _ = nuevo_token(m["duena"])
    client.force_login(m["extrano"])
    a = client.post(PERFIL, {"accion": "revocar", "token_id": str(ajeno.pk), "confirmado": "si"})
    b = client.post(PERFIL, {"accion": "revocar", "token_id": "987654", "confirmado": "si"})
    assert a.status_code == b.status_code == 404
    # Byte for byte, once what every answer has of its own (CSP nonce, request id, the masked
    # CSRF token of the sign-out form) is set aside.
    assert _sin_lo_de_cada_respuesta(a) == _sin_lo_de_cada_respuesta(b)


def _sin_lo_de_cada_respuesta(r) -> str:
    texto = r.content.decode().replace(r["X-Request-ID"], "<id>")
    texto = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "csrf", texto)
    return re.sub(r'nonce="[^"]*"', 'nonce=""', texto)


def test_the_profile_page_lists_only_ones_own_tokens(client, m):
    nuevo_token(m["duena"], nombre="Token secreto de la dueña")
    nuevo_token(m["extrano"], nombre="Token del extraño")
    client.force_login(m["extrano"])
    pagina = client.get(PERFIL).content.decode()
    assert "Token del extraño" in pagina
    assert "Token secreto de la dueña" not in pagina
