from __future__ import annotations

from django.urls import re_path

from apps.firmas import api, views

app_name = "firmas"

# Any text after the prefix (empty, malformed, with slashes) reaches the view, which answers
# FIRMA_NO_ENCONTRADA exactly as for a well-formed unknown code.
urlpatterns = [
    re_path(r"^api/v1/firmas/verificar/(?P<token>.*)$", api.verificar, name="verificar"),
    re_path(r"^api/v1/paa/firmas/verificar/(?P<token>.*)$", api.verificar, name="verificar_paa"),
    re_path(r"^verificar/(?P<token>.*)$", views.pagina_verificacion, name="pagina_verificacion"),
]
