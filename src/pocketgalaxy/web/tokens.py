"""Seat and creator tokens: random, shown once, stored only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh unguessable token (32 url-safe characters)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest we store instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Constant-time check of a presented token against a stored hash."""
    if not token or not stored_hash or not isinstance(token, str):
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
