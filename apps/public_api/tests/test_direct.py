"""Posts lists built in the WSGI layer (apps.public_api.direct): the same bytes and headers as
Django's, one SQL statement and no Django, the key, rate limit and company rules of the API, and
everything it is unsure of left to Django."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.content.tests.factories import make_category, make_media, make_post, make_tag
from apps.public_api import selectors
from apps.public_api.tests.conftest import wsgi_call
from lifecycle.services import client_rotate_keys, client_set_status


@pytest.fixture
def content(tenant):
    news, howto = make_category(tenant, "News", slug="news"), make_category(tenant, "How-to", slug="how-to")
    tag = make_tag(tenant, "Python", slug="python")
    image = make_media(tenant, alt_text="Cover")
    now = timezone.now()
    posts = [make_post(tenant, f"Post {n}", slug=f"post-{n}", categories=[news, howto] if n % 2 else [news],
                       tags=[tag] if n % 3 == 0 else [], featured_image=image if n % 2 == 0 else None,
                       created_at=now - timedelta(minutes=n), status="published") for n in range(12)]
    make_post(tenant, "A draft", slug="a-draft", status="draft", created_at=now + timedelta(minutes=1))
    return posts


def _known_host(wsgi_app, tenant, key=None):
    """A first request, for a host the fast path does not know yet, goes through Django, which
    records the host in the fast path's host map."""
    first = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=key or tenant.api_key, query="limit=1&first")
    assert first.status_code == 200


def _comparable(response) -> dict:
    headers = {name: value for name, value in response.headers.items() if name != "x-request-id"}
    return {"status": response.status_code, "headers": headers, "body": response.content}


LIST = "/api/v1/posts"
CASES = [
    ("api_key", LIST, ""), ("api_key", LIST, "page=2&limit=5"), ("api_key", LIST, "limit=100"),
    ("api_key", LIST, "page=9"), ("api_key", LIST, "status=published&limit=3"),
    ("api_key", LIST, "page=1&limit=4&utm_source=mail"), ("preview_key", LIST, "status=draft"),
    ("preview_key", LIST, "status=all&limit=20"), ("preview_key", LIST, "status=ARCHIVED"),
    ("api_key", LIST, "search=post%201"), ("api_key", LIST, "search=+Body+&limit=3&page=2"),
    ("api_key", LIST, "search=zz-nothing"), ("preview_key", LIST, "status=all&search=draft"),
    ("api_key", LIST, "search=&limit=2"),
    ("api_key", f"{LIST}/category/news", ""), ("api_key", f"{LIST}/category/how-to/", "limit=2&page=2"),
    ("preview_key", f"{LIST}/tag/python", "status=all"), ("api_key", f"{LIST}/tag/PYTHON", "search=not-applied"),
]


