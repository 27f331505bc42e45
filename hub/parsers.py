"""The JSON parser of the API: hostile bodies become 400 JSON_INVALIDO, never a 500."""

from __future__ import annotations

from rest_framework import exceptions, parsers


class ParserJSON(parsers.JSONParser):
    """DRF's JSONParser, plus: nesting deep enough to exhaust the stack is malformed input."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("El JSON está anidado demasiado profundo.") from None
