"""Caching of the public content API: Redis per tenant + query + content version, ETag/304,
invalidation on writes, and the WSGI fast path that serves hits without Django."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.content.tests.factories import make_category, make_post
from apps.public_api.tests.conftest import key_client, wsgi_call
from tenants.models import Client
from lifecycle.services import client_rotate_keys, client_set_status

GETS = ["/api/v1/posts", "/api/v1/posts/slug/hello", "/api/v1/posts/category/news", "/api/v1/categories",
        "/api/v1/tags"]


@pytest.fixture
def content(tenant):
    news = make_category(tenant, "News", slug="news")
    return {"hello": make_post(tenant, "Hello world", slug="hello", categories=[news], status="published"), "news": news}


def content_queries(queries) -> list[str]:
    """Queries other than django-tenants' own (SET search_path, the Host -> tenant lookup)."""
    return [q["sql"] for q in queries.captured_queries
            if not q["sql"].startswith("SET search_path") and "tenants_domain" not in q["sql"]]


@pytest.mark.parametrize("path", GETS)
def test_every_200_carries_etag_and_cache_control(site, content, path):
    response = site.get(path)
    assert response.status_code == 200
    assert response["ETag"].startswith('"') and response["Cache-Control"] == "public, max-age=60, s-maxage=300"
    assert "x-api-key" in response["Vary"]


def test_second_identical_request_reads_no_content_from_the_database(site, content):
    first = site.get("/api/v1/posts")
    assert first["X-Cache"] == "MISS"
    with CaptureQueriesContext(connection) as queries:
        second = site.get("/api/v1/posts")
    assert second["X-Cache"] == "HIT"
    assert second.content == first.content and second["ETag"] == first["ETag"]
    assert content_queries(queries) == []


def test_fast_path_serves_a_cached_reply_with_no_sql_at_all(wsgi_app, tenant, content):
    first = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="page=1")
    assert first.status_code == 200 and first.headers["x-cache"] == "MISS"
    with CaptureQueriesContext(connection) as queries:
        second = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="page=1")
    assert len(queries) == 0
    assert second.status_code == 200 and second.headers["x-cache"] == "HIT"
    assert second.content == first.content
    assert second.headers["etag"] == first.headers["etag"]
    assert second.headers["cache-control"] == "public, max-age=60, s-maxage=300"
    assert second.headers["content-type"] == "application/json"
    assert second.headers["vary"] == first.headers["vary"]
    # A trailing slash is the same resource.
    third = wsgi_call(wsgi_app, tenant, "/api/v1/posts/", key=tenant.api_key, query="page=1")
    assert third.headers["x-cache"] == "HIT" and third.content == first.content


def test_etag_round_trip_gives_304_on_both_paths(site, wsgi_app, tenant, content):
    first = site.get("/api/v1/posts/slug/hello")
    etag = first["ETag"]
    not_modified = site.get("/api/v1/posts/slug/hello", headers={"If-None-Match": etag})
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified["ETag"] == etag and not_modified["Cache-Control"] == "public, max-age=60, s-maxage=300"
    with CaptureQueriesContext(connection) as queries:
        fast = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key,
                         headers={"If-None-Match": etag})
    assert len(queries) == 0
    assert fast.status_code == 304 and fast.content == b"" and fast.headers["etag"] == etag
    weak_list = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key,
                          headers={"If-None-Match": f'"other", W/{etag}'})
    assert weak_list.status_code == 304
    stale = site.get("/api/v1/posts/slug/hello", headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.content == first.content


def test_post_edit_invalidates_cached_replies(api, site, wsgi_app, tenant, content,
                                             django_capture_on_commit_callbacks):
    before = site.get("/api/v1/posts")
    etag = before["ETag"]
    assert site.get("/api/v1/posts")["X-Cache"] == "HIT"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put(f"/api/posts/{content['hello'].id}", {"title": "Renamed"})
    assert response.status_code == 200, response.json()

    after = site.get("/api/v1/posts")
    assert after["X-Cache"] == "MISS"
    assert after.json()["data"]["posts"][0]["title"] == "Renamed"
    assert after["ETag"] != etag
    assert site.get("/api/v1/posts", headers={"If-None-Match": etag}).status_code == 200
    fast = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key)
    assert fast.json()["data"]["post"]["title"] == "Renamed"


def test_category_write_invalidates_category_lists(api, site, content, django_capture_on_commit_callbacks):
    assert [c["name"] for c in site.get("/api/v1/categories").json()["data"]["categories"]] == ["News"]
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/categories/add", {"name": "Sport", "slug": "sport"}).status_code == 201
    assert [c["name"] for c in site.get("/api/v1/categories").json()["data"]["categories"]] == ["News", "Sport"]


