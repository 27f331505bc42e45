"""The word index of the search columns on PostgreSQL (hub/busqueda/columnas.py); nothing on SQLite."""

from django.db import migrations

from hub.busqueda.columnas import IndicePalabras


class Migration(migrations.Migration):
    dependencies = [("solicitudes", "0001_initial")]

    operations = [
        IndicePalabras(model_name="solicitud", nombre="sol_sol_palabras"),
    ]
