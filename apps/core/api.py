"""NinjaAPI assembly helpers: every API of the product answers errors with one envelope."""
from __future__ import annotations

import functools
import inspect
import logging
import re
import sys

import json

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError, transaction
from django.http.multipartparser import MultiPartParserError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.responses import NinjaJSONEncoder
from ninja.utils import normalize_path

from apps.core.errors import STATUS_CODES, ApplicationError, ErrorCode, ValidationFailed, error_body
from apps.core.middleware import database_unavailable_response
from apps.core.permissions import declared_capability
from apps.core.text import TextRefused, input_data
from apps.core.validation import NUL_MESSAGE, json_has_nul

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
    names = [part for part in field.split(".") if part and not part.isdigit()]  # "keys.0": an item of keys
    label = _label(names[-1]) if names else "Value"
    if kind == "missing":
        return f"{label} is required"
    if kind in {"value_error", "assertion_error"}:
        return re.sub(r"^(Value|Assertion) error, ", "", msg)
    if kind == "json_invalid":
        return "Request body is not valid JSON"
    if kind in {"int_parsing", "int_type", "int_from_float"}:
        return f"{label} must be a whole number"
    if kind in {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}:
        return f"{label} {msg.lower()}"
    if kind in {"literal_error", "enum"}:
        expected = (error.get("ctx") or {}).get("expected")
        return f"{label} must be {expected}" if expected else f"{label} is not one of the allowed values"
    if kind in {"bool_type", "bool_parsing"}:
        return f"{label} must be true or false"
    if kind in {"float_type", "float_parsing", "decimal_parsing", "decimal_type"}:
        return f"{label} must be a number"
    if kind.endswith(("_type", "_parsing")) or kind in {"string_type", "list_type", "dict_type", "model_type"}:
        return f"{label} is not valid"
    return f"{label}: {msg}"


def validation_errors(raw: list[dict]) -> list[dict]:
    errors = []
    for error in raw:
        field = _field_of(error.get("loc", ()))
        errors.append({"field": field, "message": _message_of(error, field)})
    return errors


def envelope(status: int, message: str, code: str | None = None, errors=None, headers=None,
             detail=None, extra=None) -> JsonResponse:
    response = JsonResponse(error_body(message, code or STATUS_CODES.get(status, "error"), errors, detail, extra),
                            status=status)
    for key, value in (headers or {}).items():
        response[key] = value
    return response


BROKER_DOWN = "A background service is unavailable. Please try again shortly"
BROKER_RETRY_AFTER = "5"


def is_broker_outage(exc: BaseException) -> bool:
    """The task broker (or Redis) did not answer: work that is not held by the outbox (apps.core.outbox)
    could not be sent. kombu is loaded only once a process sends a task (apps.core.task_queue)."""
    import redis

    kombu = sys.modules.get("kombu.exceptions")
    if kombu is not None and isinstance(exc, kombu.OperationalError):
        return True
    return isinstance(exc, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError))


def atomic_reply(handler):
    """A write handler whose write and reply (read back from the database) share one transaction:
    when the reply cannot be built (the database went away right after the write), the write is
    rolled back with it, so a write answered with an error never stays (and a client's retry makes
    no duplicate). After-commit work runs once the reply is built."""

    @functools.wraps(handler)
    def atomic_handler(*args, **kwargs):
        with transaction.atomic():
            return handler(*args, **kwargs)

    # ninja reads the parameters' types from the signature: resolved here, in the handler's module.
    atomic_handler.__signature__ = inspect.signature(handler, eval_str=True)
    return atomic_handler


def error_response(exc: ApplicationError) -> JsonResponse:
    """The envelope of an application error, as every API answers it."""
    return envelope(exc.status_code, exc.message, exc.code, exc.errors, exc.headers, exc.detail, exc.extra)