@pytest.mark.parametrize("cached", [True, False], ids=["cache-miss", "cache-off"])
@pytest.mark.parametrize("key_field,path,query", CASES)
def test_same_bytes_and_headers_as_django(wsgi_app, tenant, content, settings, lookup_codes, cached, key_field, path, query,
                                          django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = cached
    key = getattr(tenant, key_field)
    _known_host(wsgi_app, tenant, key)
    lookup_codes.clear()
    origin = {"Origin": "https://www.example.com"}
    built = wsgi_call(wsgi_app, tenant, path, key=key, query=query, headers=origin)
    assert lookup_codes == [7]
    if cached:  # Django must build it too: a new content version, so neither finds the other's reply
        from apps.core.content_version import content_version_bump
        from django_tenants.utils import schema_context

        with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
            content_version_bump()
    django = wsgi_call(WSGIHandler(), tenant, path, key=key, query=query, headers=origin)
    assert django.status_code == 200
    assert _comparable(built) == _comparable(django)
    assert built.headers["x-cache"] == "MISS"
    assert built.headers["x-request-id"]


def test_a_miss_is_one_sql_statement_and_the_next_request_a_hit(wsgi_app, tenant, content, lookup_codes):
    _known_host(wsgi_app, tenant)
    # The worker learns the company's subdomain (for media links) on its first list, once.
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=2")
    lookup_codes.clear()
    with CaptureQueriesContext(connection) as queries:
        built = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5")
    assert built.status_code == 200 and built.headers["x-cache"] == "MISS"
    assert [post["slug"] for post in built.json()["data"]["posts"]] == [f"post-{n}" for n in range(5)]
    assert built.json()["data"]["pagination"] == {"total": 12, "totalPages": 3, "currentPage": 1, "limit": 5}
    # No Host -> company lookup, no middleware: the page and its total in one statement, in the
    # company's own schema.
    assert len(queries) == 1, [q["sql"][:80] for q in queries]
    assert f'"{tenant.schema_name}"."content_post"' in queries[0]["sql"]
    with CaptureQueriesContext(connection) as queries:
        hit = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5")
        second_page = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5&page=2")
    assert (hit.headers["x-cache"], hit.content, hit.headers["etag"]) == ("HIT", built.content, built.headers["etag"])
    assert second_page.json()["data"]["pagination"]["total"] == 12
    assert lookup_codes == [7, 6, 7]
    # The second page's total is a row of the trigger-kept counts, read with the page: no posts
    # are counted.
    assert len(queries) == 1 and "count(" not in queries[0]["sql"].lower()


def test_if_none_match_on_a_miss_is_304(wsgi_app, tenant, content, settings):
    settings.PUBLIC_API_CACHE = False
    _known_host(wsgi_app, tenant)
    first = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    again = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key,
                      headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"]
    assert again.headers["x-cache"] == "MISS"
    django = wsgi_call(WSGIHandler(), tenant, "/api/v1/posts", key=tenant.api_key,
                       headers={"If-None-Match": first.headers["etag"]})
    # The same headers, but Django's `Content-Length: 0` (a 304 has no body; the fast path's cache
    # hits send none either).
    django.headers.pop("content-length")
    assert _comparable(again) == _comparable(django)


def test_a_write_is_seen_by_the_next_miss(wsgi_app, api, tenant, content, lookup_codes, django_capture_on_commit_callbacks):
    _known_host(wsgi_app, tenant)
    before = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=2")
    with django_capture_on_commit_callbacks(execute=True):
        assert api.put(f"/api/posts/{content[0].id}", {"title": "Renamed"}).status_code == 200
    lookup_codes.clear()
    after = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=2")
    assert lookup_codes == [7]
    assert after.json()["data"]["posts"][0]["title"] == "Renamed"
    assert after.headers["etag"] != before.headers["etag"]


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_companies_never_see_each_other(wsgi_app, tenant, other_tenant, settings, lookup_codes, cached):
    settings.PUBLIC_API_CACHE = cached
    make_post(tenant, "Mine", slug="same", status="published", content="<p>Shared words</p>")
    make_post(other_tenant, "Theirs", slug="same", status="published", content="<p>Shared words</p>")
    _known_host(wsgi_app, tenant)
    _known_host(wsgi_app, other_tenant)
    lookup_codes.clear()
    # A search runs on the company's search_path: planned ("e", too short for the trigram index) or
    # one prepared statement for both companies on the same connection ("shared").
    for query in ("", "limit=3", "search=e", "search=e&limit=5", "search=shared", "search=shared&limit=5"):
        mine = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query=query)
        theirs = wsgi_call(wsgi_app, other_tenant, "/api/v1/posts", key=other_tenant.api_key, query=query)
        assert [p["title"] for p in mine.json()["data"]["posts"]] == ["Mine"]
        assert [p["title"] for p in theirs.json()["data"]["posts"]] == ["Theirs"]
    # Another company's key on this host: 401 from Django, never their list or this one.
    crossed = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=other_tenant.api_key)
    assert crossed.status_code == 401 and b"Mine" not in crossed.content and b"Theirs" not in crossed.content
    assert lookup_codes[:12] == [7] * 12


@pytest.mark.parametrize("query,status,message", [
    ("page=0", 400, "Page must be at least 1"),
    ("limit=101", 400, "Limit must be at most 100"),
    ("limit=abc", 400, None),
    ("page=", 400, None),
    ("status=nonsense", 400, "Status must be one of published, draft, archived, all"),
    ("status=draft", 403, "Reading unpublished posts needs the preview key"),
    ("page=1&page=2", 400, "Page must be given once"),
    ("search=" + "a" * 201, 200, None),
    ("search=a%00b", 400, None),
    ("search=caf\u00c3\u00a9", 200, None),  # raw UTF-8 bytes as a WSGI server passes them (latin-1)
])
@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_what_it_is_unsure_of_goes_to_django(wsgi_app, tenant, content, settings, lookup_codes, cached, query, status,
                                             message):
    settings.PUBLIC_API_CACHE = cached
    _known_host(wsgi_app, tenant)
    lookup_codes.clear()
    response = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query=query)
    assert response.status_code == status, response.content
    if message:
        assert response.json()["message"] == message
    assert 7 not in lookup_codes  # Django answered


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_keys_are_checked_as_by_django(wsgi_app, tenant, content, settings, cached, django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = cached
    _known_host(wsgi_app, tenant)
    old_key = tenant.api_key
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old_key).status_code == 200
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key="cms_live_made_up").status_code == 401
    with django_capture_on_commit_callbacks(execute=True):
        client_rotate_keys(client=tenant)
    tenant.refresh_from_db()
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old_key).status_code == 401
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        client_set_status(client=tenant, status="suspended")
    suspended = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert suspended.status_code == 403 and b"Post 0" not in suspended.content


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_lists_count_against_the_rate_limit(wsgi_app, tenant, content, settings, lookup_codes, cached):
    settings.PUBLIC_API_CACHE = cached
    settings.PUBLIC_API_RATE_LIMIT = 3
    settings.PUBLIC_API_RATE_LIMITS = {}
    _known_host(wsgi_app, tenant)  # one request of the three
    lookup_codes.clear()
    answers = [wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query=f"page={n}")
               for n in (1, 2, 3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert lookup_codes == [7, 7, 4]
    assert int(answers[2].headers["retry-after"]) >= 1
    assert answers[2].json()["error"] == "rate_limited"


def test_cache_off_learns_the_host_from_django_first(wsgi_app, tenant, content, settings, lookup_codes):
    settings.PUBLIC_API_CACHE = False
    first = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    second = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert lookup_codes == [0, 7]  # unknown host: Django answered and recorded it
    assert first.content == second.content and second.headers["x-cache"] == "MISS"


def test_a_database_error_leaves_the_list_to_django(wsgi_app, tenant, content, monkeypatch, lookup_codes):
    _known_host(wsgi_app, tenant)
    real, calls = selectors.posts_page_rows, []

    def fails_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "posts_page_rows", fails_once)
    lookup_codes.clear()
    response = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert response.status_code == 200 and len(response.json()["data"]["posts"]) == 10
    assert lookup_codes == [7] and len(calls) == 2  # this layer failed, Django answered


