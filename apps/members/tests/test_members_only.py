"""Members-only posts to readers (docs/content.md#members-only-posts): every list, the public API's
reads and the Ghost-compatible Content API show a members-only post's title, excerpt, image and
`visibility`; its body goes only to a request with a valid member token (X-Member-Token) of the
company, answered for that request alone: never from the reply cache nor the WSGI layer's copies,
never kept by them, so one reader's body never reaches another. A token of another company, an
expired, forged or outdated one is no member's: the body is withheld, never an error. Feeds and
the sitemap list the post without its body; a public search never matches words of it."""
from __future__ import annotations

import time
from unittest import mock

import pytest
from django_tenants.utils import schema_context

from apps.content.tests.factories import make_category, make_media, make_post
from apps.core.testing import Api
from apps.members import tokens
from apps.members.models import Member
from apps.members.tests import factories
from apps.public_api.tests.conftest import wsgi_app, wsgi_call  # noqa: F401 - wsgi_app: the fixture

BODY = "<p>The secret recipe: saffron" + " and more" * 300 + "</p>"  # 602 words: 2 minutes to read
OPEN_BODY = "<p>For all readers</p>"


@pytest.fixture
def posts(tenant):
    image = make_media(tenant)
    category = make_category(tenant, name="Kitchen", slug="kitchen")
    return {
        "open": make_post(tenant, "Open post", slug="open", status="published", content=OPEN_BODY,
                          categories=[category]),
        "locked": make_post(tenant, "Members post", slug="locked", status="published", content=BODY,
                            excerpt="A teaser", visibility="members", featured_image=image, categories=[category]),
        "page": make_post(tenant, "Members page", slug="club-page", status="published", content=BODY,
                          excerpt="", visibility="members", kind="page"),
    }


def member_token(tenant, **fields) -> str:
    member = factories.member(tenant, **fields)
    with schema_context(tenant.schema_name):
        return tokens.session_token(member)[0]


def read(tenant, path: str, token: str | None = None, **query):
    headers = {"x-api-key": tenant.api_key, **({"X-Member-Token": token} if token else {})}
    return Api(tenant, headers=headers).get(path, query or None)


def post_of(response, kind: str = "post") -> dict:
    assert response.status_code == 200, response.content
    return response.json()["data"][kind]


def ghost(tenant, path: str, token: str | None = None, **query):
    headers = {"X-Member-Token": token} if token else {}
    return Api(tenant, headers=headers).get(f"/ghost/api/content/{path}", {"key": tenant.ghost_content_key, **query})


# --- /api/v1 -------------------------------------------------------------------------------------
def test_lists_show_the_post_its_visibility_excerpt_and_image_and_never_a_body(tenant, posts):
    for path in ("/api/v1/posts", "/api/v1/posts/category/kitchen"):
        listed = {p["slug"]: p for p in read(tenant, path).json()["data"]["posts"]}
        assert listed["locked"]["visibility"] == "members" and listed["open"]["visibility"] == "public"
        assert listed["locked"]["title"] == "Members post" and listed["locked"]["excerpt"] == "A teaser"
        assert listed["locked"]["featuredImage"]["id"] == str(posts["locked"].featured_image_id)
        assert "content" not in listed["locked"]
    pages = read(tenant, "/api/v1/pages").json()["data"]["pages"]
    assert [(p["slug"], p["visibility"]) for p in pages] == [("club-page", "members")]


def test_the_body_goes_to_a_member_of_the_company_only(tenant, posts):
    anonymous = read(tenant, "/api/v1/posts/slug/locked")
    post = post_of(anonymous)
    assert post["visibility"] == "members" and post["content"] == "" and post["title"] == "Members post"
    assert post["excerpt"] == "A teaser" and post["featuredImage"]["id"] == str(posts["locked"].featured_image_id)
    assert "x-member-token" in anonymous["Vary"] and anonymous["Cache-Control"].startswith("public")

    member = read(tenant, "/api/v1/posts/slug/locked", member_token(tenant))
    assert post_of(member)["content"] == BODY
    assert member["Cache-Control"] == "private, no-store" and member["X-Cache"] == "BYPASS"
    assert "x-member-token" in member["Vary"] and "xkey" not in member  # nothing for a shared cache to keep
    assert post_of(read(tenant, "/api/v1/pages/slug/club-page", member_token(tenant)), "page")["content"] == BODY
    assert post_of(read(tenant, "/api/v1/pages/slug/club-page"), "page")["content"] == ""
    # a public post is whole for everyone
    assert post_of(read(tenant, "/api/v1/posts/slug/open"))["content"] == OPEN_BODY
    assert post_of(read(tenant, "/api/v1/posts/slug/open", member_token(tenant)))["content"] == OPEN_BODY


