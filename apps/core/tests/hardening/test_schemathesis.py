"""Property-based fuzzing of both OpenAPI documents with schemathesis, against the real app
in-process (WSGI) on a real tenant host, PostgreSQL and Redis.

Every operation of the dashboard API (signed in as the tenant's admin) and of the public
content API (the tenant's x-api-key, through the production WSGI app with its cache-hit fast
path) gets FUZZ_EXAMPLES generated requests, valid and invalid ones (derandomized: the same
cases on every run). Half of the requests that address an object by id or slug use a real one
of the tenant, so the 200 replies are checked too. Checks: schemathesis' defaults (no 5xx,
documented status codes, content types and headers, response bodies valid against the
documented schema, invalid input rejected, auth not ignored, ...) plus ours:

- every 400 is the validation envelope with a readable message (no raw pydantic text);
- every response carries the security headers (nosniff, Referrer-Policy, a CSP with
  frame-ancestors, X-Frame-Options) and sets no cookie, cache hits of the fast path and 304s
  included.

Two defaults are adjusted, for reasons of the contract rather than to hide a finding:
- positive_data_acceptance also accepts 400: the spec's validation rules (its messages, e.g.
  "Title is required" for a blank title, "Page must be at least 1") live in the input schemas'
  validators, not in JSON Schema keywords, so schema-valid input may still be refused with
  the spec's message (our first check verifies it is such a reply);
- negative_data_rejection is not applied to multipart bodies: every form field is text on the
  wire, so "altText was a number" is the same bytes as a valid string.

`make fuzz` runs the same suites with FUZZ_EXAMPLES=300.
"""
from __future__ import annotations

import json
import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, assume, settings
from schemathesis.checks import negative_data_rejection
from schemathesis.config import SchemathesisConfig

from apps.core.tests.hardening.helpers import keep_test_connection, production_wsgi_app, seed_tenant
from config.api import dashboard_api, public_api
from config.wsgi import application as django_application

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
MIN_CASES = 1000  # generated requests per `make test` run, over both APIs