def install_error_handlers(api: NinjaAPI) -> NinjaAPI:
    @api.exception_handler(ApplicationError)
    def on_application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
        return error_response(exc)

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
        message = str(exc.message)
        if isinstance(exc.__cause__, json.JSONDecodeError):  # raised by ninja around Parser.parse_body
            message = "Request body is not valid JSON"
        elif isinstance(exc.__cause__, (BodyNotAnObject, TextRefused)):
            message = str(exc.__cause__)
        return envelope(exc.status_code, message, STATUS_CODES.get(exc.status_code))

    @api.exception_handler(Http404)
    def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return envelope(404, "Not found", "not_found")

    @api.exception_handler(MultiPartParserError)
    def on_bad_multipart(request: HttpRequest, exc: Exception) -> HttpResponse:
        return envelope(400, "Request body is not valid multipart form data", "validation_error")

    @api.exception_handler(SuspiciousOperation)
    def on_suspicious(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
        # As Django answers them outside the APIs: 400 (a body over DATA_UPLOAD_MAX_MEMORY_SIZE: 413).
        if isinstance(exc, RequestDataTooBig):
            return envelope(413, "Request body is too large", "payload_too_large")
        return envelope(400, "Bad request", "validation_error")

    @api.exception_handler(OperationalError)
    @api.exception_handler(InterfaceError)
    def on_database_unavailable(request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.error("Database unavailable on %s %s: %s", request.method, request.path, exc)
        return database_unavailable_response(request)

    @api.exception_handler(Exception)
    def on_unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
        if is_broker_outage(exc):
            logger.error("Broker unavailable on %s %s: %s", request.method, request.path, exc)
            return envelope(503, BROKER_DOWN, "unavailable", headers={"Retry-After": BROKER_RETRY_AFTER})
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return envelope(500, "Internal server error", "server_error")

    return api


ERROR_SCHEMA_NAME = "ErrorOut"  # apps.core.schemas.ErrorOut, described exactly
ERROR_SCHEMA = {
    "title": ERROR_SCHEMA_NAME,
    "type": "object",
    "required": ["success", "message", "error"],
    "properties": {
        "success": {"const": False},
        "message": {"type": "string"},
        "error": {"type": "string"},
        # Additive, where a client must tell cases of one `error` apart (apps.core.errors.ErrorCode).
        "code": {"type": "string", "enum": [str(code) for code in ErrorCode]},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["field", "message"],
                "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
            },
        },
        # Fields of particular cases (ApplicationError.extra):
        # `two_factor_required` (403 of POST /api/auth/login): the second step of the sign-in.
        "challengeToken": {"type": "string", "description": "two_factor_required: send it to POST /api/auth/login/2fa"},
        "expiresIn": {"type": "integer", "description": "two_factor_required: seconds the challenge stays valid"},
        # `plan_limit` (403 of a write the company's plan does not allow, apps.plans.rules).
        "limit": {"type": "string", "description": "plan_limit: which limit (staff_seats, posts, media_bytes, "
                                                    "webhook_endpoints)"},
        "used": {"type": "integer", "description": "plan_limit: how much of it the company uses now"},
        "allowed": {"type": "integer", "description": "plan_limit: how much its plan allows"},
        "plan": {"type": "string", "description": "plan_limit, plan_expired, plan_feature: the company's plan"},
        # `plan_feature` (403 of a request for a feature the company's plan does not include).
        "feature": {"type": "string", "description": "plan_feature: which feature (ai_writing, webhooks)"},
    },
}
ERROR_DESCRIPTIONS = {
    400: "Validation error", 401: "Missing or invalid credentials",
    402: "The company's trial ended more than the grace period ago (code plan_expired)",
    403: "Forbidden (role, suspended company, or the plan: codes plan_limit, plan_expired, plan_feature)",
    404: "Not found", 409: "Conflict", 413: "Payload too large", 429: "Rate limited (see Retry-After)",
    502: "Upstream service failed", 503: "A dependency is unavailable (see Retry-After)",
}
WRITE_METHODS = {"post", "put", "patch", "delete"}


