"""/cuentas/: the accounts' own pages and, beside them, the person's pages that gather several
apps (sign-in, profile, assistant activity, a connection's access), in one namespace."""

from __future__ import annotations

from django.urls import path

from apps.cuentas import urls as cuentas
from apps.portal import acceso_conexion, actividad, ingreso, perfil

app_name = "cuentas"
urlpatterns = [
    path("login/", ingreso.IngresoView.as_view(), name="login"),
    path("perfil/", perfil.perfil, name="perfil"),
    path("perfil/actividad/", actividad.actividad_asistente, name="actividad"),
    path(
        "perfil/aplicaciones/<int:aplicacion_id>/acceso/",
        acceso_conexion.acceso_conexion,
        name="acceso_conexion",
    ),
    *cuentas.urlpatterns,
]
