"""Per-key rate limits (atomic in Redis) and the public API with Redis gone."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.analytics.models import PageView
from apps.content.tests.factories import make_post
from apps.core import redis_conn
from apps.core.testing import create_tenant, host_of
from apps.public_api import cache, keys
from apps.public_api.tests.conftest import key_client, wsgi_call
from tenants.models import Client


@pytest.fixture
def post(tenant):
    return make_post(tenant, "Hello", slug="hello", status="published")


def test_the_601st_request_in_a_minute_gets_429(site, preview, post):
    paths = ["/api/v1/posts", "/api/v1/posts/slug/hello", "/api/v1/categories"]
    for n in range(600):
        response = site.get(paths[n % 3])
        assert response.status_code == 200, (n, response.json())
    limited = site.get("/api/v1/posts")
    assert limited.status_code == 429
    assert limited.json() == {"success": False, "message": "Too many requests for this API key. Please slow down.",
                              "error": "rate_limited"}
    assert 1 <= int(limited["Retry-After"]) <= 60
    # The limit is per key: the preview key still reads.
    assert preview.get("/api/v1/posts").status_code == 200


def test_fast_path_counts_against_the_same_limit(wsgi_app, tenant, post, settings):
    settings.PUBLIC_API_RATE_LIMIT = 5
    statuses = [wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key).status_code for _ in range(5)]
    assert statuses == [200] * 5
    limited = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
    assert limited.json()["error"] == "rate_limited"
    assert key_client(tenant, tenant.api_key).get("/api/v1/posts").status_code == 429  # Django agrees


def test_limit_depends_on_the_plan(db, settings):
    settings.PUBLIC_API_RATE_LIMITS = {"business": 3}
    business = create_tenant(plan="business")
    trial = create_tenant()
    settings.PUBLIC_API_RATE_LIMIT = 4
    assert [key_client(business, business.api_key).get("/api/v1/tags").status_code for _ in range(4)] == [
        200, 200, 200, 429]
    assert [key_client(trial, trial.api_key).get("/api/v1/tags").status_code for _ in range(5)] == [
        200, 200, 200, 200, 429]


def test_tracking_is_not_rate_limited(site, tenant, settings):
    settings.PUBLIC_API_RATE_LIMIT = 2
    for _ in range(5):
        assert site.post("/api/v1/analytics/track", {"pageUrl": "https://site.example/"}).status_code == 200


def test_redis_stopped_mid_test_the_api_still_answers(private_redis, tenant, wsgi_app, post, caplog):
    site = key_client(tenant, tenant.api_key)
    assert site.get("/api/v1/posts").status_code == 200
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key).headers["x-cache"] == "HIT"

    private_redis.stop()

    for _ in range(3):
        response = site.get("/api/v1/posts")
        assert response.status_code == 200 and response["X-Cache"] == "MISS"
        assert response.json()["data"]["posts"][0]["slug"] == "hello"
    fast = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key)
    assert fast.status_code == 200 and fast.json()["data"]["post"]["title"] == "Hello"
    assert "Redis unavailable" in caplog.text
    # Unthrottled while Redis is away.
    assert all(site.get("/api/v1/tags").status_code == 200 for _ in range(5))
    # Keys are still checked (against the database).
    assert key_client(tenant, "cms_live_wrong").get("/api/v1/posts").status_code == 401
    # Page views go straight to PostgreSQL.
    assert site.post("/api/v1/analytics/track", {"pageUrl": "https://site.example/"}).json() == {"success": True}
    with schema_context(tenant.schema_name):
        assert PageView.objects.filter(rolled_up=False).count() == 1


def test_api_recovers_when_redis_comes_back(private_redis, tenant, post, settings):
    site = key_client(tenant, tenant.api_key)
    private_redis.stop()
    assert site.get("/api/v1/posts").status_code == 200
    private_redis.start()
    from apps.core import redis_conn

    redis_conn.reset()  # the breaker would close by itself after REDIS_BREAKER_SECONDS
    site.get("/api/v1/posts")
    assert site.get("/api/v1/posts")["X-Cache"] == "HIT"


def test_suspended_company_api_is_403_whatever_the_key(site, tenant, post):
    Client.objects.filter(pk=tenant.pk).update(status=Client.Status.SUSPENDED)
    assert site.get("/api/v1/posts").status_code == 403


def test_the_limit_is_two_counters_per_key_whatever_it_allows(wsgi_app, tenant, post, settings):
    """The sliding-window counter (the `limits` library's): both paths count in the same two keys
    (the current window's and the previous one's), not a list that grows with the limit."""
    settings.PUBLIC_API_LEASE_MS = 0  # this test reads each request's round trip (leases: test_leases.py)
    settings.PUBLIC_API_RATE_LIMIT = 3000
    for _ in range(3):
        assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key).status_code == 200
    assert key_client(tenant, tenant.api_key).get("/api/v1/posts").status_code == 200
    current = keys.throttle_key(keys.key_hash(tenant.api_key), 3000)
    client = redis_conn.client()
    assert client.type(current) == b"string" and int(client.get(current)) == 4  # three before Django, one in it
    assert not client.exists(current + "/-1")  # no earlier window yet


def test_a_host_entry_of_the_moving_window_is_left_to_django(wsgi_app, tenant, post, lookup_codes):
    """Host entries written before the counter (rate-limit fields rc/rp/rg, list keys) are not
    read by the fast path's script: Django answers, correctly, until the entry expires."""
    host = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert host.status_code == 200
    entry = cache.host_key(host_of(tenant))
    client = redis_conn.client()
    fields = {name.decode(): value for name, value in client.hgetall(entry).items()}
    client.delete(entry)
    client.hset(entry, mapping={("r" + name[1:] if name in ("wc", "wp", "wg") else name): value
                                for name, value in fields.items()})
    lookup_codes.clear()
    response = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert response.status_code == 200 and response.content == host.content
    assert lookup_codes == [0]  # the script stepped aside; Django answered
