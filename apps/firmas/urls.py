from __future__ import annotations

app_name = "firmas"
urlpatterns: list = []
