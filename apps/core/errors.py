"""Application errors. One exception handler per NinjaAPI turns them into the envelope
`{"success": false, "message": ..., "error": <kind>}` (docs/api/index.md), plus `code` (an ErrorCode) where a
client must tell cases of one kind apart without reading the message."""
from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable, specific codes sent as the envelope's additive `code` (docs/api/index.md: Error codes). The
    envelope's `error` stays the contract's kind (validation_error, conflict, ...)."""

    SLUG_TAKEN = "slug_taken"
    CATEGORY_IN_USE = "category_in_use"
    TAG_IN_USE = "tag_in_use"
    MEDIA_IN_USE = "media_in_use"
    FILE_TOO_LARGE = "file_too_large"
    UNSUPPORTED_FILE_TYPE = "unsupported_file_type"
    EMAIL_TAKEN = "email_taken"
    USERNAME_TAKEN = "username_taken"
    SUBDOMAIN_TAKEN = "subdomain_taken"
    SUBDOMAIN_RESERVED = "subdomain_reserved"
    LAST_ADMIN = "last_admin"
    INVALID_CREDENTIALS = "invalid_credentials"
    PREVIEW_KEY_REQUIRED = "preview_key_required"
    API_KEY_REQUIRED = "api_key_required"
    API_KEY_INVALID = "api_key_invalid"
    EDIT_CONFLICT = "edit_conflict"
    EMAIL_UNVERIFIED = "email_unverified"  # the company's public API waits for its email verification
    LINK_INVALID = "link_invalid"  # an emailed link that expired, was used already or was altered
    PREVIEW_NOT_DRAFT = "preview_not_draft"
    TWO_FACTOR_REQUIRED = "two_factor_required"  # right password; the sign-in needs its second step
    TWO_FACTOR_INVALID = "two_factor_invalid"  # a wrong authenticator or recovery code
    TWO_FACTOR_CHALLENGE_INVALID = "two_factor_challenge_invalid"  # the sign-in's second step expired or was used
    TWO_FACTOR_SETUP_REQUIRED = "two_factor_setup_required"  # the company requires it; the user has not set it up
    TRANSLATION_EXISTS = "translation_exists"  # the post's group has a translation in that language
    TRANSLATIONS_EXIST = "translations_exist"  # deleting a default-language post: say what becomes of its translations
    LANGUAGE_IN_USE = "language_in_use"  # a language the company removes still has posts
    PLAN_LIMIT = "plan_limit"  # the company's plan allows no more of this (the envelope names the limit)
    PLAN_EXPIRED = "plan_expired"  # the trial ended: the dashboard is read-only, then the public API stops
    PLAN_FEATURE = "plan_feature"  # the company's plan does not include this feature (the envelope names it)
    ORIGIN_NOT_ALLOWED = "origin_not_allowed"  # a members' form posted from a page not on the company's website


class ApplicationError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        errors: list[dict] | None = None,
        headers: dict[str, str] | None = None,
        detail: ErrorCode | None = None,
        extra: dict | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.detail = detail  # the envelope's `code`
        # More fields of the envelope for this case (e.g. the sign-in challenge of `two_factor_required`);
        # each is documented in ErrorOut (apps.core.api.ERROR_SCHEMA).
        self.extra = extra or {}


class ValidationFailed(ApplicationError):
    status_code = 400
    code = "validation_error"

    def __init__(self, message: str, *, field: str | None = None, errors: list[dict] | None = None, **kw):
        if errors is None and field is not None:
            errors = [{"field": field, "message": message}]
        super().__init__(message, errors=errors, **kw)


class Unauthorized(ApplicationError):
    status_code = 401
    code = "unauthorized"


class PermissionDenied(ApplicationError):
    status_code = 403
    code = "forbidden"


class NotFound(ApplicationError):
    status_code = 404
    code = "not_found"


class Conflict(ApplicationError):
    status_code = 409
    code = "conflict"


class PayloadTooLarge(ApplicationError):
    status_code = 413
    code = "payload_too_large"


class RetryLater(ApplicationError):
    """An error that tells the client when to try again (Retry-After, in whole seconds, at least 1)."""

    def __init__(self, message: str, *, retry_after: int, **kw):
        retry_after = max(1, int(retry_after))
        super().__init__(message, headers={"Retry-After": str(retry_after)}, **kw)
        self.retry_after = retry_after


class RateLimited(RetryLater):
    status_code = 429
    code = "rate_limited"


STATUS_CODES = {
    400: "validation_error",
    401: "unauthorized",
    402: "payment_required",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    429: "rate_limited",
    500: "server_error",
    503: "unavailable",
}


def error_body(message: str, code: str, errors: list[dict] | None = None, detail: ErrorCode | None = None,
               extra: dict | None = None) -> dict:
    body = {"success": False, "message": message, "error": code}
    if detail is not None:
        body["code"] = str(detail)
    if errors:
        body["errors"] = errors
    for key, value in (extra or {}).items():
        body.setdefault(key, value)
    return body
