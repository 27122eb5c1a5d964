"""The signing secrets, read once from the environment and refused when they are unsafe.

With DEBUG off, the web server, the workers, beat and every management command stop at start-up
(one line on stderr, exit status 2) when SECRET_KEY or JWT_SECRET is unset, shorter than
MIN_SECRET_BYTES, or one of the values that ship in this repository (the development default
below and the placeholders of the deployment examples). With DEBUG on (`make dev`) an unset
secret falls back to the development value, which is never accepted with DEBUG off.

The email provider's webhook secret (ANYMAIL's WEBHOOK_SECRET) is refused the same way, with DEBUG
off, when newsletters go through a provider (config.settings), and its webhook refuses every event
while it is missing (apps.newsletters.webhook_views).
"""
from __future__ import annotations

import os
import sys
from datetime import datetime, timezone

MIN_SECRET_BYTES = 32
HOW_TO_MAKE_ONE = 'python -c "import secrets; print(secrets.token_urlsafe(48))"'
DEVELOPMENT_SECRETS = {
    "SECRET_KEY": "dev-insecure-secret-key-change-me-in-production-0123456789",
    "JWT_SECRET": "dev-insecure-jwt-secret-change-me-in-production-0123456789",
}
# Values that are, or were, written in this repository (deployment examples, older defaults).
# None of them is ever accepted with DEBUG off, whatever its length.
PUBLISHED_SECRETS = frozenset({
    *DEVELOPMENT_SECRETS.values(),
    "change-me-in-production-please-0123456789abcdef",
    "replace-with-a-long-random-value",
    "replace-with-another-long-random-value",
    "hooks:a-long-random-secret",  # the webhook secret of docs/newsletters.md's examples
})


class RefusedSetting(Exception):
    """A setting the processes must not start with (the message names the variable)."""


def secret_problem(name: str, value: str) -> str | None:
    """Why `value` is not acceptable as the production value of `name`, or None."""
    if not value:
        return f"{name} is not set"
    if value in PUBLISHED_SECRETS:
        return f"{name} is a value published in the repository"
    if len(value.encode()) < MIN_SECRET_BYTES:
        return f"{name} is shorter than {MIN_SECRET_BYTES} bytes"
    return None


def webhook_secret_problem(anymail) -> str | None:
    """Why ANYMAIL's WEBHOOK_SECRET (the basic auth, `user:password` or a list of them, that the email
    provider's bounce and complaint webhook must carry) is not usable outside development, or None.
    Without it anymail accepts unauthenticated events: anyone could disable members' emails."""
    value = anymail.get("WEBHOOK_SECRET") if isinstance(anymail, dict) else None
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    if not values or not all(isinstance(item, str) and item.strip() for item in values):
        return "ANYMAIL's WEBHOOK_SECRET is not set"
    if any(not item.partition(":")[2] for item in values):
        return "ANYMAIL's WEBHOOK_SECRET is not user:password"
    if any(item in PUBLISHED_SECRETS for item in values):
        return "ANYMAIL's WEBHOOK_SECRET is a value published in the repository"
    return None


def require_secret(name: str, *, debug: bool) -> str:
    value = os.environ.get(name, "").strip()
    if debug and not value:
        return DEVELOPMENT_SECRETS[name]
    problem = None if debug else secret_problem(name, value)
    if problem:
        raise RefusedSetting(f"{problem}: set it to a random value of at least {MIN_SECRET_BYTES} bytes, "
                           f"e.g. the output of: {HOW_TO_MAKE_ONE}")
    return value


def previous_jwt_secrets(*, debug: bool) -> tuple[list[str], datetime | None]:
    """JWT_PREVIOUS_SECRETS (comma-separated) stay valid for verification until
    JWT_PREVIOUS_SECRETS_UNTIL (ISO 8601); both are needed together."""
    values = [v.strip() for v in os.environ.get("JWT_PREVIOUS_SECRETS", "").split(",") if v.strip()]
    until_text = os.environ.get("JWT_PREVIOUS_SECRETS_UNTIL", "").strip()
    if not values:
        return [], None
    if not until_text:
        raise RefusedSetting("JWT_PREVIOUS_SECRETS is set without JWT_PREVIOUS_SECRETS_UNTIL: give the ISO 8601 "
                           "time until which tokens signed with them are accepted (e.g. 2026-12-01T00:00:00Z)")
    try:
        until = datetime.fromisoformat(until_text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise RefusedSetting(f"JWT_PREVIOUS_SECRETS_UNTIL is not an ISO 8601 time: {until_text!r}") from exc
    if until.tzinfo is None:
        until = until.replace(tzinfo=timezone.utc)
    if not debug:
        for value in values:
            problem = secret_problem("JWT_PREVIOUS_SECRETS", value)
            if problem:
                raise RefusedSetting(f"{problem} (one of its values)")
    return values, until


def signing_settings(*, debug: bool) -> tuple[str, str, list[str], datetime | None]:
    """SECRET_KEY, JWT_SECRET, JWT_PREVIOUS_SECRETS, JWT_PREVIOUS_SECRETS_UNTIL; stops the process
    when one of them is unsafe."""
    try:
        return (require_secret("SECRET_KEY", debug=debug), require_secret("JWT_SECRET", debug=debug),
                *previous_jwt_secrets(debug=debug))
    except RefusedSetting as error:
        refuse_to_start(error)
        raise  # unreachable: refuse_to_start exits


def refuse_to_start(error: RefusedSetting) -> None:
    """One clear line instead of a traceback, then exit: nothing may run with a guessable key."""
    sys.stderr.write(f"Refusing to start: {error}\n")
    sys.stderr.flush()
    raise SystemExit(2)
