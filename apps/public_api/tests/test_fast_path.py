"""The fast path's own machinery: the copy of each reply a worker keeps in memory (sent again by
Redis only when its ETag changed), its dedicated Redis connection (reconnects after a drop,
reloads its script after a flush) and the settings it reads once."""
from __future__ import annotations

import pytest
import redis

from apps.core import redis_conn
from apps.public_api import fastpath
from apps.public_api.tests.conftest import wsgi_call


@pytest.fixture
def content(tenant):
    from apps.content.tests.factories import make_post

    return {"hello": make_post(tenant, "Hello world", slug="hello", status="published")}


def test_worker_copy_is_reused_until_a_write_changes_the_reply(api, wsgi_app, tenant, content, lookup_codes,
                                                               django_capture_on_commit_callbacks, settings):
    settings.PUBLIC_API_LEASE_MS = 0  # this test reads each request's round trip (leases: test_leases.py)
    def get():
        return wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5")

    miss = get()  # Django builds and caches it
    first_hit, second_hit = get(), get()
    assert [miss.headers["x-cache"], first_hit.headers["x-cache"], second_hit.headers["x-cache"]] == [
        "MISS", "HIT", "HIT"]
    # 0: the host is not known yet (Django's lookup records it); then the body crossed the wire
    # once and the worker's copy served the next hit.
    assert lookup_codes == [0, 2, 6]
    assert first_hit.content == second_hit.content == miss.content
    assert second_hit.headers["etag"] == miss.headers["etag"]
    assert second_hit.headers["content-length"] == str(len(miss.content))

    with django_capture_on_commit_callbacks(execute=True):
        assert api.put(f"/api/posts/{content['hello'].id}", {"title": "Renamed"}).status_code == 200
    lookup_codes.clear()
    rebuilt, fresh, again = get(), get(), get()
    # The old copy is never served: its ETag no longer matches. The list is built by the fast
    # path itself (7, apps.public_api.direct), which keeps the new copy, so no body crosses again.
    assert lookup_codes == [7, 6, 6]
    assert rebuilt.json()["data"]["posts"][0]["title"] == "Renamed"
    assert fresh.content == again.content == rebuilt.content
    assert fresh.headers["etag"] != miss.headers["etag"]


def test_copies_of_one_key_are_never_served_to_another(wsgi_app, tenant, other_tenant, content, lookup_codes):
    from apps.content.tests.factories import make_post

    make_post(other_tenant, "Other company's post", slug="hello", status="published")
    for company in (tenant, other_tenant):
        for _ in range(3):
            wsgi_call(wsgi_app, company, "/api/v1/posts/slug/hello", key=company.api_key)
    mine = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key)
    theirs = wsgi_call(wsgi_app, other_tenant, "/api/v1/posts/slug/hello", key=other_tenant.api_key)
    assert mine.json()["data"]["post"]["title"] == "Hello world"
    assert theirs.json()["data"]["post"]["title"] == "Other company's post"
    preview = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.preview_key)
    assert preview.json()["data"]["post"]["title"] == "Hello world"
    assert preview.headers["x-cache"] == "MISS"  # the preview key has replies of its own


def test_worker_copies_can_be_turned_off(wsgi_app, tenant, content, lookup_codes, settings):
    settings.PUBLIC_API_LEASE_MS = 0  # this test reads each request's round trip (leases: test_leases.py)
    settings.PUBLIC_API_LOCAL_CACHE_BYTES = 0  # read again after the change
    replies = [wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key) for _ in range(3)]
    assert lookup_codes == [0, 2, 2]
    assert replies[1].content == replies[2].content == replies[0].content


def test_worker_copies_stay_within_their_byte_budget():
    bodies = fastpath._Bodies(1000)
    for n in range(50):
        bodies.put(("host", "key", str(n)), b'"e%d"' % n, b"x" * 100)
    assert bodies.size <= 1000 and len(bodies.slots) == len(bodies.bodies) == 2  # 2 x (100 + SLOT_BYTES)
    assert bodies.get(("host", "key", "49"), b'"e49"') == b"x" * 100
    assert bodies.get(("host", "key", "0"), b'"e0"') is None  # the oldest went first
    assert bodies.get(("host", "key", "49"), b'"other"') is None  # an ETag that differs is no copy
    bodies.put(("host", "key", "big"), b'"big"', b"x" * 600)  # over a quarter of the budget: not kept
    assert bodies.etag(("host", "key", "big")) == b""


def test_worker_copies_of_the_same_reply_are_one_body():
    slot = fastpath._Bodies.SLOT_BYTES
    bodies = fastpath._Bodies(100 + 20 * slot)
    for n in range(20):  # 20 query strings answered with the same bytes: one copy, every slot kept
        bodies.put(("host", "key", str(n)), b'"same"', b"x" * 100)
    assert bodies.size == 100 + 20 * slot and len(bodies.bodies) == 1 and len(bodies.slots) == 20
    assert all(bodies.get(("host", "key", str(n)), b'"same"') == b"x" * 100 for n in range(20))
    bodies.put(("host", "key", "0"), b'"new"', b"y" * 100)  # a slot's reply changed: the shared copy stays
    assert bodies.get(("host", "key", "19"), b'"same"') == b"x" * 100 and len(bodies.bodies) == 2
    for n in range(1, 20):
        bodies.put(("host", "key", str(n)), b'"new"', b"y" * 100)
    assert list(bodies.bodies) == [b'"new"']  # the last slot naming it let it go
    for n in range(20, 60):  # other replies push the oldest slots out, and their body with the last
        bodies.put(("host", "key", str(n)), b'"e%d"' % n, b"z" * 100)
    assert bodies.size <= 100 + 20 * slot and b'"new"' not in bodies.bodies


def test_worker_copies_keep_a_bounded_number_of_slots():
    bodies = fastpath._Bodies(4096)
    for n in range(10_000):  # a client sending a new query string each time, always the same reply
        bodies.put(("host", "key", str(n)), b'"same"', b"x" * 100)
    assert len(bodies.slots) <= 4096 // fastpath._Bodies.SLOT_BYTES and bodies.size <= 4096
    assert bodies.get(("host", "key", "9999"), b'"same"') == b"x" * 100


def test_dedicated_connection_recovers_from_a_drop_and_a_script_flush(private_redis, wsgi_app, tenant, content,
                                                                      lookup_codes, settings):
    settings.PUBLIC_API_LEASE_MS = 0  # this test reads each request's round trip (leases: test_leases.py)
    def get():
        return wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)

    expected = get().content
    assert get().headers["x-cache"] == "HIT"
    server = redis.Redis.from_url(private_redis.url)

    server.script_flush()  # e.g. a restarted or failed-over Redis: the script is loaded again
    after_flush = get()
    assert after_flush.headers["x-cache"] == "HIT" and after_flush.content == expected

    server.client_kill_filter(_type="normal", skipme=True)  # every client connection dropped
    dropped = get()  # answered, whatever happened to the connection
    assert dropped.status_code == 200 and dropped.content == expected
    redis_conn.reset()
    lookup_codes.clear()
    back = get()
    assert back.headers["x-cache"] == "HIT" and back.content == expected
    assert lookup_codes and lookup_codes[-1] in (2, 6)
