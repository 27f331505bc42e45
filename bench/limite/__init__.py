"""The limit: a bare Django view with no middleware, served under the same gunicorn settings."""
