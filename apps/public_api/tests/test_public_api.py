"""The public content API: key auth, what each key may read, reply shapes, validation, tenancy."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context

from apps.analytics.models import PageView
from apps.content.tests.factories import make_category, make_media, make_post, make_tag
from apps.public_api.tests.conftest import key_client
from lifecycle.services import client_rotate_keys

READS = ["/api/v1/posts", "/api/v1/posts/slug/hello", "/api/v1/posts/category/news", "/api/v1/posts/tag/python",
         "/api/v1/categories", "/api/v1/tags"]


@pytest.fixture
def content(tenant):
    news = make_category(tenant, "News", slug="news", description="What happened")
    empty = make_category(tenant, "Empty", slug="empty")
    python = make_tag(tenant, "Python", slug="python")
    image = make_media(tenant, alt_text="Cover")
    posts = {
        "hello": make_post(tenant, "Hello world", slug="hello", categories=[news], tags=[python],
                           featured_image=image, video_id="dQw4w9WgXcQ", meta_title="Hello SEO", status="published"),
        "second": make_post(tenant, "Second post", slug="second", categories=[news], status="published"),
        "draft": make_post(tenant, "Secret draft", slug="secret", status="draft", categories=[news], tags=[python]),
        "old": make_post(tenant, "Old news", slug="old", status="archived", categories=[news]),
    }
    return {"news": news, "empty": empty, "python": python, "image": image, **posts}


# --- keys -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", READS)
def test_missing_key_is_401(tenant, content, path):
    response = key_client(tenant).get(path)
    assert response.status_code == 401
    assert response.json() == {"success": False, "message": "API key is required. Send it in the x-api-key header.",
                               "error": "unauthorized", "code": "api_key_required"}


@pytest.mark.parametrize("path", READS)
def test_wrong_key_is_401(tenant, content, path):
    response = key_client(tenant, "cms_live_made-up").get(path)
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid API key"
    assert response.json()["code"] == "api_key_invalid"


@pytest.mark.parametrize("path", READS)
def test_another_companys_keys_are_401(tenant, other_tenant, content, path):
    for key in (other_tenant.api_key, other_tenant.preview_key):
        response = key_client(tenant, key).get(path)
        assert response.status_code == 401, path
        assert response.json()["error"] == "unauthorized"


def test_rotated_out_key_is_401_and_the_new_one_works(tenant, content, site):
    assert site.get("/api/v1/posts").status_code == 200
    old = tenant.api_key
    client_rotate_keys(client=tenant, content=True)
    assert key_client(tenant, old).get("/api/v1/posts").status_code == 401
    assert key_client(tenant, tenant.api_key).get("/api/v1/posts").status_code == 200


def test_the_key_of_one_company_reads_nothing_on_another_host(tenant, other_tenant, content):
    make_post(other_tenant, "Theirs", slug="theirs", status="published")
    response = key_client(other_tenant, tenant.api_key).get("/api/v1/posts/slug/hello")
    assert response.status_code == 401
    mine = key_client(other_tenant, other_tenant.api_key)
    assert [post["slug"] for post in mine.get("/api/v1/posts").json()["data"]["posts"]] == ["theirs"]
    assert mine.get("/api/v1/posts/slug/hello").status_code == 404
    assert mine.get("/api/v1/posts/category/news").status_code == 404
    assert mine.get("/api/v1/posts/tag/python").status_code == 404
    assert mine.get("/api/v1/categories").json()["data"]["categories"] == []
    assert mine.get("/api/v1/tags").json()["data"]["tags"] == []


# --- what each key reads ----------------------------------------------------------------------------
def test_content_key_reads_published_posts_only(site, content):
    posts = site.get("/api/v1/posts").json()["data"]["posts"]
    assert {post["slug"] for post in posts} == {"hello", "second"}
    assert site.get("/api/v1/posts/slug/secret").status_code == 404
    assert site.get("/api/v1/posts/slug/old").status_code == 404
    by_category = site.get("/api/v1/posts/category/news").json()["data"]["posts"]
    assert {post["slug"] for post in by_category} == {"hello", "second"}
    assert [post["slug"] for post in site.get("/api/v1/posts/tag/python").json()["data"]["posts"]] == ["hello"]


@pytest.mark.parametrize("status", ["draft", "archived", "all"])
def test_content_key_asking_for_other_statuses_is_403(site, content, status):
    response = site.get("/api/v1/posts", {"status": status})
    assert response.status_code == 403
    assert response.json() == {"success": False, "message": "Reading unpublished posts needs the preview key",
                               "error": "forbidden", "code": "preview_key_required"}
    assert site.get("/api/v1/posts/category/news", {"status": status}).status_code == 403


def test_preview_key_reads_drafts_and_archived_posts(preview, content):
    def slugs(query):
        return {post["slug"] for post in preview.get("/api/v1/posts", query).json()["data"]["posts"]}

    assert slugs({}) == {"hello", "second"}  # published unless asked
    assert slugs({"status": "draft"}) == {"secret"}
    assert slugs({"status": "archived"}) == {"old"}
    assert slugs({"status": "all"}) == {"hello", "second", "secret", "old"}
    response = preview.get("/api/v1/posts/slug/secret")
    assert response.status_code == 200
    assert response.json()["data"]["post"]["status"] == "draft"
    by_tag = preview.get("/api/v1/posts/tag/python", {"status": "all"}).json()["data"]["posts"]
    assert {post["slug"] for post in by_tag} == {"hello", "secret"}


# --- shapes -------------------------------------------------------------------------------------------
def test_list_reply_shape(site, content):
    response = site.get("/api/v1/posts")
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and body["message"] == "Posts retrieved successfully"
    assert body["data"]["pagination"] == {"total": 2, "totalPages": 1, "currentPage": 1, "limit": 10}
    hello = next(post for post in body["data"]["posts"] if post["slug"] == "hello")
    assert hello["id"] == str(content["hello"].id)
    assert hello["title"] == "Hello world" and hello["status"] == "published" and hello["videoId"] == "dQw4w9WgXcQ"
    assert hello["categories"] == [{"id": str(content["news"].id), "name": "News", "slug": "news"}]
    assert hello["tags"] == [{"id": str(content["python"].id), "name": "Python", "slug": "python"}]
    image = hello["featuredImage"]
    assert image["id"] == str(content["image"].id) and image["altText"] == "Cover"
    assert image["spacesKey"] == content["image"].storage_key and image["link"].endswith(content["image"].storage_key)
    assert "content" not in hello


def test_post_by_slug_reply_shape(site, content):
    body = site.get("/api/v1/posts/slug/hello").json()
    assert body["success"] is True
    post = body["data"]["post"]
    assert post["content"] == "<p>Body text</p>" and post["metaTitle"] == "Hello SEO"
    assert post["allowIndexing"] is True and "updatedAt" in post and post["slug"] == "hello"
    assert site.get("/api/v1/posts/slug/nope").json() == {"success": False, "message": "Post not found",
                                                          "error": "not_found"}


def test_categories_and_tags_count_published_posts_only(site, content):
    categories = site.get("/api/v1/categories").json()
    assert categories["success"] is True
    assert categories["data"]["categories"] == [
        {"id": str(content["empty"].id), "name": "Empty", "slug": "empty", "description": "", "postCount": 0},
        {"id": str(content["news"].id), "name": "News", "slug": "news", "description": "What happened",
         "postCount": 2},
    ]
    tags = site.get("/api/v1/tags").json()["data"]["tags"]
    assert tags == [{"id": str(content["python"].id), "name": "Python", "slug": "python", "postCount": 1}]


def test_unknown_category_or_tag_is_404(site, content):
    assert site.get("/api/v1/posts/category/nope").json()["message"] == "Category not found"
    assert site.get("/api/v1/posts/tag/nope").json()["message"] == "Tag not found"


def test_pagination_and_search(site, tenant):
    for n in range(23):
        make_post(tenant, f"Gardening tip {n}" if n % 2 else f"Cooking note {n}", slug=f"p{n}",
                  content="<p>Tomatoes like sun</p>" if n % 2 else "<p>Pasta and basil</p>", status="published")
    page3 = site.get("/api/v1/posts", {"page": 3, "limit": 10}).json()["data"]
    assert len(page3["posts"]) == 3
    assert page3["pagination"] == {"total": 23, "totalPages": 3, "currentPage": 3, "limit": 10}
    found = site.get("/api/v1/posts", {"search": "tomatoes", "limit": 100}).json()["data"]
    assert found["pagination"]["total"] == 11
    assert all(post["title"].startswith("Gardening") for post in found["posts"])
    assert site.get("/api/v1/posts", {"search": "cooking"}).json()["data"]["pagination"]["total"] == 12


@pytest.mark.parametrize(("query", "message"), [
    ({"limit": 101}, "Limit must be at most 100"),
    ({"limit": 0}, "Limit must be at least 1"),
    ({"page": 0}, "Page must be at least 1"),
    ({"page": "two"}, "Page must be a whole number"),
    ({"limit": "ten"}, "Limit must be a whole number"),
    ({"status": "deleted"}, "Status must be one of published, draft, archived, all"),
])
def test_bad_query_values_are_400(site, content, query, message):
    response = site.get("/api/v1/posts", query)
    assert response.status_code == 400
    assert response.json()["message"] == message and response.json()["error"] == "validation_error"
    assert site.get("/api/v1/posts/category/news", query).status_code == 400


def test_list_query_count_does_not_grow_with_posts(site, tenant, settings):
    settings.PUBLIC_API_CACHE = False
    news = make_category(tenant, slug="many")
    tag = make_tag(tenant)
    image = make_media(tenant)

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert site.get("/api/v1/posts", {"limit": 100}).status_code == 200
        return len(queries)

    for n in range(3):
        make_post(tenant, categories=[news], tags=[tag], featured_image=image, status="published")
    few = count()
    for n in range(40):
        make_post(tenant, categories=[news], tags=[tag], featured_image=image, status="published")
    assert count() == few
    assert few <= 4  # the tenant lookup and one statement for the page, each after SET search_path


# --- tracking from websites ---------------------------------------------------------------------------
def test_websites_track_page_views_with_the_content_key(site, tenant):
    response = site.post("/api/v1/analytics/track", {"pageUrl": "https://site.example/", "referrer": ""})
    assert response.status_code == 200 and response.json() == {"success": True}
    assert key_client(tenant).post("/api/v1/analytics/track", {"pageUrl": "https://x.example/"}).status_code == 401
    bad = site.post("/api/v1/analytics/track", {"referrer": ""})
    assert bad.status_code == 400 and bad.json()["message"] == "Page URL is required"
    from apps.analytics import services

    with schema_context(tenant.schema_name):
        assert services.pageview_flush() == 1
        assert PageView.objects.count() == 1


def test_another_companys_key_cannot_track(tenant, other_tenant):
    response = key_client(tenant, other_tenant.api_key).post("/api/v1/analytics/track", {"pageUrl": "https://x/"})
    assert response.status_code == 401


# --- CORS ---------------------------------------------------------------------------------------------
def test_cors_preflight_and_headers(site, tenant, content):
    preflight = key_client(tenant).http.options(
        "/api/v1/posts", headers={"Origin": "https://www.company.example", "Access-Control-Request-Method": "GET",
                                  "Access-Control-Request-Headers": "x-api-key"})
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert "x-api-key" in preflight["Access-Control-Allow-Headers"]
    assert "GET" in preflight["Access-Control-Allow-Methods"]
    response = site.get("/api/v1/posts", headers={"Origin": "https://www.company.example"})
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    denied = key_client(tenant).get("/api/v1/posts", headers={"Origin": "https://www.company.example"})
    assert denied.status_code == 401 and denied["Access-Control-Allow-Origin"] == "*"
    # The dashboard API is not opened to other origins.
    dashboard = key_client(tenant).http.options(
        "/api/posts", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"})
    assert "Access-Control-Allow-Origin" not in dashboard


# --- the same posts as the content app shows -----------------------------------------------------
def test_posts_are_exactly_the_content_apps_post_objects(site, preview, tenant, content, make_user):
    from apps.content import selectors as content_selectors
    from apps.content.schemas import PostOut, PostSummaryOut

    author = make_user(tenant, "author")
    make_post(tenant, "With author", slug="authored", author=author, categories=[content["news"], content["empty"]],
              tags=[content["python"]], og_image=content["image"], status="published")
    listed = preview.get("/api/v1/posts", {"status": "all", "limit": 100}).json()["data"]["posts"]
    with schema_context(tenant.schema_name):
        expected = [post.model_dump(mode="json")
                    for post in PostSummaryOut.many(list(content_selectors.post_list(status="all")))]
        detail = PostOut.from_post(content_selectors.post_get_by_slug("authored")).model_dump(mode="json")
    connection.set_schema_to_public()
    assert listed == expected
    assert site.get("/api/v1/posts/slug/authored").json()["data"]["post"] == detail


@pytest.mark.parametrize("status", ["published", "all"])
def test_a_common_terms_pages_list_what_the_content_app_lists_when_they_walk_the_newest_posts(preview, tenant, status,
                                                                                          monkeypatch):
    """Once a search's total is kept (its first page counted it), a page of a term that most posts
    match walks the newest posts and tests each (selectors._walks), deeper pages read every match:
    either way the same posts in the same order as the content app, title and full-text matches,
    drafts only where the status shows them."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.content import selectors as content_selectors
    from apps.public_api import selectors

    now = timezone.now()
    for n in range(30):
        title, body = [(f"Garden {n}", "<p>Soil</p>"), (f"Note {n}", "<p>Gardens and roses</p>"),
                       (f"Kitchen {n}", "<p>Soup</p>")][n % 3]
        make_post(tenant, title, slug=f"g{n}", content=body, status="draft" if n % 5 == 0 else "published",
                  created_at=now - timedelta(minutes=n))
    choices = []
    real = selectors._walks
    monkeypatch.setattr(selectors, "_walks", lambda *args: choices.append(real(*args)) or choices[-1])
    with schema_context(tenant.schema_name):
        expected = [str(post.id) for post in content_selectors.post_list(status=status, search="garden")]
    connection.set_schema_to_public()
    assert 12 <= len(expected) <= 20
    listed, page = [], 1
    while True:
        reply = preview.get("/api/v1/posts", {"search": "garden", "status": status, "limit": 3, "page": page}).json()
        assert reply["data"]["pagination"]["total"] == len(expected)
        if not reply["data"]["posts"]:
            break
        listed += [post["id"] for post in reply["data"]["posts"]]
        page += 1
    assert listed == expected
    assert True in choices and False in choices  # both ways were taken


@pytest.mark.parametrize("query", ["tomato", "tomatoes basil", "Garden", "arden", "zz-nothing", "c++"])
def test_search_finds_what_the_content_app_finds(preview, tenant, query):
    from apps.content import selectors as content_selectors

    for n, (title, body) in enumerate([("Garden diary", "<p>Tomatoes and basil</p>"), ("Kitchen", "<p>Tomato soup</p>"),
                                       ("C++ tips", "<p>Templates</p>"), ("Gardening", "<p>Roses</p>")]):
        make_post(tenant, title, slug=f"s{n}", content=body, status="draft" if n == 3 else "published")
    for status in ("published", "all"):
        found = preview.get("/api/v1/posts", {"search": query, "status": status}).json()["data"]["posts"]
        with schema_context(tenant.schema_name):
            expected = [str(post.id) for post in content_selectors.post_list(status=status, search=query)]
        connection.set_schema_to_public()
        assert [post["id"] for post in found] == expected, (query, status)
