from __future__ import annotations

app_name = "notificaciones"
urlpatterns: list = []
