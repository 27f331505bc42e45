"""Settings of the test run: the project's own, with a throwaway SECRET_KEY when none is set.

Outside DEBUG the project refuses to start without SECRET_KEY, as production must; a test run is
not DEBUG, so it brings its own key (random per run: nothing signed by a test is reused).
"""

from __future__ import annotations

import os
import secrets

os.environ.setdefault("SECRET_KEY", "pruebas-" + secrets.token_urlsafe(48))

from hub.settings import *  # noqa: F403
