"""The brand as the interface publishes it (output of GET /api/v1/auth/marca)."""

from __future__ import annotations

from rest_framework import serializers

COLOR = r"^#[0-9A-Fa-f]{6}$"


class Marca(serializers.Serializer):
    """Brand identity: `data` of GET /auth/api/v1/auth/marca."""

    modo = serializers.ChoiceField(choices=["hub", "comarca", "marca_blanca"])
    nombre = serializers.CharField()
    tagline = serializers.CharField(allow_null=True)
    nombre_entidad = serializers.CharField(allow_null=True)
    color_primario = serializers.RegexField(COLOR, help_text="#RRGGBB")
    color_acento = serializers.RegexField(COLOR, help_text="#RRGGBB")
    logo_url = serializers.URLField(
        allow_null=True, help_text="Dirección del archivo (endpoint de imagen, con ?v=version)."
    )
    isotipo_url = serializers.URLField(allow_null=True)
    favicon_url = serializers.URLField(allow_null=True)
    logo_tipo = serializers.CharField(allow_null=True, help_text="svg, png, ico o webp.")
    isotipo_tipo = serializers.CharField(allow_null=True)
    favicon_tipo = serializers.CharField(allow_null=True)
    login_titulo = serializers.CharField()
    login_bullets = serializers.ListField(child=serializers.CharField())
    contacto_correo = serializers.CharField(allow_null=True)
    contacto_sitio = serializers.CharField(allow_null=True)
    con_tecnologia_hub = serializers.BooleanField()
    es_default = serializers.BooleanField()
    version = serializers.RegexField(
        r"^[0-9a-f]{16}$", help_text="Huella de la marca; cambia con cada cambio; igual al ETag."
    )
