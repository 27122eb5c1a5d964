"""Signed session tokens (JWT, HS256 only).

Every token names its signing key in the `kid` header: a fingerprint of the key, never the key.
Verification accepts the current key (JWT_SECRET) and, until JWT_PREVIOUS_SECRETS_UNTIL, the
previous ones (JWT_PREVIOUS_SECRETS), so an operator rotates the key without signing everyone
out. A token whose lifetime (exp - iat) is above JWT_MAX_LIFETIME, or that was issued in the
future, is refused whatever its signature.
"""
from __future__ import annotations

import base64
import hashlib
import time
from datetime import datetime, timezone

import jwt
from django.conf import settings

ALGORITHM = "HS256"
CLOCK_SKEW_SECONDS = 30
INVALID = "Invalid authentication token"
EXPIRED = "Your session has expired. Please log in again."


class TokenInvalid(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def key_id(secret: str) -> str:
    """A short public fingerprint of a signing key (sha256, 96 bits, base64url)."""
    digest = hashlib.sha256(b"cms-jwt-kid:" + secret.encode()).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode().rstrip("=")


def verification_keys(now: datetime | None = None) -> dict[str, str]:
    """kid -> key of every key a token may be signed with right now (current first)."""
    keys = {key_id(settings.JWT_SECRET): settings.JWT_SECRET}
    until = settings.JWT_PREVIOUS_SECRETS_UNTIL
    if until is not None and (now or datetime.now(timezone.utc)) < until:
        for secret in settings.JWT_PREVIOUS_SECRETS:
            keys.setdefault(key_id(secret), secret)
    return keys


def token_issue(*, user, schema_name: str, expires_in: int | None = None, extra: dict | None = None) -> tuple[str, int]:
    """A session token; `expires_in` shorter than JWT_EXPIRES_IN and `extra` claims for a support
    session (apps.accounts.support)."""
    expires_in = min(int(expires_in), settings.JWT_EXPIRES_IN) if expires_in is not None else settings.JWT_EXPIRES_IN
    now = int(time.time())
    payload = {
        "userId": str(user.id),
        "username": user.username,
        "role": user.role,
        "tenant": schema_name,
        "tv": user.token_version,
        "iat": now,
        "exp": now + expires_in,
        **(extra or {}),
    }
    secret = settings.JWT_SECRET
    return jwt.encode(payload, secret, algorithm=ALGORITHM, headers={"kid": key_id(secret)}), expires_in


def token_decode(token: str) -> dict:
    try:
        kid = jwt.get_unverified_header(token).get("kid")
    except jwt.PyJWTError as exc:
        raise TokenInvalid(INVALID) from exc
    keys = verification_keys()
    # Tokens issued before key ids existed carry none: only the current key may have signed them.
    secret = keys.get(kid) if kid else settings.JWT_SECRET
    if secret is None:
        raise TokenInvalid(EXPIRED if isinstance(kid, str) else INVALID)
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            leeway=CLOCK_SKEW_SECONDS,
            options={"require": ["exp", "iat", "userId", "tenant"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise TokenInvalid(EXPIRED) from exc
    except jwt.PyJWTError as exc:
        raise TokenInvalid(INVALID) from exc
    if not isinstance(claims["iat"], int) or not isinstance(claims["exp"], int):
        raise TokenInvalid(INVALID)
    if claims["exp"] - claims["iat"] > settings.JWT_MAX_LIFETIME or claims["iat"] > time.time() + CLOCK_SKEW_SECONDS:
        raise TokenInvalid(INVALID)
    return claims
