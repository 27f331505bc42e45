"""Observability: log lines, Prometheus metrics, health and ping."""
