"""Byte parity of the two entry points: every public route and every error answered through the
WSGI layer (apps.public_api.fastpath, which answers cache hits, builds lists, counts the rate
limit and answers 429 itself) is the same status, headers and bytes as Django alone answers
(the request id aside, and X-Cache where one path built what the other found cached)."""
from __future__ import annotations

import json

import pytest
from django.core.handlers.wsgi import WSGIHandler

from apps.content.tests.factories import make_category, make_post, make_tag
from apps.public_api.tests.conftest import wsgi_call
from lifecycle.services import client_set_status

ORIGIN = {"Origin": "https://www.example.com"}


@pytest.fixture
def content(tenant):
    news, tag = make_category(tenant, "News", slug="news"), make_tag(tenant, "Python", slug="python")
    for n in range(3):
        make_post(tenant, f"Post {n}", slug=f"post-{n}", categories=[news], tags=[tag] if n else [], status="published")
    make_post(tenant, "A draft", slug="a-draft", status="draft", categories=[news])


def _comparable(response, *, cache_status: bool = True) -> dict:
    skipped = {"x-request-id"} | (set() if cache_status else {"x-cache"})
    headers = {name: value for name, value in response.headers.items() if name not in skipped}
    return {"status": response.status_code, "headers": headers, "body": response.content}


def _both(wsgi_app, tenant, path, *, key, query="", method="GET", body=b"", headers=None):
    headers = {**ORIGIN, **(headers or {})}
    fast = wsgi_call(wsgi_app, tenant, path, key=key, query=query, method=method, body=body, headers=headers)
    django = wsgi_call(WSGIHandler(), tenant, path, key=key, query=query, method=method, body=body, headers=headers)
    return fast, django


ROUTES = [
    ("api_key", "/api/v1/posts", ""), ("api_key", "/api/v1/posts", "limit=2&page=2"),
    ("preview_key", "/api/v1/posts", "status=all"), ("api_key", "/api/v1/posts", "search=post"),
    ("api_key", "/api/v1/posts/slug/post-1", ""), ("preview_key", "/api/v1/posts/slug/a-draft", ""),
    ("api_key", "/api/v1/posts/category/news", ""), ("api_key", "/api/v1/posts/category/news", "page=9"),
    ("api_key", "/api/v1/posts/tag/python", "limit=1"), ("api_key", "/api/v1/categories", ""),
    ("api_key", "/api/v1/tags", ""),
]


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
@pytest.mark.parametrize("key_field,path,query", ROUTES)
def test_every_route_answers_alike(wsgi_app, tenant, content, settings, cached, key_field, path, query):
    settings.PUBLIC_API_CACHE = cached
    key = getattr(tenant, key_field)
    wsgi_call(wsgi_app, tenant, path, key=key, query=query)  # the host is known; with the cache, the reply is
    fast, django = _both(wsgi_app, tenant, path, key=key, query=query)
    assert fast.status_code == 200, fast.content
    assert _comparable(fast) == _comparable(django)
    assert fast.headers["access-control-allow-origin"] == "*" and fast.headers["x-request-id"]
    # If-None-Match: 304 on both, with the same headers.
    etag = fast.headers["etag"]
    fast, django = _both(wsgi_app, tenant, path, key=key, query=query, headers={"If-None-Match": etag})
    assert fast.status_code == 304
    for response in (fast, django):  # Django's `Content-Length: 0` on a 304 (the fast path sends none)
        assert response.headers.pop("content-length", "0") == "0"
    assert _comparable(fast) == _comparable(django)


