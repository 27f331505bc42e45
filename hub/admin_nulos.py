"""A NUL byte in an admin query string: the admin's own answer to a filter it cannot apply.

PostgreSQL cannot take NUL in a text query, so `?request_id=%00` on any admin list was a 500
there (SQLite let it through). Django's admin answers wacky lookups with a redirect to the
unfiltered list flagged `?e=1`; a NUL anywhere in the query (filter, search, key) gets the same,
on every database, before any query runs.
"""

from __future__ import annotations

import functools

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse


@functools.cache
def _prefijo_admin() -> str:
    return reverse("admin:index")


def _con_nul(request: HttpRequest) -> bool:
    return any("\x00" in k or any("\x00" in v for v in vs) for k, vs in request.GET.lists())


def admin_sin_nulos(get_response):
    """Middleware: redirect an admin request whose query holds NUL to its path with ?e=1."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path.startswith(_prefijo_admin()) and _con_nul(request):
            return HttpResponseRedirect(f"{request.path}?e=1")
        return get_response(request)

    return middleware
