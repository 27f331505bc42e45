"""A NUL byte in an admin query string: the admin's own answer to a filter it cannot apply.

PostgreSQL cannot take NUL in a text query, so `?request_id=%00` on any admin list was a 500
there (SQLite let it through). Django's admin answers wacky lookups with a redirect to the
unfiltered list flagged `?e=1`; a NUL anywhere in the query (filter, search, key) gets the same,
on every database, before the view runs any query of its own. It wraps the admin's views
(`hub.administracion.sitio.SitioAdmin.admin_view`), so no other request passes through it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect


def _con_nul(request: HttpRequest) -> bool:
    return any("\x00" in k or any("\x00" in v for v in vs) for k, vs in request.GET.lists())


def sin_nulos(vista: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An admin view that redirects a request whose query holds NUL to its path with ?e=1."""

    @functools.wraps(vista)
    def envuelta(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if _con_nul(request):
            return HttpResponseRedirect(f"{request.path}?e=1")
        return vista(request, *args, **kwargs)

    return envuelta
