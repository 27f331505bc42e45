"""The person's open sessions: ending every one but the current (after a password change)."""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

LOTE = 500


@transaction.atomic
def cerrar_otras_sesiones(*, usuario, conservar: str | None) -> int:
    """Delete the unexpired sessions of `usuario` except `conservar` (a session key); how many.

    The database sessions keep the user only inside their signed data, so the live ones are read
    in batches and decoded. Django would already refuse them at their next request (the session
    keeps a hash of the old password); deleting them ends them now, and leaves no row behind.
    """
    propio = str(usuario.pk)
    vigentes = Session.objects.filter(expire_date__gt=timezone.now())
    if conservar:
        vigentes = vigentes.exclude(session_key=conservar)
    ajenas = [
        sesion.session_key
        for sesion in vigentes.only("session_key", "session_data").iterator(chunk_size=LOTE)
        if str(sesion.get_decoded().get(SESSION_KEY)) == propio
    ]
    Session.objects.filter(session_key__in=ajenas).delete()
    return len(ajenas)
