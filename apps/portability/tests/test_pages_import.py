"""Pages through imports (docs/import-export.md): Ghost's `type: page` rows (and a 1.x export's
`page: 1`) become pages, with no category; and `manage.py pages_from_category` turns the pages
earlier imports kept as posts of a "Pages" category into pages, per company."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django_tenants.utils import schema_context

from apps.content.models import Category, Post
from apps.content.tests.factories import make_category, make_post
from apps.portability.models import Redirect
from apps.portability.tests.test_import_samples import run, upload_bytes


def _ghost(posts: list[dict], tags: list[dict] = (), posts_tags: list[dict] = ()) -> bytes:
    return json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": {
        "posts": posts, "tags": list(tags), "posts_tags": list(posts_tags)}}]}).encode()


@pytest.mark.django_db
def test_ghost_pages_are_imported_as_pages(tenant, api):
    data = _ghost([
        {"id": "p1", "title": "A post", "slug": "a-post", "html": "<p>Post</p>", "status": "published", "type": "post"},
        {"id": "p2", "title": "About", "slug": "about", "html": "<p>About us</p>", "status": "published",
         "type": "page"},
        {"id": "p3", "title": "Contact", "slug": "contact", "html": "<p>Write</p>", "status": "draft", "page": 1},
    ], tags=[{"id": "t1", "name": "Company", "slug": "company"}],
        posts_tags=[{"id": "x", "post_id": "p2", "tag_id": "t1", "sort_order": 0}])
    job = upload_bytes(api, data, "ghost.json").json()["job"]
    assert job["plan"]["counts"]["post"] == {"create": 1} and job["plan"]["counts"]["page"] == {"create": 2}
    run(tenant, job["id"])
    report = api.get(f"/api/imports/{job['id']}").json()["job"]["report"]
    assert report["counts"]["page"] == {"created": 2} and report["counts"]["post"] == {"created": 1}
    with schema_context(tenant.schema_name):
        assert dict(Post.objects.values_list("slug", "kind")) == {"a-post": "post", "about": "page", "contact": "page"}
        about = Post.objects.get(slug="about")
        assert list(about.categories.all()) == [] and list(about.tags.values_list("slug", flat=True)) == ["company"]
        assert Redirect.objects.filter(old_path="/about/", post=about).exists()
        # the post without a category gets "Uncategorized"; the pages none, and no "Pages" category is made
        assert sorted(Category.objects.values_list("slug", flat=True)) == ["uncategorized"]
    pages = api.get("/api/pages", {"status": "all"}).json()["posts"]
    assert sorted(p["slug"] for p in pages) == ["about", "contact"]
    assert [p["slug"] for p in api.get("/api/posts", {"status": "all"}).json()["posts"]] == ["a-post"]


@pytest.mark.django_db
def test_pages_from_category_turns_earlier_imports_pages_into_pages_per_company(tenant, other_tenant):
    pages = make_category(tenant, "Pages", "pages")
    news = make_category(tenant, "News", "news")
    make_post(tenant, "About", slug="about", status="published", categories=[pages])
    make_post(tenant, "Contact", slug="contact", status="published", categories=[pages])
    make_post(tenant, "Hello", slug="hello", status="published", categories=[news])
    shared = make_category(other_tenant, "Pages", "pages")
    make_post(other_tenant, "Imprint", slug="imprint", status="published", categories=[shared])
    make_post(other_tenant, "Also a post", slug="also-a-post", status="published", categories=[shared],
              kind="page")  # already a page: left as it is

    dry = io.StringIO()
    call_command("pages_from_category", "--dry-run", stdout=dry)
    assert f"{tenant.schema_name} ({tenant.subdomain}): 2 posts would become pages" in dry.getvalue()
    with schema_context(tenant.schema_name):
        assert not Post.objects.filter(kind="page").exists()  # a dry run changes nothing

    out = io.StringIO()
    call_command("pages_from_category", stdout=out)
    printed = out.getvalue()
    assert f'{tenant.schema_name} ({tenant.subdomain}): 2 posts became pages; the category "Pages" was deleted' in printed
    assert f"{other_tenant.schema_name} ({other_tenant.subdomain}): 1 posts became pages" in printed
    assert "3 pages in 2 companies" in printed
    with schema_context(tenant.schema_name):
        assert dict(Post.objects.values_list("slug", "kind")) == {"about": "page", "contact": "page", "hello": "post"}
        assert list(Category.objects.values_list("slug", flat=True)) == ["news"]
    with schema_context(other_tenant.schema_name):
        assert set(Post.objects.values_list("kind", flat=True)) == {"page"}
        # the page that was one already keeps the category: it is still used, so it stays
        assert Category.objects.filter(slug="pages").exists()

    again = io.StringIO()
    call_command("pages_from_category", stdout=again)
    assert f"{tenant.schema_name}" not in again.getvalue()  # no such category left there
    assert f"{other_tenant.schema_name} ({other_tenant.subdomain}): 0 posts became pages" in again.getvalue()
