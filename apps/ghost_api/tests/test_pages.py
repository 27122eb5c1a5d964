"""Ghost's pages (apps.content.kinds): `pages` browse, read by id and by slug answer the company's
published pages in Ghost's post shape (Ghost's page object is its post object), filtered, ordered
and paged as posts are; `posts` never lists a page, nor reads one by id or slug."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.content.tests.factories import make_post
from apps.ghost_api.tests.conftest import Ghost
from apps.public_api.tests.conftest import lookup_codes, wsgi_app, wsgi_call  # noqa: F401 (fixtures)


@pytest.fixture
def pages(tenant, blog):
    now = timezone.now().replace(microsecond=0)
    made = {slug: make_post(tenant, title, slug=slug, status="published", kind="page", author=blog["alice"],
                            tags=[blog["photo"]] if slug == "about" else [], content=f"<p>{title} text.</p>",
                            published_at=now - timedelta(hours=n), created_at=now - timedelta(hours=n))
            for n, (slug, title) in enumerate((("about", "About us"), ("contact", "Contact")))}
    made["draft"] = make_post(tenant, "Jobs", slug="jobs", kind="page")
    return made


def _slugs(response, resource: str = "pages") -> list[str]:
    assert response.status_code == 200, response.content
    return [row["slug"] for row in response.json()[resource]]


def test_pages_browse_read_and_slug(ghost, blog, pages):
    browse = ghost.get("pages/")
    assert _slugs(browse) == ["about", "contact"]
    assert browse.json()["meta"]["pagination"]["total"] == 2
    about = ghost.get("pages/slug/about/", {"include": "tags,authors"}).json()["pages"][0]
    post = ghost.get("posts/slug/first/", {"include": "tags,authors"}).json()["posts"][0]
    assert set(about) == set(post)  # Ghost's page object is its post object
    assert about["id"] == pages["about"].id.hex[:24] and about["html"] == "<p>About us text.</p>"
    assert about["primary_tag"]["slug"] == "photo" and about["primary_author"]["slug"] == "alice-writer"
    assert _slugs(ghost.get(f"pages/{pages['contact'].id.hex[:24]}/")) == ["contact"]
    assert ghost.get("pages/slug/jobs/").status_code == 404  # a draft page


def test_posts_never_show_a_page_and_pages_never_a_post(ghost, blog, pages):
    assert _slugs(ghost.get("posts/"), "posts") == ["fifth", "fourth", "third", "second", "first"]
    assert ghost.get("posts/").json()["meta"]["pagination"]["total"] == 5
    assert _slugs(ghost.get("posts/", {"filter": "tag:photo"}), "posts") == ["second", "first"]
    missing = ghost.get("posts/slug/about/")
    assert missing.status_code == 404 and missing.json()["errors"][0]["message"] == "Post not found."
    assert ghost.get(f"posts/{pages['about'].id.hex[:24]}/").status_code == 404
    not_a_page = ghost.get("pages/slug/first/")
    assert not_a_page.status_code == 404 and not_a_page.json()["errors"][0]["message"] == "Page not found."
    # a tag's count is of its posts
    photo = ghost.get("tags/slug/photo/", {"include": "count.posts"}).json()["tags"][0]
    assert photo["count"]["posts"] == 2


def test_an_authors_count_is_of_posts_and_a_page_names_its_author(ghost, blog, pages):
    alice = ghost.get("authors/slug/alice-writer/", {"include": "count.posts"}).json()["authors"][0]
    assert alice["count"]["posts"] == 3  # first, second and fifth: her pages are not counted
    assert len(ghost.get("posts/", {"filter": "author:alice-writer"}).json()["posts"]) == 3
    about = ghost.get("pages/slug/about/", {"include": "authors"}).json()["pages"][0]
    assert about["primary_author"]["slug"] == "alice-writer"


def test_pages_filter_order_and_page_as_posts(ghost, blog, pages):
    assert _slugs(ghost.get("pages/", {"order": "title asc"})) == ["about", "contact"]
    assert _slugs(ghost.get("pages/", {"order": "published_at asc"})) == ["contact", "about"]
    assert _slugs(ghost.get("pages/", {"filter": "tag:photo"})) == ["about"]
    assert _slugs(ghost.get("pages/", {"filter": "type:page"})) == ["about", "contact"]
    assert _slugs(ghost.get("pages/", {"filter": "type:post"})) == []
    assert _slugs(ghost.get("posts/", {"filter": "type:page"}), "posts") == []
    second = ghost.get("pages/", {"limit": "1", "page": "2"})
    assert _slugs(second) == ["contact"] and second.json()["meta"]["pagination"]["pages"] == 2


def test_a_pages_url_is_at_the_websites_root(tenant, ghost, blog, pages, api):
    assert api.put("/api/client/info", {"name": tenant.name, "contactName": "Casey", "contactEmail": "c@example.com",
                                        "websiteUrl": "https://www.acme.example",
                                        "postUrlTemplate": "https://www.acme.example/blog/{slug}"}).status_code == 200
    assert ghost.get("pages/slug/about/").json()["pages"][0]["url"] == "https://www.acme.example/about/"
    assert ghost.get("posts/slug/first/").json()["posts"][0]["url"] == "https://www.acme.example/blog/first"


def test_another_companys_pages_are_not_found(tenant, other_tenant, blog, pages):
    theirs = Ghost(other_tenant)
    assert _slugs(theirs.get("pages/")) == []
    assert theirs.get("pages/slug/about/").status_code == 404
    assert theirs.get(f"pages/{pages['about'].id.hex[:24]}/").status_code == 404
    assert Ghost(tenant, key=other_tenant.ghost_content_key).get("pages/").status_code in (401, 403)


def test_the_wsgi_layer_builds_ghosts_pages_as_django_does(wsgi_app, tenant, blog, pages, settings,  # noqa: F811
                                                           lookup_codes):  # noqa: F811
    from django.core.handlers.wsgi import WSGIHandler

    settings.PUBLIC_API_CACHE = False
    query = f"key={tenant.ghost_content_key}&include=tags"
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=1")  # the host is known
    lookup_codes.clear()
    built = wsgi_call(wsgi_app, tenant, "/ghost/api/content/pages/", query=query)
    assert lookup_codes == [7]
    django = wsgi_call(WSGIHandler(), tenant, "/ghost/api/content/pages/", query=query)
    assert (built.status_code, built.content) == (200, django.content)
    assert [row["slug"] for row in built.json()["pages"]] == ["about", "contact"]
