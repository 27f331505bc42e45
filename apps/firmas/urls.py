from __future__ import annotations

from django.urls import path, re_path

from apps.firmas import api, views

app_name = "firmas"

# Any text after the prefix (empty, malformed, with slashes or line breaks) reaches the view, which
# answers FIRMA_NO_ENCONTRADA exactly as for a well-formed unknown code. ([\s\S], not ".": a dot
# stops at a line break, and such a path fell to the generic 404 without Cache-Control.)
CUALQUIER_TEXTO = r"(?P<token>[\s\S]*)"
urlpatterns = [
    re_path(
        rf"^api/v1/firmas/verificar/{CUALQUIER_TEXTO}$",
        api.VerificarFirmaAPI.as_view(),
        name="verificar",
    ),
    re_path(
        rf"^api/v1/paa/firmas/verificar/{CUALQUIER_TEXTO}$",
        api.VerificarFirmaPaaAPI.as_view(),
        name="verificar_paa",
    ),
    path("verificar/", views.formulario_verificacion, name="formulario_verificacion"),
    re_path(
        rf"^verificar/{CUALQUIER_TEXTO}$", views.pagina_verificacion, name="pagina_verificacion"
    ),
]
