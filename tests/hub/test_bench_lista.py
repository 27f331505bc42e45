"""The bench's list-page row: its session (bench.datos sesion) signs the person in, and its
path answers the searched list, not a redirect to sign in."""

from __future__ import annotations

import pytest
from django.test import Client

from bench import peticiones as p
from bench.datos import sesion
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_bench_session_opens_the_searched_list_page():
    UserFactory(username=p.USUARIO_PAGINAS, permisos=["solicitudes.ver_todas"])
    cookie = sesion(p.USUARIO_PAGINAS)
    assert cookie.startswith("sessionid=")
    r = Client().get(p.RUTA_LISTA, headers={"Cookie": cookie})
    assert r.status_code == 200
    assert 'id="resultados"' in r.content.decode()
    assert r.context["lectura"].datos["texto"] == p.TEXTO_BUSCAR


def test_without_the_session_the_row_would_fail_its_check():
    r = Client().get(p.RUTA_LISTA)
    assert r.status_code == 302
