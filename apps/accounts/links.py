"""Signed links sent by email (password reset), from Django's PasswordResetTokenGenerator.

A link names the user (`uid`, the id in base64url) and carries a token: an HMAC of the company's
schema, the user's id, password hash, token version and email, and the time it was made. It is
therefore bound to the company and to the address it was sent to, expires after
PASSWORD_RESET_TIMEOUT seconds, and works once: setting the password changes the hash and the
token version, which the token was made from."""
from __future__ import annotations

from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import connection
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode


class _PasswordResetTokens(PasswordResetTokenGenerator):
    key_salt = "cms.accounts.links.password-reset"

    def _make_hash_value(self, user, timestamp):
        return f"{connection.schema_name}:{user.pk}:{user.password}:{user.token_version}:{user.email}:{timestamp}"


password_reset_tokens = _PasswordResetTokens()


def uid_encode(pk) -> str:
    return urlsafe_base64_encode(force_bytes(str(pk)))


def uid_decode(uid: str) -> str | None:
    try:
        return force_str(urlsafe_base64_decode(uid))
    except (ValueError, TypeError):
        return None
