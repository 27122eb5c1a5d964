"""`?featured=true|false` on the public content API's lists (docs/api/public.md): the posts' `featured`
field, the filter on every list (posts, a category's, pages; with a search, with a locale), its
400, its total, and its caching: each value is its own reply and its own kept total, on Django's
path and on the WSGI layer in front of it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_category, make_post
from apps.public_api.tests.conftest import wsgi_call
from tenants.models import Client


@pytest.fixture
def blog(tenant):
    """Six published posts, newest first post-0 ... post-5; post-1 and post-4 featured; a featured
    draft; a featured page."""
    news = make_category(tenant, "News", slug="news")
    now = timezone.now()
    posts = [make_post(tenant, f"Post {n} words", slug=f"post-{n}", status="published", categories=[news],
                       featured=n in (1, 4), created_at=now - timedelta(minutes=n)) for n in range(6)]
    make_post(tenant, "A featured draft", slug="draft", featured=True, created_at=now + timedelta(minutes=1))
    make_post(tenant, "About", slug="about", kind="page", status="published", featured=True)
    return posts


def _data(response) -> dict:
    assert response.status_code == 200, response.content
    return response.json()["data"]


def _slugs(response, resource: str = "posts") -> list[str]:
    return [post["slug"] for post in _data(response)[resource]]


def test_posts_carry_featured_and_the_lists_filter_on_it(site, blog):
    every = _data(site.get("/api/v1/posts"))
    assert {post["slug"]: post["featured"] for post in every["posts"]} == {
        "post-0": False, "post-1": True, "post-2": False, "post-3": False, "post-4": True, "post-5": False}
    assert list(every["posts"][0])[-2:] == ["featured", "visibility"]  # (visibility: docs/members.md)
    assert _slugs(site.get("/api/v1/posts?featured=true")) == ["post-1", "post-4"]
    assert _slugs(site.get("/api/v1/posts?featured=TRUE&limit=1&page=2")) == ["post-4"]
    assert _data(site.get("/api/v1/posts?featured=true&limit=1"))["pagination"]["total"] == 2
    assert _slugs(site.get("/api/v1/posts?featured=false")) == ["post-0", "post-2", "post-3", "post-5"]
    assert _data(site.get("/api/v1/posts?featured=false"))["pagination"]["total"] == 4
    assert _slugs(site.get("/api/v1/posts?featured=")) == [f"post-{n}" for n in range(6)]  # empty: no filter
    assert _slugs(site.get("/api/v1/posts/category/news?featured=true")) == ["post-1", "post-4"]
    assert _data(site.get("/api/v1/posts/category/news?featured=true"))["pagination"]["total"] == 2
    assert _slugs(site.get("/api/v1/posts?featured=true&search=words")) == ["post-1", "post-4"]
    assert _slugs(site.get("/api/v1/pages?featured=true"), "pages") == ["about"]
    assert _slugs(site.get("/api/v1/pages?featured=false"), "pages") == []
    assert site.get("/api/v1/posts/slug/post-1").json()["data"]["post"]["featured"] is True


def test_the_preview_key_lists_featured_drafts_too(preview, blog):
    assert _slugs(preview.get("/api/v1/posts?featured=true&status=all")) == ["draft", "post-1", "post-4"]


@pytest.mark.parametrize("value", ["yes", "1", "maybe", "true,false"])
def test_featured_is_true_or_false(site, blog, value):
    response = site.get(f"/api/v1/posts?featured={value}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "featured"
    assert site.get(f"/api/v1/posts?featured={value}&page=x").status_code in (400, 422)


def test_repeated_featured_is_refused(site, blog):
    assert site.get("/api/v1/posts?featured=true&featured=false").status_code == 400


def test_with_and_without_featured_are_cached_apart(site, blog):
    plain = site.get("/api/v1/posts")
    featured = site.get("/api/v1/posts?featured=true")
    assert plain["X-Cache"] == featured["X-Cache"] == "MISS"
    again_featured, again_plain = site.get("/api/v1/posts?featured=true"), site.get("/api/v1/posts")
    assert (again_featured["X-Cache"], again_plain["X-Cache"]) == ("HIT", "HIT")
    assert again_featured.content == featured.content and again_plain.content == plain.content
    assert featured.content != plain.content and featured["ETag"] != plain["ETag"]
    assert _slugs(again_featured) == ["post-1", "post-4"] and len(_slugs(again_plain)) == 6


def test_a_kept_total_is_never_another_lists(site, blog):
    """A search's total is kept in Redis between pages under its listing's key: the featured
    search's is its own."""
    assert _data(site.get("/api/v1/posts?search=words&limit=1"))["pagination"]["total"] == 6
    assert _data(site.get("/api/v1/posts?search=words&limit=1&page=2"))["pagination"]["total"] == 6  # kept
    assert _data(site.get("/api/v1/posts?search=words&featured=true&limit=1"))["pagination"]["total"] == 2
    assert _data(site.get("/api/v1/posts?search=words&featured=true&limit=1&page=2"))["pagination"]["total"] == 2
    assert _data(site.get("/api/v1/posts?search=words&featured=false&limit=1&page=3"))["pagination"]["total"] == 4


