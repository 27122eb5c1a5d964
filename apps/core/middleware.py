import os
import re
import sys

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from apps.core.errors import STATUS_CODES, error_body
from apps.core.logging import client_address_var, request_id_var, support_operator_var, tenant_var
from apps.core.ratelimit import client_ip


def request_id(incoming: str) -> str:
    """The id of a request: the client's X-Request-ID when it sent a printable one (at most 64
    characters kept), else 32 random hex digits. Also used by the public API's WSGI layer."""
    return incoming[:64] if incoming and incoming.isprintable() else os.urandom(16).hex()


class RequestIdMiddleware:
    """Gives every request an id (kept from X-Request-ID when sent) and echoes it back."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        request.id = request_id(request.headers.get("X-Request-ID", ""))
        request_token = request_id_var.set(request.id)
        tenant_token = tenant_var.set("-")
        address_token = client_address_var.set(client_ip(request))  # hashed by the audit log
        support_token = support_operator_var.set("")  # set by a support session's token (apps.accounts.auth)
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(request_token)
            tenant_var.reset(tenant_token)
            client_address_var.reset(address_token)
            support_operator_var.reset(support_token)
        response["X-Request-ID"] = request.id
        return response


class TrailingSlashMiddleware:
    """API paths are accepted with and without a trailing slash; routes are declared without one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        path = request.path_info
        if _is_api(path) and len(path) > 5 and path.endswith("/"):
            request.path_info = path.rstrip("/")
        return self.get_response(request)


class ApiErrorEnvelopeMiddleware:
    """Non-JSON error pages produced under /api (405 from the router, Django's own 404/500) are
    turned into the error envelope (the APIs' own errors already are)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        is_api = _is_api(request.path_info)
        response = self.get_response(request)
        if is_api and response.status_code >= 400 and "json" not in response.get("Content-Type", ""):
            status = response.status_code
            message = {405: "Method not allowed", 404: "Endpoint not found"}.get(status, "Request failed")
            if status >= 500:
                message = "Internal server error"
            replacement = JsonResponse(error_body(message, STATUS_CODES.get(status, "error")), status=status)
            for header in ("Allow", "Retry-After"):
                if header in response:
                    replacement[header] = response[header]
            return replacement
        return response


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


DATABASE_DOWN = "Service temporarily unavailable. Please try again shortly"
DATABASE_RETRY_AFTER = "5"
DATABASE_ERRORS = (OperationalError, InterfaceError)


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    if _is_api(request.path_info):
        response = JsonResponse(error_body(DATABASE_DOWN, "unavailable"), status=503)
    else:
        response = HttpResponse(DATABASE_DOWN, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = DATABASE_RETRY_AFTER
    return response


def _note_database_error(sender, request=None, **kwargs) -> None:
    # Sent by Django while it handles an exception raised outside a view (e.g. in the tenant
    # middleware, the first to query): remember that it was the database.
    if request is not None and isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        request.database_unavailable = True


got_request_exception.connect(_note_database_error, dispatch_uid="apps.core.middleware.database_unavailable")


class DatabaseUnavailableMiddleware:
    """PostgreSQL unreachable (down, restarting, refusing connections): 503 with Retry-After
    instead of a 500, so clients and load balancers retry. Inside the APIs the exception handler
    of apps.core.api does the same; this covers what fails before them (host -> tenant lookup)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "database_unavailable", False):
            return database_unavailable_response(request)
        return response


# Writes of a post (and of its autosaved copy) carry its whole HTML: they may be larger than other
# JSON bodies.
_POST_WRITE = re.compile(r"^/api/posts(?:/upload|/[^/]+(?:/autosave)?)?/?$")


def body_limit(request: HttpRequest) -> int | None:
    """The largest body, in bytes, a request to the APIs may send (None: not limited here;
    multipart uploads have their own limits in the media app and Django's settings)."""
    if not _is_api(request.path_info) or request.content_type == "multipart/form-data":
        return None
    if request.method in ("POST", "PUT") and _POST_WRITE.match(request.path_info):
        return settings.POST_BODY_MAX_BYTES
    return settings.JSON_BODY_MAX_BYTES


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit % (1024 * 1024) == 0 else f"{limit // 1024} KB"


class BodySizeLimitMiddleware:
    """A body above its limit gets 413 from its declared length, before a byte of it is read or
    parsed (a 9 MB JSON body of empty lists used to cost seconds of CPU before its 400)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        limit = body_limit(request)
        if limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                return JsonResponse(error_body(f"Request body too large. Maximum size is {_size(limit)}",
                                               "payload_too_large"), status=413)
        return self.get_response(request)