def test_a_token_of_another_company_expired_forged_or_outdated_is_no_members(tenant, other_tenant, posts, settings):
    valid = member_token(tenant)
    with mock.patch("time.time", return_value=time.time() - settings.MEMBERS_SESSION_SECONDS - 60):
        expired = member_token(tenant)
    changed_member = factories.member(tenant)
    with schema_context(tenant.schema_name):
        outdated = tokens.session_token(changed_member)[0]
        Member.objects.filter(pk=changed_member.pk).update(session_version=changed_member.session_version + 1)
        signin = tokens.signin_token(factories.member(tenant))  # a sign-in link's token, not a session's
    for token in (member_token(other_tenant), expired, outdated, signin, "forged.token:value", valid[:-4] + "AAAA",
                  "x" * 5000):
        response = read(tenant, "/api/v1/posts/slug/locked", token)
        assert post_of(response)["content"] == "", token[:40]
    assert post_of(read(tenant, "/api/v1/posts/slug/locked", valid))["content"] == BODY


def test_the_preview_key_reads_drafts_not_members_only_bodies(tenant, posts):
    draft = make_post(tenant, "Members draft", slug="members-draft", content=BODY, visibility="members")
    preview = {"x-api-key": tenant.preview_key}
    for slug in ("locked", draft.slug):
        assert post_of(Api(tenant, headers=preview).get(f"/api/v1/posts/slug/{slug}"))["content"] == ""
        with_token = Api(tenant, headers={**preview, "X-Member-Token": member_token(tenant)})
        assert post_of(with_token.get(f"/api/v1/posts/slug/{slug}"))["content"] == BODY


def test_the_reply_cache_never_serves_a_members_body_to_another_reader(tenant, posts, settings):
    settings.PUBLIC_API_CACHE = True
    token = member_token(tenant)
    path = "/api/v1/posts/slug/locked"
    first = read(tenant, path)  # anonymous: built and kept
    assert post_of(first)["content"] == "" and first["X-Cache"] == "MISS"
    member = read(tenant, path, token)  # a member: built for them, from no cache
    assert post_of(member)["content"] == BODY and member["X-Cache"] == "BYPASS"
    again = read(tenant, path)  # anonymous again: the kept reply, still without the body
    assert post_of(again)["content"] == "" and again["X-Cache"] == "HIT" and again["ETag"] == first["ETag"]
    assert read(tenant, path, token)["X-Cache"] == "BYPASS"
    # a member first: nothing of their reply is kept for the next reader
    other = "/api/v1/pages/slug/club-page"
    assert post_of(read(tenant, other, token), "page")["content"] == BODY
    after = read(tenant, other)
    assert post_of(after, "page")["content"] == "" and after["X-Cache"] == "MISS"
    # a forged token reads the kept public reply
    assert read(tenant, path, "forged")["X-Cache"] == "HIT"


def test_the_wsgi_layer_leaves_member_reads_to_django_and_keeps_none(wsgi_app, tenant, posts, settings):  # noqa: F811
    settings.PUBLIC_API_CACHE = True
    settings.PUBLIC_API_LEASE_MS = 0
    token = member_token(tenant)

    def get(path="/api/v1/posts/slug/locked", **headers):
        return wsgi_call(wsgi_app, tenant, path, key=tenant.api_key, headers=headers)

    get(), get()  # cached by Django, then a hit of the WSGI layer
    hit = get()
    assert hit.headers["x-cache"] == "HIT" and hit.json()["data"]["post"]["content"] == ""
    member = get(**{"X-Member-Token": token})
    assert member.json()["data"]["post"]["content"] == BODY and member.headers["cache-control"] == "private, no-store"
    after = get()
    assert after.headers["x-cache"] == "HIT" and after.json()["data"]["post"]["content"] == ""
    # a list read with a token is Django's too, from the cache, without a body
    listed = get("/api/v1/posts", **{"X-Member-Token": token})
    assert {p["slug"]: p["visibility"] for p in listed.json()["data"]["posts"]}["locked"] == "members"


# --- the Ghost-compatible Content API ------------------------------------------------------------
def test_the_ghost_content_api_gates_the_body_as_ghost_does(tenant, posts):
    browse = ghost(tenant, "posts/", formats="html,plaintext").json()
    locked = next(p for p in browse["posts"] if p["slug"] == "locked")
    assert locked["visibility"] == "members" and locked["access"] is False and locked["title"] == "Members post"
    assert locked["html"] == "" and locked["plaintext"] == ""
    assert locked["custom_excerpt"] == "A teaser" and locked["excerpt"] == "A teaser" and locked["feature_image"]
    assert locked["reading_time"] == 2  # of the whole body, as Ghost counts it before gating
    opened = next(p for p in browse["posts"] if p["slug"] == "open")
    assert opened["visibility"] == "public" and opened["access"] is True and opened["html"] == OPEN_BODY
    # no custom excerpt: the excerpt Ghost makes of the body is withheld with it
    [page] = ghost(tenant, "pages/slug/club-page/").json()["pages"]
    assert page["html"] == "" and page["excerpt"] == "" and page["access"] is False

    token = member_token(tenant)
    member = ghost(tenant, "posts/slug/locked/", token, formats="html,plaintext")
    [post] = member.json()["posts"]
    assert post["html"] == BODY and post["access"] is True and "saffron" in post["plaintext"]
    assert member["Cache-Control"] == "private, no-store" and "x-member-token" in member["Vary"]
    listed = ghost(tenant, "posts/", token).json()["posts"]
    assert next(p for p in listed if p["slug"] == "locked")["html"] == BODY
    assert next(p for p in ghost(tenant, "posts/", "forged").json()["posts"] if p["slug"] == "locked")["html"] == ""

    only = ghost(tenant, "posts/", filter="visibility:members").json()["posts"]
    assert [p["slug"] for p in only] == ["locked"]
    assert [p["slug"] for p in ghost(tenant, "posts/", filter="visibility:public").json()["posts"]] == ["open"]
    assert ghost(tenant, "posts/", filter="visibility:paid").json()["posts"] == []


