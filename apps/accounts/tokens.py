"""Signed session tokens (JWT, HS256 only)."""
from __future__ import annotations

import time

import jwt
from django.conf import settings

ALGORITHM = "HS256"


class TokenInvalid(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def token_issue(*, user, schema_name: str) -> tuple[str, int]:
    expires_in = settings.JWT_EXPIRES_IN
    now = int(time.time())
    payload = {
        "userId": str(user.id),
        "username": user.username,
        "role": user.role,
        "tenant": schema_name,
        "tv": user.token_version,
        "iat": now,
        "exp": now + expires_in,
    }
    return jwt.encode(payload, settings.JWT_SECRET, algorithm=ALGORITHM), expires_in


def token_decode(token: str) -> dict:
    try:
        return jwt.decode(
            token,
            settings.JWT_SECRET,
            algorithms=[ALGORITHM],
            options={"require": ["exp", "iat", "userId", "tenant"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise TokenInvalid("Your session has expired. Please log in again.") from exc
    except jwt.PyJWTError as exc:
        raise TokenInvalid("Invalid authentication token") from exc
