from __future__ import annotations

app_name = "mcp"
urlpatterns: list = []
