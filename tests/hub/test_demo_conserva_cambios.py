"""`make run` runs demo_data every time: the second run must leave what administrators changed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from apps.cuentas.models import Area, User
from apps.marca import selectors as marca
from apps.marca import services as marca_servicios
from apps.marca.demo import MARCA_DEMO
from apps.presupuesto.models import Vigencia

pytestmark = pytest.mark.django_db

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99"
    b"=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"
)


def test_a_second_run_keeps_the_brand_roles_areas_and_vigencia_an_administrator_changed(
    tmp_path,
):
    call_command("demo_data", salida=str(tmp_path / "uno.json"))
    assert marca.construir_publica()["datos"]["color_primario"] == MARCA_DEMO["color_primario"]

    # What an administrator changes in the admin.
    marca_servicios.actualizar_marca(cambios={"color_primario": "#123456", "nombre": "Mi hub"})
    marca_servicios.guardar_imagen(slot="logo", datos=PNG)
    logo = marca.construir_publica()["imagenes"]["logo"]
    rol = Group.objects.get(name="Planeación presupuestal")
    rol.permissions.clear()
    limitado = User.objects.get(username="limitado")
    limitado.areas.set([Area.objects.get(sigla="OTI")])
    limitado.groups.clear()
    Vigencia.objects.update(activa=False)

    call_command("demo_data", salida=str(tmp_path / "dos.json"))

    publica = marca.construir_publica()
    assert publica["datos"]["color_primario"] == "#123456"
    assert publica["datos"]["nombre"] == "Mi hub"
    assert publica["imagenes"]["logo"] == logo  # the PNG the administrator uploaded
    assert rol.permissions.count() == 0
    assert list(limitado.areas.values_list("sigla", flat=True)) == ["OTI"]
    assert limitado.groups.count() == 0
    assert not Vigencia.objects.filter(activa=True).exists()
    # The demo itself is still whole: its people and credentials are there.
    assert (tmp_path / "dos.json").read_text() == (tmp_path / "uno.json").read_text()


def test_the_first_run_sets_up_the_brand_roles_and_people(tmp_path):
    call_command("demo_data", salida=str(tmp_path / "demo.json"))
    assert marca.construir_publica()["datos"]["nombre"] == MARCA_DEMO["nombre"]
    assert Group.objects.get(name="Planeación presupuestal").permissions.count() == 2
    assert list(User.objects.get(username="limitado").areas.values_list("sigla", flat=True)) == [
        "GTH"
    ]
    assert Vigencia.objects.filter(activa=True).count() == 1
