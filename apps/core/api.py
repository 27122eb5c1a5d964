"""NinjaAPI assembly helpers: every API of the product answers errors with one envelope."""
from __future__ import annotations

import logging
import re

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from apps.core.errors import STATUS_CODES, ApplicationError, error_body

logger = logging.getLogger(__name__)

_LOCATIONS = {"body", "query", "path", "form", "file", "header", "cookie"}


def _label(field: str) -> str:
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", field).replace("_", " ").strip()
    return words[:1].upper() + words[1:].lower() if words else "Value"


def _field_of(loc: tuple | list) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in _LOCATIONS:
        parts = parts[1:]
        # Body params are nested under the handler's parameter name (e.g. "payload").
        if loc[0] == "body" and len(parts) > 1:
            parts = parts[1:]
    return ".".join(parts)


def _message_of(error: dict, field: str) -> str:
    kind = error.get("type", "")
    msg = str(error.get("msg", "Invalid value"))
    label = _label(field.split(".")[-1]) if field else "Value"
    if kind == "missing":
        return f"{label} is required"
    if kind in {"value_error", "assertion_error"}:
        return re.sub(r"^(Value|Assertion) error, ", "", msg)
    if kind == "json_invalid":
        return "Request body is not valid JSON"
    if kind in {"int_parsing", "int_type"}:
        return f"{label} must be a whole number"
    if kind in {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}:
        return f"{label} {msg.lower()}"
    if kind in {"string_type", "bool_type", "list_type", "dict_type", "model_type", "uuid_parsing", "uuid_type"}:
        return f"{label} is not valid"
    return f"{label}: {msg}"


def validation_errors(raw: list[dict]) -> list[dict]:
    errors = []
    for error in raw:
        field = _field_of(error.get("loc", ()))
        errors.append({"field": field, "message": _message_of(error, field)})
    return errors


def envelope(status: int, message: str, code: str | None = None, errors=None, headers=None) -> JsonResponse:
    response = JsonResponse(error_body(message, code or STATUS_CODES.get(status, "error"), errors), status=status)
    for key, value in (headers or {}).items():
        response[key] = value
    return response


def install_error_handlers(api: NinjaAPI) -> NinjaAPI:
    @api.exception_handler(ApplicationError)
    def on_application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
        return envelope(exc.status_code, exc.message, exc.code, exc.errors, exc.headers)

    @api.exception_handler(ValidationError)
    def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        errors = validation_errors(exc.errors)
        message = errors[0]["message"] if errors else "Validation failed"
        return envelope(400, message, "validation_error", errors)

    @api.exception_handler(AuthenticationError)
    def on_authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return envelope(401, "Authentication required", "unauthorized")

    @api.exception_handler(HttpError)
    def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        return envelope(exc.status_code, str(exc.message), STATUS_CODES.get(exc.status_code))

    @api.exception_handler(Http404)
    def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return envelope(404, "Not found", "not_found")

    @api.exception_handler(Exception)
    def on_unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return envelope(500, "Internal server error", "server_error")

    return api


def create_api(**kwargs) -> NinjaAPI:
    return install_error_handlers(NinjaAPI(**kwargs))


def api_not_found(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    return envelope(404, "Endpoint not found", "not_found")
