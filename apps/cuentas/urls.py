from __future__ import annotations

from django.urls import path

from apps.cuentas import acceso_conexion, actividad, perfil, views

app_name = "cuentas"
urlpatterns = [
    path("login/", views.IngresoView.as_view(), name="login"),
    path("logout/", views.SalidaView.as_view(), name="logout"),
    path("perfil/", perfil.perfil, name="perfil"),
    path("perfil/actividad/", actividad.actividad_asistente, name="actividad"),
    path("clave/cambiar/", views.CambioContrasenaView.as_view(), name="clave_cambiar"),
    path(
        "perfil/aplicaciones/<int:aplicacion_id>/acceso/",
        acceso_conexion.acceso_conexion,
        name="acceso_conexion",
    ),
    path("clave/olvido/", views.OlvidoView.as_view(), name="clave_olvido"),
    path("clave/enviada/", views.EnviadoView.as_view(), name="clave_enviada"),
    path("clave/<uidb64>/<token>/", views.NuevaContrasenaView.as_view(), name="clave_nueva"),
    path("clave/lista/", views.ListaView.as_view(), name="clave_lista"),
    path("desbloquear/<str:secreto>/", views.desbloquear, name="desbloquear"),
]