CONFIG = SchemathesisConfig.from_dict({
    # Credentials are ours (each call sends the admin's token or the tenant's key; the
    # ignored_auth check and test_route_matrix.py cover requests without them). Unknown query
    # parameters are ignored by design (cache busters such as ?_=123 must not break a read).
    "generation": {"with-security-parameters": False, "allow-extra-parameters": False},
    "checks": {
        "positive_data_acceptance": {"expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]},
    },
})


def _load(api, prefix: str, app):
    schema = schemathesis.openapi.from_dict(api.get_openapi_schema(path_prefix=prefix), config=CONFIG)
    schema.app = app
    return schema


dashboard_schema = _load(dashboard_api, "/api/", django_application)
public_schema = _load(public_api, "/api/v1/", production_wsgi_app())

# Path parameter -> the seeded object it names (public slugs depend on the route).
PUBLIC_SLUGS = {"/api/v1/posts/slug/{slug}": "slug", "/api/v1/posts/category/{slug}": "category_slug",
                "/api/v1/posts/tag/{slug}": "tag_slug"}
RAW_PYDANTIC = re.compile(r"Input should|Field required|value_error|type=|pydantic|Traceback", re.I)


# --- our checks ------------------------------------------------------------------------------------
def validation_replies_are_readable(ctx, response, case):
    """A 400 is the validation envelope with a human message, never pydantic's own text."""
    if response.status_code != 400:
        return None
    body = response.json()
    assert body.get("success") is False and body.get("error") == "validation_error", body
    message = body.get("message") or ""
    assert message and not RAW_PYDANTIC.search(message), f"unreadable validation message: {message!r}"
    for item in body.get("errors") or []:
        assert item.get("message") and not RAW_PYDANTIC.search(item["message"]), body
    return True


def security_headers_present(ctx, response, case):
    headers = {name.lower(): value for name, value in response.headers.items()}

    def one(name):
        value = headers.get(name)
        return value[0] if isinstance(value, list) else value

    assert one("x-content-type-options") == "nosniff", f"no nosniff on {response.status_code}"
    assert one("referrer-policy"), f"no Referrer-Policy on {response.status_code}"
    assert "frame-ancestors 'none'" in (one("content-security-policy") or ""), f"no CSP on {response.status_code}"
    assert one("x-frame-options") == "DENY", f"no X-Frame-Options on {response.status_code}"
    assert "set-cookie" not in headers, "the APIs set no cookie"
    return True


EXTRA_CHECKS = [validation_replies_are_readable, security_headers_present]


# --- fixtures ------------------------------------------------------------------------------------
@pytest.fixture
def fuzz_settings(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AI_PROVIDER = "offline"
    settings.AI_WAIT_SECONDS = 0  # jobs are answered 202 (no worker here): no waiting per case
    settings.AI_DAILY_QUOTA = {}
    settings.AI_DAILY_QUOTA_DEFAULT = 100_000
    settings.AI_MAX_RUNNING_PER_TENANT = 100_000
    settings.PUBLIC_API_RATE_LIMIT = 1_000_000
    settings.PUBLIC_API_RATE_LIMITS = {}
    return settings


@pytest.fixture
def seeded(db, fuzz_settings):
    from apps.core import redis_conn

    redis_conn.reset()
    seeded = seed_tenant()
    with keep_test_connection():
        yield seeded


class CaseCounter:
    def __init__(self):
        self.calls = 0
        self.expected = 0

    def use_real_object(self) -> bool:
        self.calls += 1
        return self.calls % 2 == 0


def _expected_cases(operation) -> int:
    """Requests planned for an operation: FUZZ_EXAMPLES, or a few when it has nothing to vary
    (no parameters, no body: hypothesis stops once it has seen every distinct request)."""
    definition = operation.definition.raw
    if definition.get("parameters") or definition.get("requestBody"):
        return FUZZ_EXAMPLES
    # Nothing to vary: GETs and POSTs give hypothesis 8-10 distinct requests, a DELETE 3.
    return 3 if operation.method.upper() == "DELETE" else 5


def _run(case, counter: CaseCounter, *, base_url: str, headers: dict, ids: dict, slug_key: str | None = None):
    counter.expected = _expected_cases(case.operation)
    # `/api/posts/slug/<x>` is the by-slug route's path (the contract's `GET posts/slug/{slug}`):
    # a request there belongs to that operation, whose other methods are checked to be 405s, not
    # to `/api/posts/{post_id}/<x>` with the post id "slug".
    assume(not (case.path.startswith("/api/posts/{post_id}") and case.path_parameters.get("post_id") == "slug"))
    if counter.use_real_object() and case.path_parameters:
        for name in case.path_parameters:
            real = ids.get(slug_key) if name == "slug" and slug_key else ids.get(name)
            if real:
                case.path_parameters[name] = real
    excluded = []
    if "multipart/form-data" in (case.operation.definition.raw.get("requestBody", {}).get("content", {})):
        excluded.append(negative_data_rejection)
    case.call_and_validate(base_url=base_url, headers=headers, additional_checks=EXTRA_CHECKS,
                           excluded_checks=excluded)


def _settings():
    return settings(max_examples=FUZZ_EXAMPLES, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


# --- the suites ----------------------------------------------------------------------------------
@pytest.fixture
def counter(request):
    """Counts the requests of one operation; a passing run must have made as many as planned."""
    counter = CaseCounter()
    yield counter
    print(f"fuzz requests: {counter.calls} {request.node.name}")  # shown with -s / -rP
    report = getattr(request.node, "report_call", None)
    if report is not None and report.passed:
        expected = counter.expected or 1
        assert counter.calls >= expected, f"{request.node.name}: {counter.calls} requests, planned {expected}"


@dashboard_schema.parametrize()
@_settings()
def test_dashboard_api(case, seeded, counter):
    _run(case, counter, base_url=f"http://{seeded.host}", headers=seeded.bearer("admin"), ids=seeded.ids)


@public_schema.parametrize()
@_settings()
def test_public_api(case, seeded, counter):
    # schemathesis' WSGI transport sends requests' default `Accept-Encoding: gzip, deflate` but does
    # not decode what it receives: it says what it can read (the gzip replies: test_gzip.py).
    _run(case, counter, base_url=f"http://{seeded.host}",
         headers={"x-api-key": seeded.api_key, "Accept-Encoding": "identity"}, ids=seeded.ids,
         slug_key=PUBLIC_SLUGS.get(case.operation.path))


def test_the_fuzzed_documents_are_the_served_ones(seeded):
    """The suites above fuzz exactly what /api/openapi.json and /api/v1/openapi.json serve."""
    from django.test import Client

    http = Client(HTTP_HOST=seeded.host)
    served_dashboard = http.get("/api/openapi.json").json()
    served_public = http.get("/api/v1/openapi.json").json()
    assert served_dashboard["paths"] == json.loads(json.dumps(dashboard_schema.raw_schema["paths"]))
    assert served_public["paths"] == json.loads(json.dumps(public_schema.raw_schema["paths"]))
    # Every operation documents the error envelope it can answer with.
    for document in (served_dashboard, served_public):
        for methods in document["paths"].values():
            for operation in methods.values():
                assert {"400", "403", "404"} <= set(operation["responses"]), operation["operationId"]


def test_a_default_run_generates_at_least_1000_cases():
    operations = [result.ok() for schema in (dashboard_schema, public_schema) for result in schema.get_all_operations()]
    planned = sum(_expected_cases(operation) for operation in operations)
    assert len(operations) >= 47  # 40 dashboard + 7 public operations when this was written
    if FUZZ_EXAMPLES >= 30:  # the default; each operation's test checks it made its planned requests
        assert planned >= MIN_CASES, planned
