"""A cache hit a worker confirmed with Redis is answered again for a moment without Redis
(apps.public_api.core.Leases, PUBLIC_API_LEASE_MS): the same bytes and headers, counted against the
key's limit at the next round trip, ended at once by a write or a key change made in the same
process, and by the lease's end for a change made elsewhere."""
from __future__ import annotations

import time

import pytest

from apps.core import redis_conn
from apps.core.content_version import _key as version_key
from apps.public_api import keys
from apps.public_api.tests.conftest import wsgi_call

pytestmark = pytest.mark.django_db
PER_REQUEST = {"x-request-id"}  # headers that belong to the request, not to the reply


@pytest.fixture
def content(tenant):
    from apps.content.tests.factories import make_post

    return {"hello": make_post(tenant, "Hello world", slug="hello", status="published")}


def get(app, tenant, **headers):
    return wsgi_call(app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5", headers=headers)


def test_hits_within_a_lease_make_one_round_trip_and_answer_the_same_bytes(wsgi_app, tenant, content, settings,
                                                                            lookup_codes):
    settings.PUBLIC_API_LEASE_MS = 60_000  # (long: this test only counts round trips)
    settings.PUBLIC_API_RATE_LIMIT = 100_000
    miss = get(wsgi_app, tenant)
    confirmed = get(wsgi_app, tenant)
    leased = [get(wsgi_app, tenant, Origin="https://www.company.example") for _ in range(5)]
    assert lookup_codes == [0, 2]  # Django made it; one hit confirmed by Redis; five answered from the lease
    for reply in leased:
        assert reply.status_code == 200 and reply.content == confirmed.content == miss.content
        assert reply.headers["x-cache"] == "HIT"
        for name, value in confirmed.headers.items():
            if name not in PER_REQUEST:
                assert reply.headers.get(name) == value, name
        assert reply.headers["access-control-allow-origin"] == "*"  # the request's own headers still made
    not_modified = get(wsgi_app, tenant, **{"If-None-Match": confirmed.headers["etag"]})
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified.headers["etag"] == confirmed.headers["etag"]
    assert lookup_codes == [0, 2]


def test_a_lease_made_from_a_304_answers_304s_only(wsgi_app, tenant, content, settings, lookup_codes):
    settings.PUBLIC_API_LEASE_MS = 60_000
    settings.PUBLIC_API_RATE_LIMIT = 100_000
    etag = get(wsgi_app, tenant).headers["etag"]  # Django made it
    conditional = {"If-None-Match": etag}
    replies = [get(wsgi_app, tenant, **conditional) for _ in range(4)]
    assert [reply.status_code for reply in replies] == [304] * 4
    assert lookup_codes == [0, 3]  # one 304 from Redis (no body sent), three from its lease
    full = get(wsgi_app, tenant)  # no If-None-Match: the lease has no body, Redis answers
    assert full.status_code == 200 and full.headers["etag"] == etag and len(lookup_codes) == 3


def test_hits_answered_from_a_lease_count_against_the_key_at_its_next_round_trip(wsgi_app, tenant, content,
                                                                                  settings, lookup_codes):
    settings.PUBLIC_API_LEASE_MS = 150
    settings.PUBLIC_API_RATE_LIMIT = 3000  # a lease answers at most 30 hits (a hundredth of the limit)
    for _ in range(12):
        assert get(wsgi_app, tenant).status_code == 200
    counter = keys.throttle_key(keys.key_hash(tenant.api_key), 3000)
    client = redis_conn.client()
    counted = int(client.get(counter))
    assert counted < 12  # the leased hits are owed, not yet counted
    time.sleep(0.2)  # the lease ends
    assert get(wsgi_app, tenant).status_code == 200
    assert int(client.get(counter)) == 13  # every request counted, the owed ones with this round trip
    assert lookup_codes.count(2) + lookup_codes.count(6) == 2


def test_a_lease_answers_at_most_a_hundredth_of_the_keys_limit(wsgi_app, tenant, content, settings, lookup_codes):
    settings.PUBLIC_API_LEASE_MS = 60_000
    settings.PUBLIC_API_RATE_LIMIT = 300  # 3 hits per lease
    for _ in range(9):
        get(wsgi_app, tenant)
    # Django, then a round trip every fourth request (one confirmed, three from its lease)
    assert lookup_codes == [0, 2, 6]


def test_a_key_under_a_hundred_requests_gets_no_lease_and_its_limit_is_exact(wsgi_app, tenant, content,
                                                                             settings, lookup_codes):
    settings.PUBLIC_API_LEASE_MS = 60_000
    settings.PUBLIC_API_RATE_LIMIT = 5
    statuses = [get(wsgi_app, tenant).status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429, 429]
    assert len(lookup_codes) == 7  # every request asked Redis


def test_a_write_in_this_process_ends_the_leases_at_once(api, wsgi_app, tenant, content, settings, lookup_codes,
                                                         django_capture_on_commit_callbacks):
    settings.PUBLIC_API_LEASE_MS = 60_000
    settings.PUBLIC_API_RATE_LIMIT = 100_000
    get(wsgi_app, tenant), get(wsgi_app, tenant)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.put(f"/api/posts/{content['hello'].id}", {"title": "Renamed"}).status_code == 200
    assert get(wsgi_app, tenant).json()["data"]["posts"][0]["title"] == "Renamed"


def test_a_key_rotated_in_this_process_is_refused_at_once(wsgi_app, tenant, content, settings,
                                                          django_capture_on_commit_callbacks):
    from lifecycle.services import client_rotate_keys
    from tenants.models import Client

    settings.PUBLIC_API_LEASE_MS = 60_000
    settings.PUBLIC_API_RATE_LIMIT = 100_000
    old_key = tenant.api_key
    for _ in range(3):
        assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old_key).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        client_rotate_keys(client=Client.objects.get(pk=tenant.pk), content=True)
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old_key).status_code == 401


