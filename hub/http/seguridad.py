"""Headers for browsers and caches: the pages' CSP, and no-store on authenticated answers."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# Headers that carry an assistant credential: the answer to such a request is personal.
CABECERAS_CREDENCIAL = ("HTTP_X_MCP_API_KEY", "HTTP_X_MCP_USER_TOKEN", "HTTP_AUTHORIZATION")
# Every answer of the assistant endpoint is personal or an authentication error.
RUTAS_PRIVADAS = ("/mcp/api/mcp",)
SIN_ALMACENAR = "no-store"


def nuevo_nonce() -> str:
    """A fresh, unguessable nonce for one response."""
    return secrets.token_urlsafe(18)


def politica(nonce: str, formularios_hacia: tuple[str, ...] = ()) -> str:
    """The pages' policy: only our own files, plus inline blocks that carry this response's nonce.

    No 'unsafe-inline' anywhere, the admin included: Django's admin has no inline script or
    style attribute, so one strict policy fits every page. `formularios_hacia`: origins a form
    of this page may end at (browsers apply form-action to the redirect after the POST too:
    the OAuth consent page sends people back to the client).
    """
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' 'nonce-{nonce}'",
            f"style-src 'self' 'nonce-{nonce}'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "frame-ancestors 'none'",
            " ".join(["form-action 'self'", *formularios_hacia]),
        ]
    )


def es_html(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip().lower() == "text/html"


def poner_csp(request: HttpRequest, response: HttpResponse) -> None:
    """Add the policy to an HTML answer, unless the view chose its own (brand SVG, API docs)."""
    if not es_html(response) or "Content-Security-Policy" in response:
        return
    # Django's debug pages (DEBUG only, never in production) are made of inline script and style;
    # the branded error pages that replace them under DEBUG carry their nonce like any page.
    if (
        settings.DEBUG
        and response.status_code >= 400
        and not getattr(response, "pagina_de_marca", False)
    ):
        return
    response["Content-Security-Policy"] = politica(request.csp_nonce)


def es_autenticada(request: HttpRequest) -> bool:
    """A credential came with the request, or the answer was made for a signed-in person."""
    if request.path in RUTAS_PRIVADAS:
        return True
    if any(request.META.get(cabecera) for cabecera in CABECERAS_CREDENCIAL):
        return True
    sesion = getattr(request, "session", None)
    # Only if the view read the session: an answer that never looked at it is the same for all.
    if sesion is None or not sesion.accessed:
        return False
    usuario = getattr(request, "user", None)
    return bool(usuario is not None and usuario.is_authenticated)


def poner_no_store(request: HttpRequest, response: HttpResponse) -> None:
    """Authenticated answers are never stored; an answer the view declared public is kept."""
    actual = response.get("Cache-Control", "")
    directivas = {d.split("=")[0].strip().lower() for d in actual.split(",")}
    if "no-store" in directivas or "public" in directivas:
        return
    if es_autenticada(request):
        response["Cache-Control"] = SIN_ALMACENAR


def nonce(request: HttpRequest) -> dict[str, str]:
    """Context processor: `{{ csp_nonce }}` for the rare inline <style> or <script> block."""
    return {"csp_nonce": getattr(request, "csp_nonce", "")}
