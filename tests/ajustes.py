"""Settings of the test run: the project's own, with a throwaway SECRET_KEY when none is set.

Outside DEBUG the project refuses to start without SECRET_KEY, as production must; a test run is
not DEBUG, so it brings its own key (random per run: nothing signed by a test is reused).
"""

from __future__ import annotations

import os
import secrets

os.environ.setdefault("SECRET_KEY", "pruebas-" + secrets.token_urlsafe(48))

from hub.settings import *  # noqa: F403

# Tests read mail.outbox right after a request: the sign-in pages' mail is sent as the answer
# closes, not by the mail thread (tests/cuentas/test_clave_olvidada.py turns the thread on).
HUB_CORREO_EN_SEGUNDO_PLANO = False
