"""`{% load marca %}{% marca_actual as marca %}`: the brand without the context processor."""

from __future__ import annotations

from typing import Any

from django import template

from apps.marca.context_processors import marca_para_plantilla

register = template.Library()


@register.simple_tag(takes_context=True)
def marca_actual(context: template.Context) -> Any:
    """The brand already in the context (context processor or view), or read now."""
    existente = context.get("marca")
    if existente is not None:
        return existente
    return marca_para_plantilla(context.get("request"))
