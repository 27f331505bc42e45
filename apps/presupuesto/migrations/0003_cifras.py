"""Budget figures kept on write by PostgreSQL triggers (apps/presupuesto/models/cifras.py).

The model is unmanaged: on PostgreSQL this migration creates the table, the triggers and the
figures of the rows already stored; SQLite has neither (its dashboard groups the rows).
"""

from django.db import migrations, models


def instalar(apps, schema_editor):
    from apps.presupuesto.models import cifras

    if schema_editor.connection.vendor == "postgresql":
        for sql in cifras.instalar_sql():
            schema_editor.execute(sql)


def quitar(apps, schema_editor):
    from apps.presupuesto.models import cifras

    if schema_editor.connection.vendor == "postgresql":
        for sql in cifras.quitar_sql():
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("presupuesto", "0002_indice_palabras")]

    operations = [
        migrations.CreateModel(
            name="Cifra",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "vigencia",
                        "fuente",
                        "proyecto",
                        "area",
                        "estado",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("fuente", models.CharField(max_length=20)),
                ("estado", models.CharField(max_length=30)),
                ("cantidad", models.BigIntegerField()),
                ("valor", models.DecimalField(decimal_places=2, max_digits=30)),
                ("obligado", models.DecimalField(decimal_places=2, max_digits=30)),
            ],
            options={
                "verbose_name": "cifra",
                "verbose_name_plural": "cifras",
                "db_table": "presupuesto_cifra",
                "managed": False,
            },
        ),
        migrations.RunPython(instalar, quitar),
    ]
