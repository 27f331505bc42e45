"""The limit: a bare Django view with no middleware, and the two floors with a shared limit
(plain and DRF), served under the same gunicorn settings."""
