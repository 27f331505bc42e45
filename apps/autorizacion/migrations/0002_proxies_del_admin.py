from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("autorizacion", "0001_initial"),
        ("oauth2_provider", "0022_refreshtoken_token_family_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="CodigoAutorizacion",
            fields=[],
            options={
                "verbose_name": "código de autorización OAuth",
                "verbose_name_plural": "códigos de autorización OAuth",
                "permissions": [
                    (
                        "delete_codigoautorizacion",
                        "Puede eliminar los códigos de autorización OAuth",
                    ),
                    ("view_codigoautorizacion", "Puede ver los códigos de autorización OAuth"),
                ],
                "proxy": True,
                "default_permissions": (),
                "indexes": [],
                "constraints": [],
            },
            bases=("oauth2_provider.grant",),
        ),
        migrations.CreateModel(
            name="TokenAcceso",
            fields=[],
            options={
                "verbose_name": "token de acceso OAuth",
                "verbose_name_plural": "tokens de acceso OAuth",
                "permissions": [
                    ("change_tokenacceso", "Puede cambiar los tokens de acceso OAuth"),
                    ("delete_tokenacceso", "Puede eliminar los tokens de acceso OAuth"),
                    ("view_tokenacceso", "Puede ver los tokens de acceso OAuth"),
                ],
                "proxy": True,
                "default_permissions": (),
                "indexes": [],
                "constraints": [],
            },
            bases=("oauth2_provider.accesstoken",),
        ),
        migrations.CreateModel(
            name="TokenRefresco",
            fields=[],
            options={
                "verbose_name": "token de refresco OAuth",
                "verbose_name_plural": "tokens de refresco OAuth",
                "permissions": [
                    ("change_tokenrefresco", "Puede cambiar los tokens de refresco OAuth"),
                    ("delete_tokenrefresco", "Puede eliminar los tokens de refresco OAuth"),
                    ("view_tokenrefresco", "Puede ver los tokens de refresco OAuth"),
                ],
                "proxy": True,
                "default_permissions": (),
                "indexes": [],
                "constraints": [],
            },
            bases=("oauth2_provider.refreshtoken",),
        ),
    ]
