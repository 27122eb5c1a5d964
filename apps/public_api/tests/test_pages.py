"""Pages on the public content API (apps.content.kinds): GET /api/v1/pages and
/api/v1/pages/slug/{slug} follow the posts' rules (key, preview key for drafts, cache and ETag,
`?locale=`, the WSGI layer's builds), and no posts list ever shows a page: the plain list, a
search, a category's or tag's posts, a list along a fallback chain (the listing table), nor the
counts categories and tags show. The posts list still walks its index."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_category, make_post, make_tag
from apps.core.pagination import Page
from apps.public_api import selectors
from apps.public_api.tests.conftest import key_client, wsgi_call
from tenants.models import Client


@pytest.fixture
def content(tenant):
    """Five published posts (post-0 newest) and a draft; three published pages (about newest) and a
    draft page, all newer than the posts, each page with the posts' category and tag."""
    news, tag = make_category(tenant, "News", slug="news"), make_tag(tenant, "Python", slug="python")
    now = timezone.now()
    posts = [make_post(tenant, f"Post {n}", slug=f"post-{n}", status="published", categories=[news], tags=[tag],
                       created_at=now - timedelta(minutes=10 + n)) for n in range(5)]
    make_post(tenant, "Draft post", slug="draft-post", categories=[news], created_at=now - timedelta(minutes=30))
    pages = [make_post(tenant, title, slug=slug, status="published", kind="page", categories=[news], tags=[tag],
                       content=f"<p>{title} of the company</p>", created_at=now - timedelta(minutes=n))
             for n, (title, slug) in enumerate((("About", "about"), ("Contact", "contact"), ("Imprint", "imprint")))]
    make_post(tenant, "Jobs", slug="jobs", kind="page", created_at=now - timedelta(minutes=5))
    return {"posts": posts, "pages": pages}


def _slugs(reply, key: str = "posts") -> list[str]:
    assert reply.status_code == 200, reply.content
    return [row["slug"] for row in reply.json()["data"][key]]


# --- the pages' own list and reads -----------------------------------------------------------------
def test_the_pages_list_has_the_published_pages(site, content):
    reply = site.get("/api/v1/pages")
    assert reply.json()["message"] == "Pages retrieved successfully"
    assert _slugs(reply, "pages") == ["about", "contact", "imprint"]
    assert reply.json()["data"]["pagination"] == {"total": 3, "totalPages": 1, "currentPage": 1, "limit": 10}
    assert _slugs(site.get("/api/v1/pages?limit=2&page=2"), "pages") == ["imprint"]
    assert _slugs(site.get("/api/v1/pages?search=contact"), "pages") == ["contact"]
    page = reply.json()["data"]["pages"][0]
    post = site.get("/api/v1/posts").json()["data"]["posts"][0]
    assert set(page) == set(post)  # a page is a post's object


def test_drafts_of_pages_need_the_preview_key(site, preview, content):
    assert site.get("/api/v1/pages?status=draft").status_code == 403
    assert _slugs(preview.get("/api/v1/pages?status=draft"), "pages") == ["jobs"]
    assert _slugs(preview.get("/api/v1/pages?status=all"), "pages") == ["about", "contact", "imprint", "jobs"]
    assert site.get("/api/v1/pages/slug/jobs").status_code == 404
    assert preview.get("/api/v1/pages/slug/jobs").json()["data"]["page"]["status"] == "draft"


def test_a_page_by_slug_and_never_as_a_post(site, content):
    reply = site.get("/api/v1/pages/slug/about")
    assert reply.status_code == 200
    assert reply.json()["message"] == "Page retrieved successfully"
    page = reply.json()["data"]["page"]
    assert page["title"] == "About" and page["content"] == "<p>About of the company</p>"
    for path, message in (("/api/v1/posts/slug/about", "Post not found"),
                          ("/api/v1/pages/slug/post-1", "Page not found")):
        missing = site.get(path)
        assert (missing.status_code, missing.json()["message"]) == (404, message), path


def test_a_pages_reply_is_cached_with_its_etag(site, content):
    first = site.get("/api/v1/pages/slug/about")
    again = site.get("/api/v1/pages/slug/about")
    assert (first["X-Cache"], again["X-Cache"]) == ("MISS", "HIT") and first["ETag"] == again["ETag"]
    assert site.get("/api/v1/pages/slug/about", headers={"If-None-Match": first["ETag"]}).status_code == 304
    listed = site.get("/api/v1/pages")
    assert site.get("/api/v1/pages", headers={"If-None-Match": listed["ETag"]}).status_code == 304


def test_another_companys_key_reads_no_page(tenant, other_tenant, content):
    other = key_client(tenant, other_tenant.api_key)
    assert other.get("/api/v1/pages").status_code == 401
    assert other.get("/api/v1/pages/slug/about").status_code == 401
    make_post(other_tenant, "Their about", slug="their-about", status="published", kind="page")
    theirs = key_client(other_tenant, other_tenant.api_key)
    assert _slugs(theirs.get("/api/v1/pages"), "pages") == ["their-about"]
    assert theirs.get("/api/v1/pages/slug/about").status_code == 404


