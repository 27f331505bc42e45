"""Client ID metadata documents: on by default from any public host, off or limited to the hosts
listed by the administrator, with the same redirect rule as registration (the library's fetcher
stubbed, except where its refusal of non-public addresses is the point)."""

from __future__ import annotations

import pytest
from oauth2_provider import cimd
from oauth2_provider.models import Grant

from apps.autorizacion.models import Aplicacion
from apps.mcp.models import AjustesAsistente
from tests.autorizacion.factories import REDIRECCION
from tests.autorizacion.flujo import Pedido
from tests.mcp_cliente import ajustar

pytestmark = pytest.mark.django_db

DOCUMENTO = "https://cliente.example/oauth/metadata.json"


@pytest.fixture
def documentos(monkeypatch):
    """The documents "on the web": URL -> metadata."""
    publicados: dict[str, dict] = {}

    def leer(self, client_id):
        return publicados[client_id], 3600

    monkeypatch.setattr(cimd.SafeMetadataFetcher, "fetch", leer)
    return publicados


def _publicar(documentos, url: str = DOCUMENTO, redireccion: str = REDIRECCION) -> None:
    documentos[url] = {
        "client_id": url,
        "client_name": "Cliente CIMD",
        "redirect_uris": [redireccion],
        "token_endpoint_auth_method": "none",
    }


def test_a_listed_host_connects_with_its_metadata_document(sesion, documentos):
    ajustar(oauth_cimd_habilitado=True, oauth_cimd_dominios=["cliente.example"])
    _publicar(documentos)
    r = sesion.get(Pedido(client_id=DOCUMENTO).url())
    assert r.status_code == 200 and "Cliente CIMD" in r.content.decode()
    app = Aplicacion.objects.get(client_id=DOCUMENTO)
    assert app.registration_source == "cimd" and app.client_type == "public"


def test_a_host_not_listed_is_refused(sesion, documentos):
    ajustar(oauth_cimd_habilitado=True, oauth_cimd_dominios=["otro.example"])
    _publicar(documentos)
    r = sesion.get(Pedido(client_id=DOCUMENTO).url())
    assert r.status_code in (400, 401) and not Aplicacion.objects.exists()


def test_a_document_with_a_non_loopback_http_redirect_is_refused(sesion, documentos):
    ajustar(oauth_cimd_habilitado=True, oauth_cimd_dominios=["cliente.example"])
    _publicar(documentos, redireccion="http://cliente.example/cb")
    r = sesion.get(Pedido(client_id=DOCUMENTO, redirect_uri="http://cliente.example/cb").url())
    assert r.status_code in (400, 401) and not Aplicacion.objects.exists()
    assert not Grant.objects.exists()


def test_switching_documents_off_stops_a_client_that_came_through_one(sesion, documentos):
    ajustar(oauth_cimd_habilitado=True, oauth_cimd_dominios=["cliente.example"])
    _publicar(documentos)
    assert sesion.get(Pedido(client_id=DOCUMENTO).url()).status_code == 200
    ajustar(oauth_cimd_habilitado=False)
    assert sesion.get(Pedido(client_id=DOCUMENTO).url()).status_code in (400, 401)


def test_documents_are_on_by_default_from_any_public_host(sesion, documentos):
    ajustes = AjustesAsistente.cargar()
    assert ajustes.oauth_cimd_habilitado is True and ajustes.oauth_cimd_dominios == []
    _publicar(documentos)
    assert sesion.get(Pedido(client_id=DOCUMENTO).url()).status_code == 200
    assert Aplicacion.objects.get(client_id=DOCUMENTO).registration_source == "cimd"


@pytest.mark.parametrize(
    "documento", ["https://127.0.0.1/cliente.json", "https://localhost/cliente.json"]
)
def test_the_fetcher_never_reaches_a_non_public_address(sesion, documento):
    """The library's hardened fetcher, not stubbed: a loopback host is refused before any
    connection, and the request is an unknown client."""
    r = sesion.get(Pedido(client_id=documento).url())
    assert r.status_code == 400 and "Location" not in r
    assert not Aplicacion.objects.exists()
