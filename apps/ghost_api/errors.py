"""Ghost's errors: `{"errors": [{"message", "context", "type", "details", "property", "help", "code",
"id", "ghostErrorCode"}]}` with Ghost's status codes and type names (Ghost's `@tryghost/errors`).
The product's own errors raised by the shared request handling (apps.public_api.request: the
key, the rate limit, outages) are given the same shape here, with their status."""
from __future__ import annotations

import uuid

from django.http import JsonResponse

from apps.core.errors import ApplicationError, RetryLater

TYPES = {400: "BadRequestError", 401: "UnauthorizedError", 403: "NoPermissionError", 404: "NotFoundError",
         405: "MethodNotAllowedError", 409: "ConflictError", 413: "RequestEntityTooLargeError",
         415: "UnsupportedMediaTypeError", 422: "ValidationError", 429: "TooManyRequestsError",
         500: "InternalServerError", 503: "ServiceUnavailableError"}

UNKNOWN_KEY = "Unknown Content API Key"
NO_KEY = "Authorization failed"
NO_KEY_CONTEXT = ("Unable to determine the authenticated user or integration. Check that cookies are being "
                  "passed through if using session authentication.")
FILTER_ERROR = "Error parsing filter"
NOT_FOUND = "Resource not found"


class GhostError(Exception):
    def __init__(self, status: int, message: str, *, context: str | None = None, code: str | None = None,
                 prop: str | None = None, retry_after: int | None = None, type: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.context, self.code, self.prop = status, message, context, code, prop
        self.retry_after = retry_after
        self.type = type  # a type other than the status's (TYPES): Ghost's 409 UpdateCollisionError


def bad_request(message: str, context: str | None = None) -> GhostError:
    return GhostError(400, message, context=context)


def validation(name: str, key: str) -> GhostError:
    """Ghost's 422 for a query value its validators refuse (`Validation (matches) failed for limit`)."""
    return GhostError(422, f"Validation ({name}) failed for {key}", prop=key)


def not_found(message: str = NOT_FOUND) -> GhostError:
    return GhostError(404, message)


def from_application(exc: ApplicationError) -> GhostError:
    """The product's error as Ghost's (a wrong key: Ghost's words for it)."""
    status = exc.status_code
    if status == 401:
        return GhostError(401, UNKNOWN_KEY, code="UNKNOWN_CONTENT_API_KEY")
    retry_after = getattr(exc, "retry_after", None) if isinstance(exc, RetryLater) else None
    return GhostError(status, exc.message if hasattr(exc, "message") else str(exc), retry_after=retry_after)


def response(error: GhostError) -> JsonResponse:
    body = {"errors": [{
        "message": error.message, "context": error.context,
        "type": error.type or TYPES.get(error.status, "InternalServerError"),
        "details": None, "property": error.prop, "help": None, "code": error.code, "id": str(uuid.uuid4()),
        "ghostErrorCode": None,
    }]}
    reply = JsonResponse(body, status=error.status)
    if error.retry_after:
        reply["Retry-After"] = str(error.retry_after)
    reply["Cache-Control"] = "no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0"
    return reply
