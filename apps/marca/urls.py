from __future__ import annotations

app_name = "marca"
urlpatterns: list = []
