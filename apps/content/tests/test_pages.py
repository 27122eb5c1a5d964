"""Pages (apps.content.kinds): a content kind of their own on the dashboard API. /api/pages takes the
posts' requests and answers the posts' shapes (no category needed); pages never show among posts
(the posts list, search, the dashboard's counts), a post's id is 404 as a page's and the other way
round, pages and posts share one slug space per language, and a page has the posts' revisions,
preview links, review, translations and permissions."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context

from apps.content import kinds
from apps.content.models import Category, Post, PostCount, PostRevision
from apps.content.services import pages_from_category
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag, post_payload
from apps.core.testing import Api, tenant_admin
from tenants.models import Client


def page_payload(media, **overrides) -> dict:
    """A post's create payload without categories: what the dashboard's editor sends for a page."""
    payload = {"postTitle": "About us", "postContent": "<p>Who we are</p>", "postExcerpt": "About the company",
               "postStatus": "published", "featuredMediaId": str(media.id)}
    payload.update(overrides)
    return payload


def make_page(tenant, title: str = "About", *, slug: str = "about", status: str = "published", **fields) -> Post:
    return make_post(tenant, title=title, slug=slug, status=status, kind=kinds.PAGE.name, **fields)


# --- create, read, list --------------------------------------------------------------------------
def test_a_page_is_created_without_a_category_and_read_with_the_posts_shape(api, tenant, media, payload):
    reply = api.post("/api/pages", page_payload(media))
    assert reply.status_code == 201, reply.content
    body = reply.json()
    assert body["message"] == "Page created successfully"
    page = body["post"]
    assert page["categories"] == [] and page["status"] == "published" and page["slug"] == "about-us"
    # The same keys as a post's reply: the dashboard's post editor reads it as it is.
    post = api.post("/api/posts", payload).json()["post"]
    assert set(page) == set(post)
    assert api.get(f"/api/pages/{page['id']}").json()["post"]["title"] == "About us"
    assert api.get("/api/pages/slug/about-us").json()["title"] == "About us"
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=page["id"]).kind == "page"
        assert Post.objects.get(pk=post["id"]).kind == "post"


def test_the_upload_path_creates_a_page_too(api, media):
    reply = api.post("/api/pages/upload", page_payload(media, categories=[]))
    assert reply.status_code == 201 and reply.json()["post"]["categories"] == []


def test_a_page_may_have_categories_and_tags(api, media, category, tag):
    reply = api.post("/api/pages", page_payload(media, categories=[str(category.id)], tags=[str(tag.id)]))
    assert reply.status_code == 201
    page = reply.json()["post"]
    assert [c["slug"] for c in page["categories"]] == ["news"] and [t["slug"] for t in page["tags"]] == ["python"]
    updated = api.put(f"/api/pages/{page['id']}", {"categories": [], "tags": []})
    assert updated.status_code == 200 and updated.json()["post"]["categories"] == []
    assert updated.json()["message"] == "Page updated successfully"


def test_a_post_still_needs_a_category(api, media, payload):
    assert api.post("/api/posts", {**payload, "categories": []}).json()["message"] == "At least one category is required"
    post = api.post("/api/posts", payload).json()["post"]
    refused = api.put(f"/api/posts/{post['id']}", {"categories": []})
    assert refused.status_code == 400 and refused.json()["message"] == "At least one category is required"


def test_a_page_checks_every_other_field_as_a_post(api, media):
    reply = api.post("/api/pages", page_payload(media, postTitle=""))
    assert reply.status_code == 400 and reply.json()["message"] == "Title is required"
    reply = api.post("/api/pages", page_payload(media, featuredMediaId=""))
    assert reply.status_code == 400 and reply.json()["message"] == "Featured image is required"


def test_pages_are_never_listed_among_posts_nor_found_by_search(api, tenant, category):
    make_post(tenant, title="Launch notes", slug="launch-notes", status="published", categories=[category])
    make_page(tenant, "Launch team", slug="launch-team")
    posts = api.get("/api/posts", {"status": "all"}).json()
    assert [p["title"] for p in posts["posts"]] == ["Launch notes"] and posts["totalPosts"] == 1
    pages = api.get("/api/pages", {"status": "all"}).json()
    assert [p["title"] for p in pages["posts"]] == ["Launch team"] and pages["totalPosts"] == 1
    assert [p["title"] for p in api.get("/api/pages", {"search": "launch"}).json()["posts"]] == ["Launch team"]
    results = api.get("/api/search", {"q": "launch"}).json()["results"]
    assert [p["title"] for p in results["posts"]] == ["Launch notes"]


def test_a_post_id_is_404_as_a_page_and_a_page_id_as_a_post(api, tenant, category):
    post = make_post(tenant, title="A post", slug="a-post", status="published", categories=[category])
    page = make_page(tenant)
    for path, message in ((f"/api/pages/{post.id}", "Page not found"), ("/api/pages/slug/a-post", "Page not found"),
                          (f"/api/posts/{page.id}", "Post not found"), ("/api/posts/slug/about", "Post not found")):
        reply = api.get(path)
        assert (reply.status_code, reply.json()["message"]) == (404, message), path
    assert api.put(f"/api/posts/{page.id}", {"title": "Changed"}).status_code == 404
    assert api.delete(f"/api/posts/{page.id}").status_code == 404
    assert api.delete(f"/api/pages/{post.id}").status_code == 404
    with schema_context(tenant.schema_name):
        assert Post.objects.filter(pk__in=[post.pk, page.pk]).count() == 2


def test_posts_and_pages_share_one_slug_space(api, tenant, media, payload):
    post = api.post("/api/posts", {**payload, "customSlug": "about"}).json()["post"]
    page = api.post("/api/pages", page_payload(media, customSlug="about")).json()["post"]
    assert (post["slug"], page["slug"]) == ("about", "about-2")
    moved = api.put(f"/api/posts/{post['id']}", {"customSlug": "about-2"}).json()["post"]
    assert moved["slug"] == "about-2-2"  # the page has about-2


def test_a_page_is_deleted_with_a_page_message(api, tenant):
    page = make_page(tenant)
    reply = api.delete(f"/api/pages/{page.id}")
    assert (reply.status_code, reply.json()["message"]) == (200, "Page deleted successfully")
    with schema_context(tenant.schema_name):
        assert not Post.objects.filter(pk=page.pk).exists()


# --- the posts' workflow --------------------------------------------------------------------------
def test_a_page_has_revisions_preview_links_review_and_translations(api, tenant, media, role_api):
    page = api.post("/api/pages", page_payload(media, postStatus="draft")).json()["post"]
    api.put(f"/api/pages/{page['id']}", {"title": "About the team"})
    revisions = api.get(f"/api/pages/{page['id']}/revisions").json()["revisions"]
    assert [r["action"] for r in revisions] == ["update", "create"]
    restored = api.post(f"/api/pages/{page['id']}/revisions/{revisions[1]['id']}/restore")
    assert restored.status_code == 200 and restored.json()["post"]["title"] == "About us"

    link = api.post(f"/api/pages/{page['id']}/preview-links")
    assert link.status_code == 201
    assert len(api.get(f"/api/pages/{page['id']}/preview-links").json()["links"]) == 1

    assert api.post(f"/api/pages/{page['id']}/review/request").json()["message"] == "Page submitted for review"
    waiting = api.get("/api/pages", {"review": "waiting"}).json()["posts"]
    assert [p["id"] for p in waiting] == [page["id"]]
    assert api.get("/api/posts", {"review": "waiting"}).json()["posts"] == []
    returned = api.post(f"/api/pages/{page['id']}/review/return", {"note": "Add the address"})
    assert returned.json()["message"] == "Page sent back to the writer"

    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr"])
    translation = api.post(f"/api/pages/{page['id']}/translations", {"language": "fr"})
    assert translation.status_code == 201
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=translation.json()["post"]["id"]).kind == "page"
    assert [p["language"] for p in api.get("/api/pages", {"status": "all"}).json()["posts"]] == ["fr", "en"]


def test_an_author_cannot_publish_a_page_as_a_post(role_api, media):
    author = role_api("author")
    refused = author.post("/api/pages", page_payload(media, postStatus="published"))
    assert refused.status_code == 403
    assert author.post("/api/pages", page_payload(media, postStatus="draft")).status_code == 201
    assert role_api("viewer").post("/api/pages", page_payload(media, postStatus="draft")).status_code == 403


def test_a_new_pages_unsaved_copy_is_not_a_new_posts(api, media):
    api.put("/api/posts/new/autosave", {"fields": {"title": "Unsaved post"}})
    api.put("/api/pages/new/autosave", {"fields": {"title": "Unsaved page"}})
    assert api.get("/api/posts/new/autosave").json()["autosave"]["fields"] == {"title": "Unsaved post"}
    assert api.get("/api/pages/new/autosave").json()["autosave"]["fields"] == {"title": "Unsaved page"}
    api.post("/api/pages", page_payload(media))  # saving a new page clears the new page's copy only
    assert api.get("/api/pages/new/autosave").json()["autosave"] is None
    assert api.get("/api/posts/new/autosave").json()["autosave"]["fields"] == {"title": "Unsaved post"}


# --- counts ---------------------------------------------------------------------------------------
def test_the_trigger_kept_counts_keep_pages_apart(tenant, category):
    tag = make_tag(tenant)
    make_post(tenant, status="published", categories=[category], tags=[tag])
    page = make_page(tenant, tags=[tag])
    make_page(tenant, "Draft page", slug="draft-page", status="draft")
    with schema_context(tenant.schema_name):
        counts = {row.status: row.total for row in PostCount.objects.all() if row.total}
        assert counts == {"published": 1, "page:published": 1, "page:draft": 1}
        with connection.cursor() as cursor:
            cursor.execute("SELECT status, total FROM content_tag_count WHERE tag_id = %s AND total <> 0", [tag.pk])
            assert dict(cursor.fetchall()) == {"published": 1, "page:published": 1}
        Post.objects.filter(pk=page.pk).update(status="draft")
        counts = {row.status: row.total for row in PostCount.objects.all() if row.total}
        assert counts == {"published": 1, "page:draft": 2}
        assert kinds.PAGE.count_keys("all") == ("page:draft", "page:published", "page:archived")


def test_the_dashboards_counts_are_of_posts(api, tenant, category):
    make_post(tenant, title="A post", status="published", categories=[category])
    make_page(tenant)
    data = api.get("/api/dashboard/stats").json()["data"]
    assert (data["overview"]["totalPosts"], data["overview"]["publishedPosts"]) == (1, 1)
    assert [p["title"] for p in data["recentActivity"]["recentPosts"]] == ["A post"]


def test_the_page_list_costs_a_fixed_number_of_statements(api, tenant):
    image = make_media(tenant)

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert api.get("/api/pages", {"limit": 50}).status_code == 200
        return len([q for q in ctx.captured_queries if not q["sql"].startswith("SET search_path")])

    for n in range(2):
        make_page(tenant, f"Page {n}", slug=f"page-{n}", featured_image=image)
    few = queries()
    for n in range(2, 12):
        make_page(tenant, f"Page {n}", slug=f"page-{n}", featured_image=image)
    assert queries() == few <= 6


# --- companies ------------------------------------------------------------------------------------
def test_a_page_of_one_company_is_404_on_another(tenant, other_tenant):
    page = make_page(tenant, "Secret page", slug="secret-page")
    b_api = Api(other_tenant, user=tenant_admin(other_tenant))
    for path in (f"/api/pages/{page.id}", "/api/pages/slug/secret-page", f"/api/pages/{page.id}/revisions"):
        assert b_api.get(path).status_code == 404, path
    assert b_api.put(f"/api/pages/{page.id}", {"title": "Hacked"}).status_code == 404
    assert b_api.delete(f"/api/pages/{page.id}").status_code == 404
    assert b_api.get("/api/pages", {"status": "all"}).json()["posts"] == []
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=page.pk).title == "Secret page"


# --- the pages of earlier imports -------------------------------------------------------------------
@pytest.mark.django_db
def test_posts_of_a_pages_category_become_pages_and_the_empty_category_goes(tenant, category):
    pages_category = make_category(tenant, "Pages", "pages")
    also = make_category(tenant, "Company", "company")
    about = make_post(tenant, title="About", slug="about", status="published", categories=[pages_category, also])
    contact = make_post(tenant, title="Contact", slug="contact", status="draft", categories=[pages_category])
    news = make_post(tenant, title="News", slug="news", status="published", categories=[category])
    with schema_context(tenant.schema_name):
        assert pages_from_category(category=Category.objects.get(slug="pages")) == 2
        assert dict(Post.objects.values_list("slug", "kind")) == {"about": "page", "contact": "page", "news": "post"}
        assert not Category.objects.filter(slug="pages").exists()
        assert list(Post.objects.get(pk=about.pk).categories.values_list("slug", flat=True)) == ["company"]
        assert PostRevision.objects.filter(post_id__in=[about.pk, contact.pk]).count() == 2
        assert Post.objects.get(pk=news.pk).categories.count() == 1


def test_translate_with_ai_takes_a_page_as_a_post(api, tenant, media):
    """The AI translation reads a post or a page (its checks run before any job is queued)."""
    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr"])
    page = api.post("/api/pages", page_payload(media)).json()["post"]
    assert api.post(f"/api/pages/{page['id']}/translations", {"language": "fr"}).status_code == 201
    again = api.post("/api/ai/translate-post", {"postId": page["id"], "language": "fr"})
    assert again.status_code == 409 and again.json()["code"] == "translation_exists"
