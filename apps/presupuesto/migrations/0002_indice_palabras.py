"""The word index of the search columns on PostgreSQL (hub/busqueda/columnas.py); nothing on SQLite."""

from django.db import migrations

from hub.busqueda.columnas import IndicePalabras


class Migration(migrations.Migration):
    dependencies = [("presupuesto", "0001_initial")]

    operations = [
        IndicePalabras(model_name="proyecto", nombre="presupuesto_proyecto_palabras"),
        IndicePalabras(model_name="lineapaa", nombre="presupuesto_linea_palabras"),
        IndicePalabras(model_name="cdp", nombre="presupuesto_cdp_palabras"),
        IndicePalabras(model_name="rp", nombre="presupuesto_rp_palabras"),
    ]
