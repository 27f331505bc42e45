"""A page of ids and its rows in one statement (hub/lecturas.py): PostgreSQL's lateral join."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import DatabaseError, connection
from django.db.models import F

from hub.lecturas import admite_lateral, fila_por_pk, filas_de_pagina
from tests.factories import GroupFactory

pytestmark = pytest.mark.django_db


def test_the_rows_come_in_the_pages_order_descending_included(django_assert_num_queries):
    for nombre in ("b", "d", "a", "c"):
        GroupFactory(name=nombre)
    pagina = Group.objects.values_list("id", "name").order_by("-name")[1:3]
    if connection.vendor != "postgresql":
        # SQLite has no lateral join: its callers read the ids and the rows in two queries.
        assert admite_lateral(pagina) is False
        with pytest.raises(DatabaseError):
            filas_de_pagina(pagina, Group.objects.values("name", "id"))
        return
    assert admite_lateral(pagina) is True
    with django_assert_num_queries(1):
        filas = filas_de_pagina(pagina, Group.objects.values("name", "id"))
    assert filas == [
        {"name": "c", "id": Group.objects.get(name="c").pk},
        {"name": "b", "id": Group.objects.get(name="b").pk},
    ]


def test_a_page_ordered_by_a_column_it_does_not_select_is_refused():
    pagina = Group.objects.values_list("id").order_by("name")[:2]
    with pytest.raises(ValueError, match="name"):
        filas_de_pagina(pagina, Group.objects.values("name"))


def test_a_page_ordered_by_an_expression_is_refused():
    pagina = Group.objects.values_list("id").order_by(F("id").desc())[:2]
    with pytest.raises(ValueError, match="no selecciona"):
        filas_de_pagina(pagina, Group.objects.values("name"))


def test_the_outer_column_must_be_an_alias_and_a_column_name():
    with pytest.raises(ValueError, match="columna"):
        fila_por_pk(Group.objects.values("name"), "puesto", "id; DROP TABLE auth_group")


def test_a_page_without_an_order_of_its_own_is_refused():
    # Group has no Meta.ordering, and a page in no order would come back in any order.
    with pytest.raises(ValueError, match="orden"):
        filas_de_pagina(Group.objects.values_list("id")[:2], Group.objects.values("name"))
