from __future__ import annotations

app_name = "calidad"
urlpatterns: list = []
