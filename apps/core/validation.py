"""Field rules shared by the input schemas, raising the spec's own messages."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Annotated

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator, validate_email
from pydantic import AfterValidator, BeforeValidator

from apps.core.text import NUL_MESSAGE, SURROGATE_MESSAGE, input_text  # noqa: F401 - re-exported

EMAIL_MESSAGE = "Please enter a valid email address"
URL_MESSAGE = "Please enter a valid URL"


# A JSON escape \u0000 that is not itself escaped (preceded by an even number of backslashes).
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


def json_has_nul(body: bytes) -> bool:
    """True when a JSON document carries U+0000 (raw, or as the escape \u0000) anywhere."""
    return b"\x00" in body or bool(_JSON_NUL.search(body))


def text(value, message: str) -> str:
    """The value as a string; None is empty; any other type is refused with `message`. The input
    rule of apps.core.text applies: U+0000 and unpaired surrogates, which PostgreSQL text cannot
    hold, are refused, and the other characters XML 1.0 forbids are taken out (input that does not
    pass through the APIs' parser, e.g. the public API's fast path, is validated with these schemas)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(message)
    return input_text(value)


EMAIL_MAX = 254  # RFC 5321's longest path less its brackets; every email column holds this many characters


def clean_email(value: str | None, message: str = EMAIL_MESSAGE) -> str:
    """An address, lower case. Django's validate_email accepts up to 320 characters; no email column
    holds more than EMAIL_MAX, so a longer one is refused here (it was a database error, a 500)."""
    value = text(value, message).strip().lower()
    if len(value) > EMAIL_MAX:
        raise ValueError(message)
    try:
        validate_email(value)
    except DjangoValidationError as exc:
        raise ValueError(message) from exc
    return value


def clean_min_length(value: str | None, minimum: int, message: str, *, maximum: int | None = None,
                     too_long: str | None = None, strip: bool = True) -> str:
    value = text(value, message)
    if strip:
        value = value.strip()
    if len(value) < minimum:
        raise ValueError(message)
    if maximum is not None and len(value) > maximum:
        raise ValueError(too_long or f"Must be at most {maximum} characters")
    return value


def clean_required(value: str | None, message: str) -> str:
    value = text(value, message).strip()
    if not value:
        raise ValueError(message)
    return value


def clean_url(value: str | None, message: str = URL_MESSAGE) -> str:
    value = text(value, message).strip()
    if not value:
        return ""
    try:
        URLValidator(schemes=["http", "https"])(value)
    except DjangoValidationError as exc:
        raise ValueError(message) from exc
    return value


USERNAME_MESSAGE = "Username must be at least 3 characters"
PASSWORD_MESSAGE = "Password must be at least 8 characters"


def clean_username(value: str | None) -> str:
    return clean_min_length(value, 3, USERNAME_MESSAGE, maximum=150, too_long="Username must be at most 150 characters")


def clean_password(value: str | None) -> str:
    # Passwords are not stripped: spaces are characters too.
    return clean_min_length(value, 8, PASSWORD_MESSAGE, maximum=128,
                            too_long="Password must be at most 128 characters", strip=False)


# --- field types: each rule and its message once, for every input schema ---------------------------
def _keep_none(clean):
    """For partial updates: a key left out (None) stays None, anything else is cleaned."""
    return lambda value: None if value is None else clean(value)


Email = Annotated[str, BeforeValidator(clean_email)]
Username = Annotated[str, BeforeValidator(clean_username)]
Password = Annotated[str, BeforeValidator(clean_password)]
OptionalEmail = Annotated[str | None, BeforeValidator(_keep_none(clean_email))]
OptionalUsername = Annotated[str | None, BeforeValidator(_keep_none(clean_username))]
# A blank new password keeps the current one (a value of another type is refused, not ignored).
OptionalPassword = Annotated[str | None, BeforeValidator(lambda value: None if value in (None, "") else clean_password(value))]


def _date_time_text(value):
    """A date-time as JSON carries it: an ISO 8601 string (or null). Numbers are refused, not read
    as Unix times, so the documented type is the accepted one."""
    if value is not None and not isinstance(value, str):
        raise ValueError("Must be a date and time in ISO 8601 format")
    return value


def _in_utc(value: datetime | None) -> datetime | None:
    """An offset given is turned into UTC: PostgreSQL refuses offsets past 15:59 that ISO 8601
    allows (+20:20 was a 500). A date-time without an offset is left to the field's own rule."""
    if value is None or value.tzinfo is None:
        return value
    try:
        return value.astimezone(timezone.utc)
    except OverflowError:  # the first or last day of year 1 or 9999 moved past the calendar
        raise ValueError("Must be a date and time in ISO 8601 format") from None


OptionalDateTime = Annotated[datetime | None, BeforeValidator(_date_time_text), AfterValidator(_in_utc)]
