"""Tracking on the fast path: the same validation, key check and stored event as Django's
endpoint, without Django or the database."""
from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context

from apps.analytics import buffer, services
from apps.analytics.models import PageView
from apps.public_api import fastpath
from apps.public_api.tests.conftest import key_client, wsgi_call
from tenants.models import Client
from lifecycle.services import client_rotate_keys, client_set_status

TRACK = "/api/v1/analytics/track"
BODY = {"pageUrl": "https://site.example/blog/hello", "referrer": "https://www.google.com/", "postSlug": "hello",
        "userAgent": "FastBrowser/1.0", "ipAddress": "203.0.113.9"}


@pytest.fixture(autouse=True)
def _forget_schemas():
    fastpath._schemas.clear()
    yield
    fastpath._schemas.clear()


def post(app, tenant, key, body=BODY, **kw):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return wsgi_call(app, tenant, TRACK, key=key, method="POST", body=raw, **kw)


def test_fast_path_tracks_without_django_and_stores_what_django_would(wsgi_app, tenant):
    first = post(wsgi_app, tenant, tenant.api_key)  # Django answers and records the host
    assert first.status_code == 200 and first.json() == {"success": True}
    with CaptureQueriesContext(connection) as queries:
        fast = post(wsgi_app, tenant, tenant.api_key)
    assert len(queries) == 0
    assert fast.status_code == 200 and fast.content == first.content
    assert fast.headers["content-type"] == first.headers["content-type"]
    (_, slow_event), (_, fast_event) = buffer.read(tenant.schema_name, 10)
    assert {k: v for k, v in fast_event.items() if k != "t"} == {k: v for k, v in slow_event.items() if k != "t"}
    assert fast_event["v"] != "" and "203.0.113.9" not in str(fast_event)
    with schema_context(tenant.schema_name):
        assert services.pageview_flush() == 2
        services.pageview_rollup()
        assert PageView.objects.count() == 2


def test_request_address_and_agent_are_used_when_the_body_has_none(wsgi_app, tenant):
    body = {"pageUrl": "https://site.example/"}
    post(wsgi_app, tenant, tenant.api_key, body, headers={"User-Agent": "UA-1"})
    post(wsgi_app, tenant, tenant.api_key, body, headers={"User-Agent": "UA-1"})
    events = [fields for _, fields in buffer.read(tenant.schema_name, 10)]
    with schema_context(tenant.schema_name):
        expected = services.pageview_event(page_url="https://site.example/", referrer="", post_slug="",
                                           user_agent="UA-1", ip="198.51.100.7", now=services.timezone.now())
    connection.set_schema_to_public()
    assert [event["v"] for event in events] == [expected["v"], expected["v"]]


@pytest.mark.parametrize(("body", "message"), [
    (b'{"referrer": ""}', "Page URL is required"),
    (b"{nope", None),
    (b"[]", None),
])
def test_invalid_bodies_get_djangos_400_and_nothing_is_stored(wsgi_app, tenant, body, message):
    post(wsgi_app, tenant, tenant.api_key)  # the host is known to the fast path
    response = post(wsgi_app, tenant, tenant.api_key, body)
    assert response.status_code == 400 and response.json()["error"] == "validation_error"
    if message:
        assert response.json()["message"] == message
    assert len(buffer.read(tenant.schema_name, 10)) == 1


def test_wrong_other_or_rotated_keys_are_401(wsgi_app, tenant, other_tenant, django_capture_on_commit_callbacks):
    post(wsgi_app, tenant, tenant.api_key)
    post(wsgi_app, other_tenant, other_tenant.api_key)
    assert post(wsgi_app, tenant, "cms_live_wrong").status_code == 401
    assert post(wsgi_app, tenant, other_tenant.api_key).status_code == 401
    assert post(wsgi_app, tenant, None).status_code == 401
    old = tenant.api_key
    with django_capture_on_commit_callbacks(execute=True):
        client_rotate_keys(client=Client.objects.get(pk=tenant.pk), content=True)
    assert post(wsgi_app, tenant, old).status_code == 401
    assert len(buffer.read(tenant.schema_name, 10)) == 1
    assert len(buffer.read(other_tenant.schema_name, 10)) == 1


def test_each_host_writes_its_own_stream(wsgi_app, tenant, other_tenant):
    for _ in range(2):
        post(wsgi_app, tenant, tenant.api_key)
        post(wsgi_app, other_tenant, other_tenant.api_key)
    assert len(buffer.read(tenant.schema_name, 10)) == 2
    assert len(buffer.read(other_tenant.schema_name, 10)) == 2


def test_suspended_company_is_refused(wsgi_app, tenant, django_capture_on_commit_callbacks):
    post(wsgi_app, tenant, tenant.api_key)
    with django_capture_on_commit_callbacks(execute=True):
        client_set_status(client=Client.objects.get(pk=tenant.pk), status=Client.Status.SUSPENDED)
    assert post(wsgi_app, tenant, tenant.api_key).status_code == 403


def test_fast_path_tracking_with_redis_down_writes_to_postgres(wsgi_app, tenant, private_redis):
    post(wsgi_app, tenant, tenant.api_key)
    private_redis.stop()
    response = post(wsgi_app, tenant, tenant.api_key)
    assert response.status_code == 200 and response.json() == {"success": True}
    with schema_context(tenant.schema_name):
        assert PageView.objects.filter(rolled_up=False).count() == 1


def test_cors_headers_match_django(wsgi_app, tenant):
    origin = {"Origin": "https://www.company.example"}
    slow = post(wsgi_app, tenant, tenant.api_key, headers=origin)
    fast = post(wsgi_app, tenant, tenant.api_key, headers=origin)
    assert len(buffer.read(tenant.schema_name, 10)) == 2
    for name in ("access-control-allow-origin", "access-control-expose-headers", "vary", "x-content-type-options"):
        assert fast.headers.get(name) == slow.headers.get(name), name


def test_fast_path_applies_the_input_rule_of_every_text_field(wsgi_app, tenant):
    """The fast path validates with TrackIn itself: its text fields take the input rule of
    apps.core.text as Django's endpoint does (U+000B a space, other C0 controls and U+FFFE out),
    and an unpaired surrogate gets Django's 400 envelope with nothing stored."""
    from apps.core.text import SURROGATE_MESSAGE

    assert post(wsgi_app, tenant, tenant.api_key).status_code == 200  # Django answers and records the host
    with CaptureQueriesContext(connection) as queries:
        fast = post(wsgi_app, tenant, tenant.api_key, {"pageUrl": "https://site.example/a\x0bb\x01\ufffe",
                                                       "postSlug": "hel\x02lo\x1f"})
    assert fast.status_code == 200 and len(queries) == 0
    [*_, (_, event)] = buffer.read(tenant.schema_name, 10)
    assert (event["u"], event["p"]) == ("https://site.example/a b", "hello")
    for raw in (b'{"pageUrl": "https://site.example/\\ud800"}', b'{"pageUrl": "https://x.example", "referrer": "\\udfff"}'):
        refused = post(wsgi_app, tenant, tenant.api_key, raw)
        assert refused.status_code == 400 and refused.json() == {
            "success": False, "message": SURROGATE_MESSAGE, "error": "validation_error"}
    assert len(buffer.read(tenant.schema_name, 10)) == 2
