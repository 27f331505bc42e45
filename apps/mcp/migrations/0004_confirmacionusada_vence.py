from datetime import timedelta

from django.db import migrations, models
from django.db.models import F

# The longest validity a confirmation token could have had (AjustesAsistente.confirmacion_segundos
# is at most 3600): a token spent before this version cannot be presented after usada_en + 1 h.
VIGENCIA_MAXIMA = timedelta(hours=1)


def llenar(apps, schema_editor):
    ConfirmacionUsada = apps.get_model("mcp", "ConfirmacionUsada")
    ConfirmacionUsada.objects.update(vence=F("usada_en") + VIGENCIA_MAXIMA)


class Migration(migrations.Migration):
    dependencies = [
        ("mcp", "0003_registroauditoria_request_id_recibido"),
    ]

    operations = [
        migrations.AddField(
            model_name="confirmacionusada",
            name="vence",
            field=models.DateTimeField(db_index=True, null=True),
        ),
        migrations.RunPython(llenar, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="confirmacionusada",
            name="vence",
            field=models.DateTimeField(db_index=True),
        ),
    ]