EXTRA_ERRORS = "x-error-statuses"  # a route's openapi_extra: errors no rule below gives it


def error_statuses(method: str, operation: dict) -> set[int]:
    """The error envelopes an operation can answer with (documented in its OpenAPI entry)."""
    # validation; role or suspended company; unknown host or object; limits; database unreachable
    statuses = {400, 403, 404, 429, 503, *operation.pop(EXTRA_ERRORS, ())}
    if operation.get("security"):
        statuses.add(401)
    if any("ApiKeyAuth" in scheme for scheme in operation.get("security") or []):
        statuses.add(402)  # the public content API of a company whose trial lapsed
    if method in WRITE_METHODS:
        statuses.add(409)
    if "multipart/form-data" in operation.get("requestBody", {}).get("content", {}):
        statuses.add(413)
    return statuses


class BodyNotAnObject(ValueError):
    pass


class JsonObjectParser(Parser):
    """JSON bodies must be objects: ninja would otherwise read `"text"` or `[]` as an empty
    object (every field at its default), so a PUT with such a body succeeded without changes.
    Every string of a body, a form or a query goes through the input rule of apps.core.text
    (TextRefused, answered 400 with its message, for an unpaired surrogate: Python's JSON decoder
    accepts `"\\ud800"`, which PostgreSQL cannot store)."""

    def parse_body(self, request: HttpRequest):
        data = json.loads(request.body)
        if not isinstance(data, dict):
            raise BodyNotAnObject("Request body must be a JSON object")
        return input_data(data)

    def parse_querydict(self, data, list_fields, request: HttpRequest):
        refuse_repeated(data.lists(), list_fields)
        parsed = super().parse_querydict(data, list_fields, request)
        try:
            return {key: input_data(value) for key, value in parsed.items()}  # uploaded files are left as they are
        except TextRefused as exc:
            raise ValidationFailed(str(exc)) from exc


def refuse_repeated(lists, list_fields=()) -> None:
    """Query and form values (`lists`: (name, values) pairs): a name given twice is refused
    unless it is a list (Django would silently keep the last one)."""
    for key, values in lists:
        if len(values) > 1 and key not in list_fields:
            raise ValidationFailed(f"{_label(key)} must be given once", field=key)


_QUERY_SCHEMAS: dict[int, type] = {}  # id of a documented parameter -> the schema it came from


def _json_schema(schema) -> dict:
    from ninja.openapi.schema import REF_TEMPLATE, NinjaGenerateJsonSchema

    return schema.model_json_schema(ref_template=REF_TEMPLATE, schema_generator=NinjaGenerateJsonSchema)


def query_parameters(schema) -> list[dict]:
    """The OpenAPI parameters of a query a handler reads itself (from request.GET), as ninja
    documents a `Query[schema]` argument: for `openapi_extra={"parameters": ...}`. Api adds the
    schema to the document's components, as ninja does."""
    document = _json_schema(schema)
    required = set(document.get("required", []))
    parameters = [{"in": "query", "name": name, "schema": details, "required": name in required}
                  for name, details in document["properties"].items()]
    for parameter in parameters:
        _QUERY_SCHEMAS[id(parameter)] = schema
    return parameters


def _add_query_components(document: dict) -> None:
    """The components of the queries documented by query_parameters (ninja lists those of its
    own Query arguments first: they are collected while the paths are)."""
    documented = []
    for methods in document.get("paths", {}).values():
        for operation in methods.values():
            for parameter in operation.get("parameters", []):
                schema = _QUERY_SCHEMAS.get(id(parameter))
                if schema is not None and schema not in documented:
                    documented.append(schema)
    if documented:
        components = document.setdefault("components", {})
        components["schemas"] = {**{schema.__name__: _json_schema(schema) for schema in documented},
                                 **components.get("schemas", {})}


