"""The keys of an integration, in Ghost's forms, and how their secrets are kept.

- Content API key: 26 hexadecimal digits (what Ghost's `@tryghost/content-api` insists on); stored
  as its SHA-256.
- Admin API key: `<id>:<secret>`, a 24-hex-digit id and a 64-hex-digit secret (32 bytes), the form
  Ghost's `@tryghost/admin-api` insists on. The tool signs each request's token (HS256) with the
  secret's bytes, so the server must read the secret back to check a token: it is stored encrypted
  with Fernet under a key derived from SECRET_KEY (and each of SECRET_KEY_FALLBACKS, so a rotation of
  SECRET_KEY that keeps the old one among the fallbacks still reads every stored secret). A
  database copy without the settings holds no usable secret. SECRET_KEY has no usable default
  outside development (config.settings refuses to start without it).
"""
from __future__ import annotations

import base64
import hashlib
import secrets as std_secrets

from django.conf import settings

CONTENT_KEY_BYTES = 13  # 26 hex digits
ADMIN_ID_BYTES = 12  # 24 hex digits
ADMIN_SECRET_BYTES = 32  # 64 hex digits
_LABEL = b"cms.integrations.admin-api-key:"


def new_content_key() -> str:
    return std_secrets.token_hex(CONTENT_KEY_BYTES)


def new_admin_key() -> tuple[str, str]:
    """(id, secret), each hexadecimal."""
    return std_secrets.token_hex(ADMIN_ID_BYTES), std_secrets.token_hex(ADMIN_SECRET_BYTES)


def content_key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def hint(value: str) -> str:
    """What is shown of a key after it was made: its last four digits."""
    return value[-4:]


def _fernet():
    from cryptography.fernet import Fernet, MultiFernet  # loaded by the Admin API only (not the content pool)

    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([Fernet(base64.urlsafe_b64encode(hashlib.sha256(_LABEL + str(key).encode()).digest()))
                        for key in keys])


def encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def decrypt(stored: str) -> str | None:
    """The secret, or None when it cannot be read (encrypted under a key no longer configured)."""
    from cryptography.fernet import InvalidToken

    if not stored:
        return None
    try:
        return _fernet().decrypt(stored.encode()).decode()
    except InvalidToken:
        return None