def test_featuring_a_published_post_is_seen_at_once(tenant, site, api, blog, django_capture_on_commit_callbacks):
    assert _slugs(site.get("/api/v1/posts?featured=true")) == ["post-1", "post-4"]
    with django_capture_on_commit_callbacks(execute=True):
        assert api.put(f"/api/posts/{blog[0].id}", {"featured": True}).status_code == 200
    assert _slugs(site.get("/api/v1/posts?featured=true")) == ["post-0", "post-1", "post-4"]


def test_along_a_chain_a_group_is_featured_as_its_shown_translation(tenant, site, blog):
    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr"])
    french = make_post(tenant, "Post 1 en français", slug="poste-1", language="fr", status="published",
                       created_at=blog[1].created_at)
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=french.pk).update(translation_group=blog[1].translation_group)
    assert _slugs(site.get("/api/v1/posts?featured=true")) == ["post-1", "post-4"]  # the default language's
    # In French the group shows its French post, which is not featured.
    assert _slugs(site.get("/api/v1/posts?featured=true&locale=fr")) == ["post-4"]
    assert _slugs(site.get("/api/v1/posts?featured=false&locale=fr")) == ["post-0", "poste-1", "post-2", "post-3",
                                                                         "post-5"]


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_the_fast_path_builds_featured_lists_as_django_does(wsgi_app, tenant, blog, settings, lookup_codes,
                                                            cached, django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = cached
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="first").status_code == 200
    lookup_codes.clear()
    built = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="featured=true&limit=1")
    assert lookup_codes == [7]  # built in front of Django
    assert _slugs(built) == ["post-1"] and _data(built)["pagination"]["total"] == 2
    plain = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=1")
    assert _slugs(plain) == ["post-0"] and _data(plain)["pagination"]["total"] == 6
    if cached:
        hit = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="featured=true&limit=1")
        assert hit.headers["x-cache"] == "HIT" and hit.content == built.content
        from apps.core.content_version import content_version_bump

        with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
            content_version_bump()
    django = wsgi_call(WSGIHandler(), tenant, "/api/v1/posts", key=tenant.api_key, query="featured=true&limit=1")
    assert django.content == built.content
    # the same search with and without the filter: each its own kept total (on the fast path too)
    first = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="search=words&limit=1")
    second = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key,
                       query="search=words&featured=true&limit=1&page=2")
    assert _data(first)["pagination"]["total"] == 6 and _data(second)["pagination"]["total"] == 2
    refused = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="featured=maybe")
    assert refused.status_code == 400  # left to Django, which answers the 400
