"""Checks of the hub's HTTP envelope in tests."""

from __future__ import annotations


def error_del_sobre(r, status: int, code: str) -> dict:
    """A failure in the envelope: this status and code, JSON, no data, a Spanish detail and
    message. Returns the body."""
    assert r.status_code == status, r.content
    assert r["Content-Type"] == "application/json"
    cuerpo = r.json()
    assert cuerpo["success"] is False
    assert "data" not in cuerpo
    assert cuerpo["error"]["code"] == code
    assert isinstance(cuerpo["error"]["detalle"], str) and cuerpo["error"]["detalle"]
    assert isinstance(cuerpo["message"], str)
    return cuerpo
