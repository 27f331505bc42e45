"""The JSON parser of the API: hostile bodies become 400 JSON_INVALIDO, never a 500."""

from __future__ import annotations

from rest_framework import exceptions, parsers


class ParserJSON(parsers.JSONParser):
    """DRF's JSONParser, plus: UTF-8 always, and nesting that exhausts the stack is malformed."""

    def parse(self, stream, media_type=None, parser_context=None):
        # JSON is UTF-8 (RFC 8259: a charset parameter has no effect), as /api/mcp reads it: DRF
        # would decode with the charset the client names, storing "PÃ©rez" for a mislabelled body.
        contexto = {**(parser_context or {}), "encoding": "utf-8"}
        try:
            return super().parse(stream, media_type, contexto)
        except RecursionError:
            raise exceptions.ParseError("El JSON está anidado demasiado profundo.") from None
