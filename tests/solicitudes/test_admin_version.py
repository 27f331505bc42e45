"""The admin obeys the rule of the request page (issue 35, item 1): its change form carries the
request's version it was drawn for; saved after a transition it acts on nothing, and a change it
saves makes every form drawn before it stale. It offers no way to move or sign a stage."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from apps.solicitudes import services
from apps.solicitudes.errores import SolicitudCambio
from apps.solicitudes.models import Solicitud

pytestmark = pytest.mark.django_db


def _formulario(pagina: str) -> dict[str, str]:
    """The inputs of the admin's change form as the browser would post them."""
    datos = {}
    for etiqueta in re.findall(r"<input[^>]*>", pagina):
        nombre = re.search(r'name="([^"]+)"', etiqueta)
        if nombre is None or re.search(r'type="(checkbox|submit|button)"', etiqueta):
            continue
        valor = re.search(r'value="([^"]*)"', etiqueta)
        datos[nombre[1]] = html.unescape(valor[1]) if valor else ""
    return datos


def test_a_change_form_drawn_before_a_transition_saves_nothing(admin_client, flujo):
    s = flujo.radicar()
    url = reverse("admin:solicitudes_solicitud_change", args=[s.pk])
    datos = _formulario(admin_client.get(url).content.decode())
    assert datos["version_formulario"] == str(s.version)
    services.avanzar(solicitud=s, actor=flujo.responsables[0])
    datos["resumen"] = "Resumen corregido por el administrador"
    r = admin_client.post(url, datos)
    assert r.status_code == 200
    assert "La solicitud cambió mientras usted la veía: nada se guardó." in html.unescape(
        r.content.decode()
    )
    s.refresh_from_db()
    assert s.resumen == "Certificado laboral para trámite bancario"
    assert s.etapa_actual.orden == 2


def test_a_change_saved_in_the_admin_makes_the_forms_drawn_before_it_stale(admin_client, flujo):
    s = flujo.radicar()
    dibujada = s.version
    url = reverse("admin:solicitudes_solicitud_change", args=[s.pk])
    datos = _formulario(admin_client.get(url).content.decode())
    datos["resumen"] = "Resumen corregido por el administrador"
    r = admin_client.post(url, datos)
    assert r.status_code == 302, r.content.decode()[:2000]
    s.refresh_from_db()
    assert (s.resumen, s.version) == ("Resumen corregido por el administrador", dibujada + 1)
    with pytest.raises(SolicitudCambio):
        services.avanzar(solicitud=s, actor=flujo.responsables[0], version=dibujada)
    assert Solicitud.objects.get(pk=s.pk).etapa_actual.orden == 1
