from __future__ import annotations

app_name = "presupuesto"
urlpatterns: list = []