# --- posts lists never show a page ---------------------------------------------------------------
def test_no_posts_list_shows_a_page(site, preview, content):
    posts = [f"post-{n}" for n in range(5)]
    reply = site.get("/api/v1/posts")
    assert _slugs(reply) == posts and reply.json()["data"]["pagination"]["total"] == 5
    assert _slugs(site.get("/api/v1/posts?limit=2&page=3")) == ["post-4"]
    assert _slugs(site.get("/api/v1/posts?search=company")) == []  # the pages' text
    assert _slugs(site.get("/api/v1/posts?search=about")) == []
    assert _slugs(site.get("/api/v1/posts/category/news")) == posts
    assert site.get("/api/v1/posts/tag/python").json()["data"]["pagination"]["total"] == 5
    assert _slugs(preview.get("/api/v1/posts?status=all")) == [*posts, "draft-post"]
    assert preview.get("/api/v1/posts?status=all").json()["data"]["pagination"]["total"] == 6
    assert _slugs(preview.get("/api/v1/posts?status=draft")) == ["draft-post"]


def test_categories_and_tags_count_posts_not_pages(site, content):
    assert site.get("/api/v1/categories").json()["data"]["categories"][0]["postCount"] == 5
    assert site.get("/api/v1/tags").json()["data"]["tags"][0]["postCount"] == 5


def test_along_a_fallback_chain_posts_and_pages_keep_apart(site, tenant, content):
    """A list with ?locale= reads the listing table (apps.content.models.PostListing): pages there
    too are never a posts list's, and a page's translation is found as a post's is."""
    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr"])
    about = content["pages"][0]
    french = make_post(tenant, "À propos", slug="a-propos", language="fr", status="published", kind="page",
                       created_at=about.created_at)
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=french.pk).update(translation_group=about.translation_group)
    assert _slugs(site.get("/api/v1/posts?locale=fr")) == [f"post-{n}" for n in range(5)]
    pages = site.get("/api/v1/pages?locale=fr")
    assert _slugs(pages, "pages") == ["a-propos", "contact", "imprint"]
    assert pages.json()["data"]["pages"][0]["translations"] == [{"locale": "en", "slug": "about"},
                                                               {"locale": "fr", "slug": "a-propos"}]
    assert site.get("/api/v1/pages/slug/about?locale=fr").json()["data"]["page"]["slug"] == "a-propos"
    assert site.get("/api/v1/posts/slug/about?locale=fr").status_code == 404


# --- the WSGI layer -------------------------------------------------------------------------------
@pytest.mark.parametrize("cached", [True, False], ids=["cache-miss", "cache-off"])
@pytest.mark.parametrize("key_field,query", [("api_key", ""), ("api_key", "limit=2&page=2"),
                                             ("preview_key", "status=all"), ("api_key", "search=contact")])
def test_the_wsgi_layer_builds_the_pages_list_as_django_does(wsgi_app, tenant, content, settings, lookup_codes,
                                                            cached, key_field, query,
                                                            django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = cached
    key = getattr(tenant, key_field)
    assert wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=key, query="limit=1&first").status_code == 200
    lookup_codes.clear()
    built = wsgi_call(wsgi_app, tenant, "/api/v1/pages", key=key, query=query)
    assert lookup_codes == [7]  # built in the WSGI layer, as a posts list is
    if cached:
        from apps.core.content_version import content_version_bump

        with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
            content_version_bump()
    django = wsgi_call(WSGIHandler(), tenant, "/api/v1/pages", key=key, query=query)
    assert (built.status_code, built.content) == (200, django.content)
    assert built.headers["etag"] == django.headers["etag"] and built.headers["x-cache"] == "MISS"
    assert "post-0" not in built.content.decode()


# --- the posts list's plan ------------------------------------------------------------------------
def _plan(tenant, found, page: Page) -> str:
    sql = selectors._page_sql(found.schema, found.source, found.where, found.count_sql, found.searched, False,
                              page.limit, None, None, found.listed)
    with schema_context(tenant.schema_name), connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", [*found.params, page.offset])
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.django_db
def test_the_posts_and_pages_lists_walk_their_index(tenant):
    """Many posts and a few pages: a page of posts (and of pages) walks the index that leads with
    the kind, in its order (no sort), whether from the posts table or from the listing."""
    now = timezone.now()
    with schema_context(tenant.schema_name):
        Post.objects.bulk_create([Post(title=f"Post {n}", slug=f"post-{n}", status="published", published_at=now,
                                       kind="page" if n % 500 == 0 else "post") for n in range(3000)])
        with connection.cursor() as cursor:
            # The indexes as the table's rows make them (not bloated by the rows earlier tests of
            # this company wrote and deleted, which made the planner's costs depend on test order).
            cursor.execute("REINDEX TABLE content_post; REINDEX TABLE content_post_listing; "
                           "ANALYZE content_post; ANALYZE content_post_listing")
    page = Page(page=2, limit=10)
    for kind in ("post", "page"):
        plan = _plan(tenant, selectors.posts_filter(schema=tenant.schema_name, status="published", kind=kind), page)
        assert "content_post_status_idx" in plan and "Sort" not in plan, plan
        listed = selectors.posts_filter(schema=tenant.schema_name, status="published", kind=kind, chain=("fr", "en"))
        assert listed.listed
        plan = _plan(tenant, listed, page)
        assert "content_post_listing_order_idx" in plan and "Sort" not in plan, plan
