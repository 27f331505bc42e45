from __future__ import annotations

app_name = "solicitudes"
urlpatterns: list = []