def test_a_list_total_is_read_from_the_counts_not_counted(wsgi_app, tenant, content, settings):
    settings.PUBLIC_API_CACHE = False  # every request needs its total
    _known_host(wsgi_app, tenant)
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=2")  # learns the subdomain
    with CaptureQueriesContext(connection) as queries:
        published = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5")
        everything = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.preview_key, query="status=all")
    assert published.json()["data"]["pagination"]["total"] == 12
    assert everything.json()["data"]["pagination"]["total"] == 13
    assert len(queries) == 2
    for query in queries:
        assert f'"{tenant.schema_name}"."content_post_count"' in query["sql"]
        assert "count(" not in query["sql"].lower()


def test_an_unexpected_error_leaves_the_list_to_django(wsgi_app, tenant, content, monkeypatch, lookup_codes, caplog):
    _known_host(wsgi_app, tenant)
    real, calls = selectors.posts_page_summaries, []

    def fails_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug")
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "posts_page_summaries", fails_once)
    lookup_codes.clear()
    response = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=3")
    assert response.status_code == 200 and len(response.json()["data"]["posts"]) == 3
    assert lookup_codes == [7] and len(calls) == 2
    assert "posts list left to Django" in caplog.text


@pytest.mark.parametrize("path,status,message", [
    ("/api/v1/posts/category/no-such-category", 404, "Category not found"),
    ("/api/v1/posts/tag/no-such-tag", 404, "Tag not found"),
    ("/api/v1/posts/category/news?page=50", 200, None),  # past the end: an empty page
    ("/api/v1/posts/category/%20", 404, "Category not found"),
])
def test_an_empty_category_or_tag_page_is_left_to_django_and_counted_once(wsgi_app, tenant, content, settings,
                                                                          lookup_codes, path, status, message):
    settings.PUBLIC_API_RATE_LIMIT = 3
    settings.PUBLIC_API_RATE_LIMITS = {}
    _known_host(wsgi_app, tenant)  # the first of three requests
    path, _, query = path.partition("?")
    lookup_codes.clear()
    response = wsgi_call(wsgi_app, tenant, path, key=tenant.api_key, query=query)
    assert response.status_code == status, response.content
    if message:
        assert response.json()["message"] == message
    else:
        assert response.json()["data"]["posts"] == []
    # The fast path's script counted it; Django did not count it again: one request is left.
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=7").status_code == 200
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=8").status_code == 429


def test_with_the_cache_off_a_search_is_counted_once_per_content_version(wsgi_app, api, tenant, content, settings,
                                                                       django_capture_on_commit_callbacks):
    """No reply is kept with the cache off, but a search's total is (for the company's content
    version, as with the cache on): the next pages of the search do not count its matches again,
    and a write makes the next one count them afresh."""
    settings.PUBLIC_API_CACHE = False
    _known_host(wsgi_app, tenant)
    first = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="search=post&limit=5")
    assert first.json()["data"]["pagination"]["total"] == 12
    with CaptureQueriesContext(connection) as queries:
        second = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="search=post&limit=5&page=2")
    assert second.headers["x-cache"] == "MISS"
    assert second.json()["data"]["pagination"]["total"] == 12
    assert [post["slug"] for post in second.json()["data"]["posts"]] == [f"post-{n}" for n in range(5, 10)]
    assert not any("count(" in query["sql"].lower() for query in queries), [q["sql"][:120] for q in queries]
    with django_capture_on_commit_callbacks(execute=True):
        assert api.put(f"/api/posts/{content[0].id}", {"status": "draft"}).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        after = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="search=post&limit=5&page=2")
    assert after.json()["data"]["pagination"]["total"] == 11
    assert any("count(" in query["sql"].lower() for query in queries)
