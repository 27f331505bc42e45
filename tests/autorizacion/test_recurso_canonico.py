"""The `resource` parameter in its canonical form, handed to the library as Django hands it."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from apps.autorizacion.servidor import con_recursos_canonicos
from apps.mcp import recurso


@pytest.mark.django_db
def test_a_trailing_slash_on_the_mcp_resource_is_dropped_and_the_rest_is_kept():
    mcp = recurso.url_recurso()
    q = QueryDict(mutable=True)
    q.setlist("resource", [mcp + "/", "https://otro.example/x"])
    q["client_id"] = "abc"
    q["scope"] = "hub:leer hub:escribir"
    canonicos = con_recursos_canonicos(q)
    assert canonicos.getlist("resource") == [mcp, "https://otro.example/x"]
    assert canonicos["client_id"] == "abc"
    assert canonicos["scope"] == "hub:leer hub:escribir"


@pytest.mark.django_db
def test_the_canonical_parameters_are_immutable_like_request_get():
    q = QueryDict("resource=https://otro.example/x&state=%C3%B1")
    canonicos = con_recursos_canonicos(q)
    assert canonicos["state"] == "ñ"
    with pytest.raises(AttributeError):
        canonicos["resource"] = "cambiado"
