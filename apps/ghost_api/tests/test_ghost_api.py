"""The Ghost-compatible Content API on a company's host: what a website built on Ghost's Content
API reads (published content only, in Ghost's shapes), its query parameters, its errors in
Ghost's shape, and the rules it shares with /api/v1 (key per company, rate limit, reply cache)."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_post
from apps.core.testing import Api, create_user
from apps.ghost_api.tests.conftest import Ghost
from tenants.models import Client
from lifecycle.services import client_rotate_keys, client_set_status

pytestmark = pytest.mark.django_db


def slugs(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [post["slug"] for post in response.json()["posts"]]


def error_of(response) -> dict:
    return response.json()["errors"][0]


# --- keys ----------------------------------------------------------------------------------------
def test_every_company_has_its_own_26_hex_key(tenant, other_tenant):
    for client in (tenant, other_tenant):
        assert re.fullmatch(r"[0-9a-f]{26}", client.ghost_content_key)
    assert tenant.ghost_content_key != other_tenant.ghost_content_key


def test_only_the_ghost_key_opens_the_ghost_routes(tenant, ghost, blog):
    assert ghost.get("posts/").status_code == 200
    for key in (tenant.api_key, tenant.preview_key, "0" * 26):
        response = ghost.get("posts/", key=key)
        assert response.status_code == 401
        assert error_of(response)["type"] == "UnauthorizedError"
        assert error_of(response)["message"] == "Unknown Content API Key"
    # ... and it is no key of /api/v1
    assert Api(tenant, headers={"x-api-key": tenant.ghost_content_key}).get("/api/v1/posts").status_code == 401


def test_a_missing_key_is_ghosts_403(ghost, blog):
    response = ghost.get("posts/", key="")
    assert response.status_code == 403
    assert error_of(response)["type"] == "NoPermissionError"


def test_a_repeated_key_is_400(tenant, blog):
    key = tenant.ghost_content_key
    response = Api(tenant).get(f"/ghost/api/content/posts/?key={key}&key={key}")
    assert response.status_code == 400 and error_of(response)["type"] == "BadRequestError"


def test_another_companys_key_reads_nothing(tenant, other_tenant, blog):
    make_post(other_tenant, "Theirs", slug="theirs", status="published")
    response = Ghost(other_tenant, key=tenant.ghost_content_key).get("posts/")
    assert response.status_code == 401
    theirs = Ghost(other_tenant)
    assert slugs(theirs.get("posts/")) == ["theirs"]
    assert theirs.get("posts/slug/first/").status_code == 404
    first_id = Ghost(tenant).get("posts/slug/first/").json()["posts"][0]["id"]
    assert theirs.get(f"posts/{first_id}/").status_code == 404
    assert theirs.get("tags/slug/news/").status_code == 404
    assert theirs.get("authors/slug/bob/").status_code == 404
    assert slugs(theirs.get("posts/", {"filter": "tag:news,slug:first"})) == []


def test_rotation_replaces_the_ghost_key_with_the_content_key(tenant, ghost, blog, django_capture_on_commit_callbacks):
    old = tenant.ghost_content_key
    assert ghost.get("posts/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        client_rotate_keys(client=Client.objects.get(pk=tenant.pk), content=True)
    fresh = Client.objects.get(pk=tenant.pk)
    assert re.fullmatch(r"[0-9a-f]{26}", fresh.ghost_content_key) and fresh.ghost_content_key != old
    assert ghost.get("posts/", key=old).status_code == 401
    assert Ghost(fresh).get("posts/").status_code == 200


def test_settings_show_the_ghost_key_to_every_role_and_admins_rotate_it(tenant, api):
    for role in ("admin", "editor", "author", "viewer"):
        info = Api(tenant, user=create_user(tenant, role)).get("/api/client/info").json()["data"]["apiInfo"]
        assert info["ghost"]["contentApiKey"] == tenant.ghost_content_key, role
        assert info["ghost"]["version"] == "v5.0"
        assert info["ghost"]["url"].startswith("http") and not info["ghost"]["url"].endswith("/")
    assert Api(tenant, user=create_user(tenant, "editor")).post("/api/client/api-key/rotate").status_code == 403
    rotated = api.post("/api/client/api-key/rotate").json()["data"]
    fresh = Client.objects.get(pk=tenant.pk)
    assert rotated == {"apiKey": fresh.api_key, "ghostContentKey": fresh.ghost_content_key}
    assert fresh.ghost_content_key != tenant.ghost_content_key


def test_a_suspended_or_unverified_company_answers_403(tenant, ghost, blog, make_tenant):
    client_set_status(client=Client.objects.get(pk=tenant.pk), status=Client.Status.SUSPENDED)
    response = ghost.get("posts/")
    assert response.status_code == 403 and error_of(response)["type"] == "NoPermissionError"
    unverified = make_tenant(verified=False)
    assert Ghost(unverified).get("posts/").status_code == 403


def test_the_ghost_key_has_the_same_rate_limit(ghost, blog, settings, tenant):
    settings.PUBLIC_API_RATE_LIMIT = 3
    assert [ghost.get("posts/").status_code for _ in range(3)] == [200, 200, 200]
    limited = ghost.get("tags/")
    assert limited.status_code == 429
    assert error_of(limited)["type"] == "TooManyRequestsError" and int(limited["Retry-After"]) >= 1
    # per key: the content key of /api/v1 has its own window
    assert Api(tenant, headers={"x-api-key": tenant.api_key}).get("/api/v1/posts").status_code == 200


# --- posts ---------------------------------------------------------------------------------------
def test_posts_are_the_published_ones_newest_first(ghost, blog):
    response = ghost.get("posts/")
    assert slugs(response) == ["fifth", "fourth", "third", "second", "first"]
    assert response.json()["meta"]["pagination"] == {"page": 1, "limit": 15, "pages": 1, "total": 5, "next": None,
                                                     "prev": None}
    post = response.json()["posts"][-1]
    first = blog["posts"]["first"]
    assert post["id"] == first.id.hex[:24] and post["uuid"] == str(first.id)
    assert post["html"] == "<p>The first post has words.</p>" and "plaintext" not in post
    assert post["excerpt"] == "The first post has words." and post["custom_excerpt"] is None
    assert "tags" not in post and "authors" not in post


def test_limit_page_and_all(ghost, blog):
    first = ghost.get("posts/", {"limit": "2", "page": "2"})
    assert slugs(first) == ["third", "second"]
    assert first.json()["meta"]["pagination"] == {"page": 2, "limit": 2, "pages": 3, "total": 5, "next": 3, "prev": 1}
    assert slugs(ghost.get("posts/", {"limit": "2", "page": "9"})) == []
    everything = ghost.get("posts/", {"limit": "all"})
    assert len(slugs(everything)) == 5 and everything.json()["meta"]["pagination"]["limit"] == "all"
    capped = ghost.get("posts/", {"limit": "5000"})
    assert capped.json()["meta"]["pagination"]["limit"] == 100


def test_read_by_id_and_slug_published_only(ghost, blog):
    by_slug = ghost.get("posts/slug/second/", {"include": "tags,authors"}).json()
    assert "meta" not in by_slug  # Ghost's client returns a read's one post only without meta
    post = by_slug["posts"][0]
    assert ghost.get(f"posts/{post['id']}/").json()["posts"][0]["slug"] == "second"
    assert ghost.get(f"posts/{post['id'].upper()}").json()["posts"][0]["slug"] == "second"
    # its tags in its order, then its categories; its primary tag is its first tag
    assert [tag["slug"] for tag in post["tags"]] == ["photo", "video", "news"]
    assert post["primary_tag"]["slug"] == "photo"
    assert post["primary_author"]["slug"] == "alice-writer" and post["authors"][0]["name"] == "Alice Writer"
    for hidden in ("draft", "archived"):
        response = ghost.get(f"posts/slug/{hidden}/")
        assert response.status_code == 404 and error_of(response)["type"] == "NotFoundError"
        assert ghost.get(f"posts/{blog['posts'][hidden].id.hex[:24]}/").status_code == 404
    assert ghost.get("posts/not-an-id/").status_code == 422


def test_formats_and_fields(ghost, blog):
    post = ghost.get("posts/slug/first/", {"formats": "plaintext"}).json()["posts"][0]
    assert post["plaintext"] == "The first post has words." and "html" not in post
    both = ghost.get("posts/slug/first/", {"formats": "html,plaintext"}).json()["posts"][0]
    assert "html" in both and "plaintext" in both
    narrow = ghost.get("posts/", {"fields": "title,url,nothing", "limit": "1"}).json()["posts"][0]
    assert set(narrow) == {"title", "url"}


def test_url_follows_the_post_url_template(tenant, ghost, blog, api):
    assert api.put("/api/client/info", {"name": tenant.name, "contactName": "Casey", "contactEmail": "c@example.com",
                                        "websiteUrl": "https://www.acme.example",
                                        "postUrlTemplate": "https://www.acme.example/blog/{slug}"}).status_code == 200
    post = ghost.get("posts/slug/first/", {"include": "tags,authors"}).json()["posts"][0]
    assert post["url"] == "https://www.acme.example/blog/first"
    assert post["primary_tag"]["url"] == "https://www.acme.example/tag/photo/"
    assert post["primary_author"]["url"] == "https://www.acme.example/author/alice-writer/"
    settings = ghost.get("settings/").json()["settings"]
    assert settings["url"] == "https://www.acme.example/" and settings["title"] == tenant.name


def test_order(ghost, blog):
    assert slugs(ghost.get("posts/", {"order": "published_at asc"})) == ["first", "second", "third", "fourth", "fifth"]
    assert slugs(ghost.get("posts/", {"order": "title asc"})) == ["fifth", "first", "fourth", "second", "third"]
    bad = ghost.get("posts/", {"order": "password desc"})
    assert bad.status_code == 400 and error_of(bad)["type"] == "BadRequestError"


@pytest.mark.parametrize(("nql", "expected"), [
    ("tag:photo", ["second", "first"]),
    ("tags:[photo,video]", ["fourth", "second", "first"]),
    ("tag:news", ["third", "second", "first"]),
    ("tag:shared", ["fifth", "fourth"]),  # the category and the tag of one slug are one Ghost tag
    ("primary_tag:news", []),  # a category is never a primary tag
    ("primary_tag:shared", ["fifth"]),  # fourth: its tags are Video, then Shared tag
    ("primary_tag:video", ["fourth"]),
    ("primary_tag:photo", ["second", "first"]),
    ("primary_tag:-photo", ["fifth", "fourth", "third"]),  # third has no tag, so no primary tag
    ("primary_tag:null", ["third"]),
    ("author:bob", ["fourth", "third"]),
    ("authors:[alice-writer]", ["fifth", "second", "first"]),
    ("featured:true", []),  # (test_featured_posts: with featured posts)
    ("featured:false", ["fifth", "fourth", "third", "second", "first"]),
    ("slug:second", ["second"]),
    ("slug:[first,third]", ["third", "first"]),
    ("visibility:public", ["fifth", "fourth", "third", "second", "first"]),
    ("visibility:paid", []),
    ("tag:-photo", ["fifth", "fourth", "third"]),
    ("tag:-[photo,shared]", ["third"]),
    ("author:-bob+tag:news", ["second", "first"]),
    ("tag:photo,author:bob", ["fourth", "third", "second", "first"]),
    ("(tag:photo,tag:shared)+author:alice-writer", ["fifth", "second", "first"]),
    ("tag:news+(author:bob,slug:first)", ["third", "first"]),
    ("status:published", ["fifth", "fourth", "third", "second", "first"]),
    ("tag:nothing-like-this", []),
])
def test_filters(ghost, blog, nql, expected):
    assert slugs(ghost.get("posts/", {"filter": nql})) == expected


def test_filters_by_id_and_dates(ghost, blog):
    posts = {post["slug"]: post for post in ghost.get("posts/").json()["posts"]}
    assert slugs(ghost.get("posts/", {"filter": f"id:{posts['third']['id']}"})) == ["third"]
    assert slugs(ghost.get("posts/", {"filter": f"id:-{posts['third']['id']}"})) == ["fifth", "fourth", "second",
                                                                                       "first"]
    since = posts["third"]["published_at"].replace("T", " ")[:19]
    assert slugs(ghost.get("posts/", {"filter": f"published_at:>'{since}'"})) == ["fifth", "fourth"]
    assert slugs(ghost.get("posts/", {"filter": f"published_at:>='{since}'"})) == ["fifth", "fourth", "third"]
    day = posts["second"]["published_at"][:10]
    assert slugs(ghost.get("posts/", {"filter": f"published_at:<{day}"})) == ["first"]
    assert ghost.get("posts/", {"filter": "published_at:>'yesterday-ish'"}).status_code == 400


# --- tags, authors, pages, settings, tiers -------------------------------------------------------
def test_tags_with_their_published_post_counts(ghost, blog):
    response = ghost.get("tags/", {"include": "count.posts"})
    tags = {tag["slug"]: tag for tag in response.json()["tags"]}
    assert [tag["slug"] for tag in response.json()["tags"]] == ["news", "photo", "shared", "video"]
    # the draft and the archived post tagged photo and news are not counted; `shared` (a category and
    # a tag) counts each post once
    assert {slug: tag["count"]["posts"] for slug, tag in tags.items()} == {"news": 3, "photo": 2, "shared": 2,
                                                                            "video": 2}
    assert tags["news"]["description"] == "What happened" and tags["news"]["id"] == blog["news"].id.hex[:24]
    assert "count" not in ghost.get("tags/").json()["tags"][0]
    assert ghost.get(f"tags/{tags['photo']['id']}/").json()["tags"][0]["slug"] == "photo"
    assert ghost.get("tags/slug/video/").json()["tags"][0]["name"] == "Video"
    assert ghost.get("tags/slug/missing/").status_code == 404
    assert [tag["slug"] for tag in ghost.get("tags/", {"filter": "slug:[photo,video]"}).json()["tags"]] == [
        "photo", "video"]
    assert [tag["slug"] for tag in ghost.get("tags/", {"filter": "slug:-news", "limit": "2", "page": "2"})
            .json()["tags"]] == ["video"]


def test_authors_are_people_with_published_posts(tenant, ghost, blog):
    create_user(tenant, "author", username="Nobody Yet")  # no post at all
    response = ghost.get("authors/", {"include": "count.posts"})
    authors = response.json()["authors"]
    assert [(a["slug"], a["name"], a["count"]["posts"]) for a in authors] == [("alice-writer", "Alice Writer", 3),
                                                                             ("bob", "bob", 2)]
    assert not any("email" in author for author in authors)
    assert ghost.get("authors/slug/bob/").json()["authors"][0]["id"] == blog["bob"].id.hex[:24]
    assert ghost.get(f"authors/{blog['alice'].id.hex[:24]}/").json()["authors"][0]["slug"] == "alice-writer"
    assert ghost.get("authors/slug/nobody-yet/").status_code == 404


def test_a_blog_without_pages_has_none_and_a_post_is_no_page(ghost, blog):
    """(Pages are a content kind of their own now: apps/ghost_api/tests/test_pages.py.)"""
    assert ghost.get("pages/").json() == {"pages": [], "meta": {"pagination": {
        "page": 1, "limit": 15, "pages": 1, "total": 0, "next": None, "prev": None}}}
    assert ghost.get("pages/slug/first/").status_code == 404
    assert ghost.get(f"pages/{blog['posts']['first'].id.hex[:24]}/").status_code == 404


def test_settings_and_tiers(tenant, ghost):
    settings = ghost.get("settings/").json()
    assert settings["settings"]["title"] == tenant.name and settings["meta"] == {}
    tiers = ghost.get("tiers/").json()["tiers"]
    assert [(tier["slug"], tier["type"], tier["active"]) for tier in tiers] == [("free", "free", True)]


# --- the protocol --------------------------------------------------------------------------------
def test_accept_version_is_echoed_as_content_version(ghost, blog):
    response = ghost.get("posts/", HTTP_ACCEPT_VERSION="v5.0")
    assert response["Content-Version"] == "v5.0" and "Accept-Version" in response["Vary"]
    assert "Content-Version" not in ghost.get("posts/")
    assert ghost.get("nothing/here/", HTTP_ACCEPT_VERSION="v5.0")["Content-Version"] == "v5.0"


def test_unknown_paths_and_methods_answer_in_ghosts_shape(ghost, tenant):
    response = ghost.get("comments/")
    assert response.status_code == 404 and error_of(response)["type"] == "NotFoundError"
    posted = Api(tenant).post(f"/ghost/api/content/posts/?key={tenant.ghost_content_key}", {})
    assert posted.status_code == 405


@pytest.mark.parametrize(("params", "status"), [
    ({"limit": "0"}, 422), ({"limit": "many"}, 422), ({"page": "0"}, 422), ({"page": "-1"}, 422),
    ({"include": "secrets"}, 422), ({"formats": "mobiledoc"}, 422), ({"order": "published_at sideways"}, 400),
])
def test_bad_parameters_are_ghosts_4xx(ghost, blog, params, status):
    response = ghost.get("posts/", params)
    assert response.status_code == status
    assert error_of(response)["type"] == ("ValidationError" if status == 422 else "BadRequestError")


def test_replies_are_cached_with_etags_and_follow_writes(tenant, admin, ghost, blog,
                                                         django_capture_on_commit_callbacks):
    first = ghost.get("posts/", {"limit": "2"})
    assert first["X-Cache"] == "MISS"
    again = ghost.get("posts/", {"limit": "2"})
    assert again["X-Cache"] == "HIT" and again.content == first.content
    assert ghost.get("posts/", {"limit": "2"}, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert "search-" in first["xkey"] and f"p-{blog['posts']['fifth'].id.hex[:12]}" in first["xkey"]
    from apps.content.services import post_update

    with django_capture_on_commit_callbacks(execute=True):
        with schema_context(tenant.schema_name):
            post = Post.objects.get(slug="fifth")
            post_update(actor=admin, post=post, title="Fifth, renamed")
    after = ghost.get("posts/", {"limit": "2"})
    assert after["X-Cache"] == "MISS" and after.json()["posts"][0]["title"] == "Fifth, renamed"


def test_a_settings_change_is_seen_at_once(tenant, ghost, api, django_capture_on_commit_callbacks):
    assert ghost.get("settings/").json()["settings"]["title"] == tenant.name
    assert ghost.get("settings/")["X-Cache"] == "HIT"
    with django_capture_on_commit_callbacks(execute=True):
        api.put("/api/client/info", {"name": "Renamed Inc", "contactName": "Casey", "contactEmail": "c@example.com"})
    assert ghost.get("settings/").json()["settings"]["title"] == "Renamed Inc"


def test_a_browser_may_call_it_from_any_origin(tenant, ghost, blog):
    origin = {"HTTP_ORIGIN": "https://www.company.example"}
    assert ghost.get("posts/", **origin)["Access-Control-Allow-Origin"] == "*"
    preflight = Api(tenant).http.options("/ghost/api/content/posts/", HTTP_ORIGIN="https://www.company.example",
                                         HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                                         HTTP_ACCESS_CONTROL_REQUEST_HEADERS="accept-version")
    assert preflight.status_code == 200 and "accept-version" in preflight["Access-Control-Allow-Headers"]
    assert ghost.get("tags/").status_code == 200
    head = Api(tenant).http.head(f"/ghost/api/content/tags/?key={tenant.ghost_content_key}")
    assert head.status_code == 200


def test_a_post_in_a_page_is_the_post_read_alone(tenant, ghost, blog):
    """A page writes its times in SQL and shares its tags' lists between posts; a post read alone
    shapes them in Python: both give Ghost's JSON of the post, to the byte, sub-millisecond
    times and a time zone other than UTC included."""
    with schema_context(tenant.schema_name):
        Post.objects.filter(slug="second").update(
            created_at=datetime(2024, 2, 29, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=5))),
            updated_at=datetime(2025, 1, 1, 0, 0, 0, 1000, tzinfo=UTC))
    params = {"include": "tags,authors", "formats": "html,plaintext"}
    page = ghost.get("posts/", {**params, "limit": "all"}).json()["posts"]
    read = {slug: ghost.get(f"posts/slug/{slug}/", params).json()["posts"][0] for slug in
            ("first", "second", "third", "fourth", "fifth")}
    assert [post["slug"] for post in page] == ["fifth", "fourth", "third", "second", "first"]
    for post in page:
        assert post == read[post["slug"]]
    second = read["second"]
    assert second["created_at"] == "2024-02-29T18:59:59.999+00:00"
    assert second["updated_at"] == "2025-01-01T00:00:00.001+00:00"
    assert page[1]["tags"] == read["fourth"]["tags"] and [t["slug"] for t in page[1]["tags"]] == ["video", "shared"]
