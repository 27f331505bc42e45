"""Cache settings the tests switch to."""

from __future__ import annotations

# A Redis that never answers (port 1): what every request sees while the shared cache is down.
CACHE_MUERTA = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}
