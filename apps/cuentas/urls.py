from __future__ import annotations

from django.urls import path

from apps.cuentas import views

# The accounts' own pages; apps.portal.urls serves them under /cuentas/ (namespace "cuentas")
# beside the pages that gather other apps (sign-in, profile, activity).
urlpatterns = [
    path("logout/", views.SalidaView.as_view(), name="logout"),
    path("clave/cambiar/", views.CambioContrasenaView.as_view(), name="clave_cambiar"),
    path("clave/olvido/", views.OlvidoView.as_view(), name="clave_olvido"),
    path("clave/enviada/", views.EnviadoView.as_view(), name="clave_enviada"),
    path("clave/<uidb64>/<token>/", views.NuevaContrasenaView.as_view(), name="clave_nueva"),
    path("clave/lista/", views.ListaView.as_view(), name="clave_lista"),
    path("desbloquear/<str:secreto>/", views.desbloquear, name="desbloquear"),
]
