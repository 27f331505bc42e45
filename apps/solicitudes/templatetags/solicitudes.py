"""`{% load solicitudes %}`: what the top menu shows of the requests domain."""

from __future__ import annotations

from django import template

from apps.solicitudes import selectors

register = template.Library()

BANDEJA = "solicitudes.bandeja.ver"  # the permission of mis_tareas and of «Mis tareas»


@register.simple_tag(takes_context=True)
def total_mis_tareas(context) -> int | None:
    """`{% total_mis_tareas as n %}`: the pending tasks of the person's inbox, or None without
    the inbox permission (the menu then has no «Mis tareas»). Counted once per request."""
    request = context.get("request")
    usuario = context.get("user")
    if usuario is None or not usuario.is_authenticated or not usuario.has_perm(BANDEJA):
        return None
    guardado = getattr(request, "_hub_total_tareas", None)
    if guardado is None:
        guardado = selectors.total_bandeja(usuario)
        if request is not None:
            request._hub_total_tareas = guardado
    return guardado