def request_has_nul(request: HttpRequest) -> bool:
    """True when the path, a query parameter, a JSON body or a form field carries U+0000."""
    if "\x00" in request.path_info:
        return True
    for key, values in request.GET.lists():
        if "\x00" in key or any("\x00" in value for value in values):
            return True
    content_type = request.content_type or ""
    if "json" in content_type:
        return json_has_nul(request.body)
    if request.method == "POST" and content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        for key, values in request.POST.lists():  # text fields only; files may hold any bytes
            if "\x00" in key or any("\x00" in value for value in values):
                return True
    return False


class Api(NinjaAPI):
    """A NinjaAPI whose OpenAPI document also describes the error envelope of every operation
    (the handlers above answer it), and optionally the 304 of conditional GETs."""

    def __init__(self, *args, conditional_get: bool = False, **kwargs):
        self.conditional_get = conditional_get
        self.openapi_documents = {}  # (path prefix, path parameters) -> the document's JSON (get_openapi_schema)
        kwargs.setdefault("parser", JsonObjectParser())
        super().__init__(*args, **kwargs)

    def create_temporal_response(self, request: HttpRequest) -> HttpResponse:
        # Called by every operation after authentication, before its input is read: PostgreSQL
        # text cannot hold U+0000, so a request carrying one gets 400 instead of a database
        # error (500) further in; unauthenticated requests still get their 401 first.
        if request_has_nul(request):
            raise ValidationFailed(NUL_MESSAGE)
        return super().create_temporal_response(request)

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        """The document, built once per process and path (a third of a second of CPU for the
        dashboard's: /api/openapi.json served it anew on every request) and kept as its JSON text
        (370 KB for the dashboard's, against 2.5 MB as Python objects in a worker); each caller
        gets its own copy, read from that text (5 ms)."""
        key = (path_prefix, tuple(sorted((path_params or {}).items())))
        if key not in self.openapi_documents:
            schema = self._build_openapi_schema(path_prefix=path_prefix, path_params=path_params)
            self.openapi_documents[key] = json.dumps(schema, cls=NinjaJSONEncoder)
        return json.loads(self.openapi_documents[key])

    def _build_openapi_schema(self, *, path_prefix=None, path_params=None):
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        _add_query_components(schema)
        schema.setdefault("components", {}).setdefault("schemas", {})[ERROR_SCHEMA_NAME] = ERROR_SCHEMA
        ref = {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}
        for methods in schema.get("paths", {}).values():
            for method, operation in methods.items():
                # ninja keys statuses by int: a "503" added as text next to a handler's own 503
                # would be a second "503" in the JSON (the last one wins), hiding the handler's.
                responses = operation["responses"] = {str(k): v for k, v in operation.get("responses", {}).items()}
                for status in sorted(error_statuses(method, operation)):
                    responses.setdefault(str(status), {
                        "description": ERROR_DESCRIPTIONS[status],
                        "content": {"application/json": {"schema": ref}},
                    })
                if self.conditional_get and method == "get":
                    responses.setdefault("304", {"description": "Not modified (If-None-Match matched the ETag)"})
        return schema


def route_declarations(api: NinjaAPI, *, path_prefix: str, tag: str = "") -> dict[tuple[str, str], str | None]:
    """(METHOD, path as the OpenAPI document writes it, after `tag`) -> what the route declared with
    apps.core.permissions.requires (None: nothing). Paths are built as ninja builds its document's."""
    declared = {}
    for bound in api._get_bound_routers():  # noqa: SLF001 - how ninja's own OpenAPI builder walks them
        for path, path_view in bound.path_operations.items():
            full_path = normalize_path("/" + path_prefix + "/".join(part for part in (bound.prefix, path) if part))
            full_path = re.sub(r"{[^}:]+:", "{", full_path)
            for operation in path_view.operations:
                if not operation.include_in_schema:
                    continue
                for method in operation.methods:
                    declared[(method.upper(), tag + full_path)] = declared_capability(operation.view_func)
    return declared


def create_api(**kwargs) -> NinjaAPI:
    return install_error_handlers(Api(**kwargs))


def api_not_found(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    return envelope(404, "Endpoint not found", "not_found")
