"""A signed-in user typing their own password again (before a sensitive change: their email or
password, turning two-factor sign-in off, deleting the company), throttled as failed logins are.
Used by the account services and by two-factor sign-in (apps.accounts.two_factor), which the
services use in turn: it is its own module so that neither imports the other inside a function."""
from __future__ import annotations

from functools import cache

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import connection

from apps.accounts.models import User
from apps.core import ratelimit
from apps.core.errors import RateLimited

CURRENT_PASSWORD_WRONG = "Current password is incorrect"


def password_confirms(user: User, password: str) -> bool:
    """Whether a signed-in user typed their own password again (before a sensitive change). Wrong
    guesses are throttled per user as failed logins are (LOGIN_MAX_FAILURES per
    LOGIN_FAILURE_WINDOW): 429 once they are used up."""
    limit = ratelimit.rate(settings.LOGIN_MAX_FAILURES, settings.LOGIN_FAILURE_WINDOW)
    key = ("current-password-failures", connection.schema_name, str(user.pk))
    wait = ratelimit.is_blocked(limit, *key)
    if wait:
        raise too_many(wait)
    if check_password(password, user.password):
        return True
    ratelimit.hit(limit, *key)
    return False


def password_matches(password: str, encoded: str | None) -> bool:
    """Whether `password` matches an account's stored hash; with no account (`encoded` None) it is
    compared with a hash made for that, so an unknown account takes as long as a wrong password."""
    return check_password(password, encoded if encoded is not None else _unknown_account_hash())


@cache
def _unknown_account_hash() -> str:
    """Made on the first sign-in that names no account, not when the module is imported: an argon2
    hash takes 19 MiB while it runs, and a second one in a process (the operator console's) left
    that much in the heap of every web worker that preloaded both."""
    return make_password("not-a-real-password")


def too_many(wait: int, attempts: str = "attempts") -> RateLimited:
    return RateLimited(f"Too many failed {attempts}. Please try again in {ratelimit.wait_phrase(wait)}.",
                       retry_after=wait)
