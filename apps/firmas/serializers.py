"""A signature as public verification shows it (output of GET .../firmas/verificar/{token})."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field(
    {
        "type": "object",
        "description": "Resumen del documento firmado; los campos distintos de `tipo` varían con "
        "el tipo (linea, radicado, numero_cdp, numero_rp, objeto, estado...).",
        "properties": {
            "tipo": {
                "type": "string",
                "description": "paa, cdp, rp, o un movimiento cdp_<tipo> / rp_<tipo>.",
            }
        },
        "required": ["tipo"],
        "additionalProperties": True,
    }
)
class DocumentoFirmado(serializers.DictField):
    """The signed document's summary: `tipo` plus the fields of that type, passed as they are."""


class Verificacion(serializers.Serializer):
    """Signature verification: `data` of GET .../firmas/verificar/{token}."""

    valido = serializers.BooleanField(help_text="false cuando la firma fue anulada.")
    anulada = serializers.BooleanField()
    firmante = serializers.CharField()
    rol = serializers.CharField()
    firmado_en = serializers.RegexField(
        r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$",
        help_text="YYYY-MM-DD HH:MM:SS, hora local del servidor.",
    )
    documento = DocumentoFirmado()
    total_firmas = serializers.IntegerField(min_value=0)
