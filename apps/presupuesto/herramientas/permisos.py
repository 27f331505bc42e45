"""The permissions the budget tools and screens ask for."""

from __future__ import annotations

PLANEACION = "presupuesto.planeacion.consultar"
REPORTES = "presupuesto.reportes.consultar"
PERSONALIZADOS = "presupuesto.reportes.personalizados"
