"""The base of every v1 envelope endpoint: a public DRF view, JSON only, with its rate limits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.request import Request
from rest_framework.views import APIView

from hub.cache.lote import Pedido, limite_conjeturado
from hub.http import limites
from hub.http.limites import Regla, Uso
from hub.http.parsers import ParserJSON
from hub.http.respuestas import RenderizadorJSON


class SinNegociar(BaseContentNegotiation):
    """The interface's answers do not depend on Accept: JSON (or the image) for every client.

    Monitors, QR scanners and browsers send all kinds of Accept headers; DRF's negotiation would
    turn some of them into 406 where the interface promises 200.
    """

    def select_parser(self, request: Request, parsers: Sequence[Any]) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Request, renderers: Sequence[Any], format_suffix=None):
        return renderers[0], renderers[0].media_type


class VistaPublica(APIView):
    """A public v1 endpoint: no authentication, permission or session work; JSON envelope.

    `reglas` are the endpoint's own rate limits, counted after the method is known to be served
    (a 405 costs no count) and before the handler runs; their X-RateLimit-* headers go on every
    answer. `falla_cerrado` turns a dead cache into 503 instead of serving without the limit.
    """

    authentication_classes: Sequence[type] = ()
    permission_classes: Sequence[type] = ()
    throttle_classes: Sequence[type] = ()
    renderer_classes: Sequence[type] = (RenderizadorJSON,)
    parser_classes: Sequence[type] = (ParserJSON,)
    content_negotiation_class = SinNegociar
    http_method_names = ["get", "head"]
    reglas: Sequence[Regla] = ()
    falla_cerrado = False

    @classmethod
    def declarar(cls, request: HttpRequest, kwargs: dict[str, Any], pedido: Pedido) -> None:
        """The request's batch (hub.cache.lote): this view's own limits (each at the value this
        process last counted it with: a guess), and the keys `lecturas` names."""
        if request.method.lower() not in cls.http_method_names:
            return  # a 405 counts nothing and reads nothing
        for regla in cls.reglas:
            grupo = regla.grupo
            pedido.contar(grupo, regla.clave(request), limite_conjeturado(grupo), regla.ventana)
        pedido.leer(cls.lecturas(request, **kwargs))

    @classmethod
    def lecturas(cls, request: HttpRequest, **kwargs: Any) -> list[str]:
        """Cache keys the view will read (for its batch, `declarar`); none by default."""
        return []

    def perform_authentication(self, request: Request) -> None:
        # Public: no credential is read, and `request.user` is never asked for (DRF then
        # authenticates lazily, on first access, which never comes).
        pass

    @property
    def default_response_headers(self) -> dict[str, str]:
        # DRF would add Allow (and Vary) to every answer; the interface names Allow on 405 only.
        return {}

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.uso: Uso | None = None
        metodo = request.method.lower()
        if self.reglas and metodo in self.http_method_names and hasattr(self, metodo):
            self.uso = limites.aplicar(request, self.reglas, falla_cerrado=self.falla_cerrado)

    def finalize_response(
        self, request: Request, response: HttpResponse, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        response = super().finalize_response(request, response, *args, **kwargs)
        return limites.poner_cabeceras(response, getattr(self, "uso", None))