ERRORS = [
    ("api_key", "/api/v1/posts", "page=0", 400),
    ("api_key", "/api/v1/posts", "limit=101", 400),
    ("api_key", "/api/v1/posts", "limit=abc", 400),
    ("api_key", "/api/v1/posts", "page=abc&limit=xyz", 400),
    ("api_key", "/api/v1/posts", "page=1&page=2", 400),
    ("api_key", "/api/v1/posts", "utm=a&utm=b", 400),
    ("api_key", "/api/v1/posts", "status=nonsense", 400),
    ("api_key", "/api/v1/posts", "search=a%00b", 400),
    ("api_key", "/api/v1/posts", "utm=%00", 400),
    ("api_key", "/api/v1/posts/category/news", "limit=0", 400),
    ("api_key", "/api/v1/posts", "status=draft", 403),
    ("api_key", "/api/v1/posts/tag/python", "status=all", 403),
    (None, "/api/v1/posts", "", 401),
    ("made-up", "/api/v1/posts", "", 401),
    ("other", "/api/v1/posts", "", 401),
    ("api_key", "/api/v1/posts/slug/a-draft", "", 404),
    ("api_key", "/api/v1/posts/slug/no-such-post", "", 404),
    ("api_key", "/api/v1/posts/category/no-such-category", "", 404),
    ("api_key", "/api/v1/posts/tag/no-such-tag", "", 404),
    ("api_key", "/api/v1/no-such-route", "", 404),
    ("api_key", "/api/v1/preview/forged-token", "", 404),
    ("api_key", "/api/v1/preview/0123456789abcdef0123456789abcdef:forged-signature-xxxxxxxxxxx", "", 404),
]


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
@pytest.mark.parametrize("key_field,path,query,status", ERRORS)
def test_every_error_answers_alike(wsgi_app, tenant, other_tenant, content, settings, cached, key_field, path, query,
                                   status):
    settings.PUBLIC_API_CACHE = cached
    key = {None: None, "made-up": "cms_live_made_up", "other": other_tenant.api_key,
           "api_key": tenant.api_key}[key_field]
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)  # the host is known
    fast, django = _both(wsgi_app, tenant, path, key=key, query=query)
    assert fast.status_code == status, fast.content
    assert fast.json()["success"] is False
    assert _comparable(fast) == _comparable(django)


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_a_suspended_company_answers_alike(wsgi_app, tenant, content, settings, cached,
                                           django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = cached
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    with django_capture_on_commit_callbacks(execute=True):
        client_set_status(client=tenant, status="suspended")
    fast, django = _both(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)
    assert fast.status_code == 403
    assert _comparable(fast) == _comparable(django)


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
@pytest.mark.parametrize("path", ["/api/v1/posts", "/api/v1/posts/category/news"])
def test_the_rate_limit_answers_alike(wsgi_app, tenant, content, settings, lookup_codes, cached, path):
    """The fast path's own 429 (its script counted the key over its limit) and Django's."""
    settings.PUBLIC_API_CACHE = cached
    settings.PUBLIC_API_RATE_LIMIT = 2
    settings.PUBLIC_API_RATE_LIMITS = {}
    wsgi_call(wsgi_app, tenant, path, key=tenant.api_key)
    wsgi_call(wsgi_app, tenant, path, key=tenant.api_key, query="page=2")
    lookup_codes.clear()
    fast, django = _both(wsgi_app, tenant, path, key=tenant.api_key)
    assert lookup_codes == [4]  # answered by the fast path
    assert fast.status_code == django.status_code == 429
    assert fast.json() == django.json() == {"success": False, "error": "rate_limited",
                                            "message": "Too many requests for this API key. Please slow down."}
    assert int(fast.headers.pop("retry-after")) >= 1 and int(django.headers.pop("retry-after")) >= 1
    assert _comparable(fast) == _comparable(django)


def test_tracking_answers_alike(wsgi_app, tenant):
    body = json.dumps({"pageUrl": "https://site.example/blog/hello", "postSlug": "hello"}).encode()
    wsgi_call(wsgi_app, tenant, "/api/v1/analytics/track", key=tenant.api_key, method="POST", body=body)
    fast, django = _both(wsgi_app, tenant, "/api/v1/analytics/track", key=tenant.api_key, method="POST", body=body)
    assert fast.status_code == 200 and fast.json() == {"success": True}
    assert _comparable(fast) == _comparable(django)
    bad, django_bad = _both(wsgi_app, tenant, "/api/v1/analytics/track", key=tenant.api_key, method="POST",
                            body=b'{"pageUrl": 5}')
    assert bad.status_code == 400 and _comparable(bad) == _comparable(django_bad)


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_a_preview_link_answers_alike_and_is_never_cached(wsgi_app, tenant, content, settings, cached):
    """A draft read through a preview link: the same reply on both paths, marked private and
    no-store, and a revoked link is 404 on the very next request (nothing kept it)."""
    from django_tenants.utils import schema_context

    from apps.content.models import Post
    from apps.content.selectors import preview_token
    from apps.content.services import preview_link_create, preview_link_revoke
    from apps.core.testing import tenant_admin

    settings.PUBLIC_API_CACHE = cached
    admin = tenant_admin(tenant)
    with schema_context(tenant.schema_name):
        draft = Post.objects.get(slug="a-draft")
        link = preview_link_create(actor=admin, post=draft)
    path = f"/api/v1/preview/{preview_token(link.id)}"
    wsgi_call(wsgi_app, tenant, path, key=tenant.api_key)
    fast, django = _both(wsgi_app, tenant, path, key=tenant.api_key)
    assert fast.status_code == 200, fast.content
    assert fast.json()["data"]["post"]["slug"] == "a-draft"
    assert fast.headers["cache-control"] == "private, no-store"
    assert _comparable(fast) == _comparable(django)
    fast, django = _both(wsgi_app, tenant, path, key=tenant.api_key, headers={"If-None-Match": fast.headers["etag"]})
    assert fast.status_code == django.status_code == 304
    with schema_context(tenant.schema_name):
        preview_link_revoke(actor=admin, post=draft, link=link)
    fast, django = _both(wsgi_app, tenant, path, key=tenant.api_key)
    assert fast.status_code == 404 and _comparable(fast) == _comparable(django)