def test_a_write_made_by_another_process_is_seen_when_the_lease_ends(wsgi_app, tenant, content, settings):
    """Another process's write reaches this worker through Redis (the content version): a lease
    answers the older reply until it ends, and never after."""
    from django_tenants.utils import schema_context

    from apps.content.models import Post

    settings.PUBLIC_API_LEASE_MS = 300
    settings.PUBLIC_API_RATE_LIMIT = 100_000
    get(wsgi_app, tenant), get(wsgi_app, tenant)  # Django, then a hit: the lease starts
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=content["hello"].pk).update(title="Renamed elsewhere")
    redis_conn.client().incr(version_key(tenant.schema_name))  # what the other process's write does after commit
    started = time.monotonic()
    titles = []
    while time.monotonic() - started < 0.6:
        titles.append((time.monotonic() - started, get(wsgi_app, tenant).json()["data"]["posts"][0]["title"]))
        time.sleep(0.02)
    assert titles[0][1] == "Hello world"  # answered from the lease
    assert max(at for at, title in titles if title == "Hello world") < 0.3  # only while it lasted
    assert titles[-1][1] == "Renamed elsewhere"


@pytest.mark.django_db(databases=[])
def test_leases_hold_at_most_their_budget_of_bodies_and_let_ended_ones_go():
    from apps.public_api.core import Leases

    leases = Leases(60, budget=1000)
    for n in range(5):
        leases.grant(("host", "key", f"query-{n}"), 10_000, f'"{n}"', [], [], b"x" * 400)
        assert leases.size <= 1000 and leases.size == 400 * len(leases.slots)
    assert leases.take(("host", "key", "query-4")).body == b"x" * 400  # the newest is kept
    short = Leases(0.01, budget=1000)
    short.grant(("host", "key", "a"), 10_000, '"a"', [], [], b"x" * 600)
    time.sleep(0.02)
    short.grant(("host", "key", "b"), 10_000, '"b"', [], [], b"x" * 600)  # the ended lease made room
    assert list(short.slots) == [("host", "key", "b")] and short.size == 600
    assert short.take(("host", "key", "a")) is None


def test_hits_owed_by_leases_are_still_owed_after_a_request_redis_leaves_to_django(wsgi_app, tenant, content,
                                                                                  settings):
    """A request the lookup leaves to Django (not cached, not a list the fast path builds) takes no
    entry in the script: the leases' hits wait for the next round trip that takes one."""
    settings.PUBLIC_API_LEASE_MS = 100
    settings.PUBLIC_API_RATE_LIMIT = 3000
    for _ in range(6):  # Django, a hit, four from its lease
        get(wsgi_app, tenant)
    counter = keys.throttle_key(keys.key_hash(tenant.api_key), 3000)
    client = redis_conn.client()
    # a post by slug, not cached yet: the lookup answers MISS and Django counts this request alone
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key).status_code == 200
    time.sleep(0.15)  # the lease ends
    assert get(wsgi_app, tenant).status_code == 200
    assert int(client.get(counter)) == 8  # every request counted once