def test_the_ghost_reply_cache_never_serves_a_members_body_to_another_reader(tenant, posts, settings):
    settings.PUBLIC_API_CACHE = True
    token = member_token(tenant)
    for path in ("posts/", "posts/slug/locked/"):
        first = ghost(tenant, path)
        assert first["X-Cache"] == "MISS"
        member = ghost(tenant, path, token)
        assert member["X-Cache"] == "BYPASS"
        assert next(p for p in member.json()["posts"] if p["slug"] == "locked")["html"] == BODY
        again = ghost(tenant, path)
        assert again["X-Cache"] == "HIT"
        assert next(p for p in again.json()["posts"] if p["slug"] == "locked")["html"] == ""


def test_the_wsgi_layer_leaves_ghost_member_reads_to_django(wsgi_app, tenant, posts, settings):  # noqa: F811
    settings.PUBLIC_API_CACHE = True
    settings.PUBLIC_API_LEASE_MS = 0
    token = member_token(tenant)

    def browse(**headers):
        response = wsgi_call(wsgi_app, tenant, "/ghost/api/content/posts/", query=f"key={tenant.ghost_content_key}",
                             headers=headers)
        return response, next(p for p in response.json()["posts"] if p["slug"] == "locked")

    browse(), browse()
    hit, locked = browse()
    assert hit.headers["x-cache"] == "HIT" and locked["html"] == ""
    member, locked = browse(**{"X-Member-Token": token})
    assert locked["html"] == BODY and member.headers["cache-control"] == "private, no-store"
    after, locked = browse()
    assert after.headers["x-cache"] == "HIT" and locked["html"] == ""


# --- feeds, the sitemap, search --------------------------------------------------------------------
def _feeds_on(tenant) -> None:
    from tenants.models import Client

    Client.objects.filter(pk=tenant.pk).update(website_url="https://blog.example.com", feeds_enabled=True)


def test_feeds_list_a_members_only_post_with_its_excerpt_and_the_sitemap_names_it(tenant, posts):
    _feeds_on(tenant)
    for path in ("/feeds/rss.xml", "/feeds/atom.xml"):
        feed = Api(tenant).get(path)
        assert feed.status_code == 200 and b"Members post" in feed.content and b"A teaser" in feed.content
        assert b"saffron" not in feed.content
    sitemap = Api(tenant).get("/sitemap.xml")
    assert sitemap.status_code == 200 and b"/locked" in sitemap.content and b"/club-page" in sitemap.content


def test_feeds_never_carry_a_members_only_body_in_place_of_a_missing_excerpt(tenant):
    _feeds_on(tenant)
    make_post(tenant, "Open post", slug="open", status="published", content=OPEN_BODY, excerpt="")
    make_post(tenant, "Members post", slug="locked", status="published", content=BODY, excerpt="",
              visibility="members")
    for path in ("/feeds/rss.xml", "/feeds/atom.xml"):
        feed = Api(tenant).get(path)
        assert feed.status_code == 200 and b"Members post" in feed.content and b"saffron" not in feed.content
        assert b"For all readers" in feed.content  # a public post without an excerpt: its body


def test_a_public_search_finds_a_members_only_post_by_its_title_never_by_its_body(tenant, posts, api):
    def found(search: str) -> list[str]:
        return [p["slug"] for p in read(tenant, "/api/v1/posts", search=search).json()["data"]["posts"]]

    assert found("saffron") == [] and found("recipe") == []
    assert found("Members post") == ["locked"]
    assert found("readers") == ["open"]
    # the staff's search reads every body
    staff = api.get("/api/posts", {"search": "saffron"}).json()["posts"]
    assert [p["slug"] for p in staff] == ["locked"]


def test_the_edge_tier_passes_member_reads():
    """The Varnish tier's VCL passes a request with a member token to the app (never looked up, never
    kept): apps/members/tests/test_members_only_edge.py runs it where varnishd is installed."""
    from pathlib import Path

    vcl = (Path(__file__).resolve().parents[3] / "deploy" / "varnish" / "default.vcl").read_text()
    recv = vcl.split("sub vcl_recv", 1)[1].split("sub vcl_hash", 1)[0]
    member_pass = recv.index("if (req.http.x-member-token)")
    assert recv.index("return (pass);", member_pass) < recv.index("return (hash);")
    assert member_pass < recv.index("vsthrottle")
