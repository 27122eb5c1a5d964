import os
import sys

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from apps.core.errors import STATUS_CODES, error_body
from apps.core.logging import request_id_var, tenant_var


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
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(request_token)
            tenant_var.reset(tenant_token)
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