def test_content_and_preview_keys_never_share_a_cached_reply(site, preview, tenant, content):
    make_post(tenant, "Draft", slug="draft", status="draft")
    assert preview.get("/api/v1/posts/slug/draft").status_code == 200
    assert site.get("/api/v1/posts/slug/draft").status_code == 404
    assert preview.get("/api/v1/posts/slug/draft")["X-Cache"] == "HIT"


def test_one_companys_cached_reply_is_never_served_on_another_host(wsgi_app, tenant, other_tenant, content):
    make_post(other_tenant, "Theirs", slug="hello", status="published")  # the same slug on the other company
    mine = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key)
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/hello", key=tenant.api_key).headers["x-cache"] == "HIT"
    # Same path and query on the other host, with that host's key: its own post, built there.
    theirs = wsgi_call(wsgi_app, other_tenant, "/api/v1/posts/slug/hello", key=other_tenant.api_key)
    assert theirs.headers["x-cache"] == "MISS"
    assert theirs.json()["data"]["post"]["title"] == "Theirs" and mine.json()["data"]["post"]["title"] == "Hello world"
    # The first company's key on the other host: 401, even with its reply cached.
    crossed = wsgi_call(wsgi_app, other_tenant, "/api/v1/posts/slug/hello", key=tenant.api_key)
    assert crossed.status_code == 401
    lists = wsgi_call(wsgi_app, other_tenant, "/api/v1/posts", key=other_tenant.api_key).json()
    assert [post["title"] for post in lists["data"]["posts"]] == ["Theirs"]


def test_fast_path_steps_aside_for_wrong_or_missing_keys(wsgi_app, tenant, content):
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)  # cached
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key="cms_live_wrong").status_code == 401
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts").status_code == 401


def test_rotated_key_stops_working_at_once_on_the_fast_path(wsgi_app, tenant, content,
                                                           django_capture_on_commit_callbacks):
    old = tenant.api_key
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old)
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old).headers["x-cache"] == "HIT"
    with django_capture_on_commit_callbacks(execute=True):
        client_rotate_keys(client=Client.objects.get(pk=tenant.pk), content=True)
    new = Client.objects.get(pk=tenant.pk).api_key
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=old).status_code == 401
    fresh = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=new)
    assert fresh.status_code == 200 and fresh.headers["x-cache"] == "HIT"  # same content, same cached reply


def test_suspended_company_is_refused_even_with_cached_replies(wsgi_app, tenant, content,
                                                               django_capture_on_commit_callbacks):
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    with django_capture_on_commit_callbacks(execute=True):
        client_set_status(client=Client.objects.get(pk=tenant.pk), status=Client.Status.SUSPENDED)
    response = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert response.status_code == 403


def test_fast_path_adds_cors_headers_like_django(wsgi_app, tenant, content):
    origin = {"Origin": "https://www.company.example"}
    slow = wsgi_call(wsgi_app, tenant, "/api/v1/tags", key=tenant.api_key, headers=origin)
    fast = wsgi_call(wsgi_app, tenant, "/api/v1/tags", key=tenant.api_key, headers=origin)
    assert fast.headers["x-cache"] == "HIT"
    for name in ("access-control-allow-origin", "access-control-expose-headers", "vary"):
        assert fast.headers[name] == slow.headers[name], name


def test_cache_can_be_turned_off(site, content, settings):
    settings.PUBLIC_API_CACHE = False
    site.get("/api/v1/posts")
    response = site.get("/api/v1/posts")
    assert response["X-Cache"] == "MISS" and response["ETag"]


def test_pages_of_a_listing_share_one_count_until_the_next_write(site, tenant, django_capture_on_commit_callbacks):
    from apps.core.content_version import content_version_bump

    for n in range(25):
        make_post(tenant, slug=f"p{n}", status="published")
    assert site.get("/api/v1/posts", {"page": 1}).json()["data"]["pagination"]["total"] == 25
    with CaptureQueriesContext(connection) as queries:
        page2 = site.get("/api/v1/posts", {"page": 2}).json()["data"]
    assert page2["pagination"] == {"total": 25, "totalPages": 3, "currentPage": 2, "limit": 10}
    assert not any("count(" in sql.lower() for sql in content_queries(queries))
    with django_capture_on_commit_callbacks(execute=True):
        make_post(tenant, slug="new", status="published")
        from django_tenants.utils import schema_context

        with schema_context(tenant.schema_name):
            content_version_bump()
    assert site.get("/api/v1/posts", {"page": 3}).json()["data"]["pagination"]["total"] == 26
