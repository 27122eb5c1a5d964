"""The characters text may hold (apps.core.text, docs/text-and-feeds.md): the output rule keeps
exactly what XML 1.0 allows; the input rule refuses NUL and unpaired surrogates with the 400
envelope and takes the other forbidden characters out of every text field of every API."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.content.models import Category, Post, PostAutosave, Tag
from apps.content.tests.conftest import make_category, make_media, make_post, post_payload
from apps.core import testing
from apps.core.text import NUL_MESSAGE, SURROGATE_MESSAGE, TextRefused, input_text, xml_text
from apps.webhooks.models import WebhookEndpoint
from tenants.models import Client

# A vertical tab (a word processor's line break), a form feed (its page break), other C0 controls
# and the two non-characters XML 1.0 forbids.
BAD = "Bad\x0btext\x01 here\ufffe\uffff\x1f\x0cnow"
CLEAN = "Bad text here now"
SURROGATE_ERROR = {"success": False, "message": SURROGATE_MESSAGE, "error": "validation_error"}


@pytest.fixture
def payload(tenant):
    return post_payload(make_category(tenant, name="News", slug="news"), make_media(tenant))


def _xml_allows(code: int) -> bool:
    """XML 1.0 (fifth edition), production [2] Char."""
    return (code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD
            or 0x10000 <= code <= 0x10FFFF)


def test_the_output_rule_keeps_exactly_what_xml_allows_and_a_parser_reads_it():
    every = "".join(chr(code) for code in range(0x110000))
    cleaned = xml_text(every)
    assert cleaned == "".join(" " if code in (0xB, 0xC) else chr(code)
                              for code in range(0x110000) if _xml_allows(code) or code in (0xB, 0xC))
    # expat (a strict XML 1.0 parser) reads it back unchanged (CR is read as LF, as XML says).
    document = f"<t>{escape(cleaned)}</t>".encode("utf-8", "surrogatepass")
    assert ET.fromstring(document).text == cleaned.replace("\r", "\n")
    assert xml_text(BAD) == CLEAN
    assert xml_text("tab\tline\nreturn\r emoji \U0001F600 ok") == "tab\tline\nreturn\r emoji \U0001F600 ok"


def test_the_input_rule_refuses_nul_and_lone_surrogates_and_cleans_the_rest():
    for value, message in [("a\x00b", NUL_MESSAGE), ("a\ud800b", SURROGATE_MESSAGE), ("\udfff", SURROGATE_MESSAGE)]:
        with pytest.raises(TextRefused) as refused:
            input_text(value)
        assert str(refused.value) == message
    assert input_text(BAD) == CLEAN
    assert input_text("\U0001F600 a pair is fine") == "\U0001F600 a pair is fine"


# --- lone surrogates: the 400 envelope, nothing stored -----------------------------------------------
def _raw_body(body: dict, surrogate: str) -> str:
    """JSON with an unpaired surrogate as the escape \\ud800 (json.dumps writes it so)."""
    return json.dumps(body).replace("SURROGATE", surrogate)


@pytest.mark.parametrize("surrogate", ["\\ud800", "\\udc00", "\\uDBFF tail"])
def test_a_lone_surrogate_gets_the_validation_envelope_wherever_text_comes_in(tenant, api, payload, surrogate):
    """Python's JSON decoder accepts "\\ud800"; PostgreSQL cannot store it, so post and tag create
    answered 500 (the encoding error of the insert)."""
    post = make_post(tenant, title="Kept", slug="kept")
    category = make_category(tenant)
    calls = [
        ("post", "/api/posts", {**payload, "postTitle": "SURROGATE"}),
        ("post", "/api/posts", {**payload, "postContent": "<p>SURROGATE</p>"}),
        ("put", f"/api/posts/{post.id}", {"excerpt": "SURROGATE"}),
        ("put", f"/api/posts/{post.id}/autosave", {"fields": {"title": "SURROGATE"}}),
        ("post", "/api/tags/add", {"name": "SURROGATE", "slug": "bad-tag"}),
        ("post", "/api/categories/add", {"name": "Bad", "slug": "bad-category", "description": "SURROGATE"}),
        ("put", f"/api/categories/{category.id}", {"name": "SURROGATE"}),
        ("put", "/api/client/info", {"name": "SURROGATE", "contactName": "Jo", "contactEmail": "jo@acme.com"}),
        ("post", "/api/webhooks", {"url": "http://127.0.0.1:9/h", "events": ["post.published"],
                                   "description": "SURROGATE"}),
        ("post", "/api/analytics/track", {"pageUrl": "https://example.com/SURROGATE"}),
        ("post", "/api/posts", {**payload, "SURROGATE": 1}),  # in a key too
    ]
    for method, path, body in calls:
        response = getattr(api.http, method)(path, _raw_body(body, surrogate), content_type="application/json",
                                             headers=api.headers)
        assert (response.status_code, response.json()) == (400, SURROGATE_ERROR), (path, body)
    # raw UTF-8 bytes of a surrogate (Python's decoder passes them through too)
    raw = json.dumps({"name": "X", "slug": "raw-tag"}).encode().replace(b'"X"', b'"\xed\xa0\x80"')
    response = api.http.post("/api/tags/add", raw, content_type="application/json", headers=api.headers)
    assert (response.status_code, response.json()) == (400, SURROGATE_ERROR)
    with schema_context(tenant.schema_name):
        assert list(Post.objects.values_list("title", flat=True)) == ["Kept"]
        assert not Tag.objects.exists() and Category.objects.count() == 2  # the payload's and this test's
        assert not PostAutosave.objects.exists() and not WebhookEndpoint.objects.exists()
    assert Client.objects.get(pk=tenant.pk).name == tenant.name
    # The credentials are checked first, as for NUL.
    anonymous = testing.Api(tenant).http.post("/api/tags/add", _raw_body({"name": "SURROGATE"}, surrogate),
                                              content_type="application/json")
    assert anonymous.status_code == 401


def test_sign_up_refuses_a_lone_surrogate(db):
    body = {"companyName": "SURROGATE", "contactName": "Jo", "contactEmail": "jo@acme.com", "subdomain": "surro-co",
            "adminUsername": "jo", "adminEmail": "jo@acme.com", "adminPassword": "password-123"}
    response = testing.Api(None).http.post("/api/auth/register-client", _raw_body(body, "\\ud800"),
                                           content_type="application/json")
    assert (response.status_code, response.json()) == (400, SURROGATE_ERROR)
    assert not Client.objects.filter(subdomain="surro-co").exists()


# --- every text field: stored without what XML 1.0 forbids -----------------------------------------
def _post(tenant, slug):
    with schema_context(tenant.schema_name):
        return Post.objects.get(slug=slug)


def test_every_text_field_of_posts_is_stored_without_what_xml_forbids(tenant, api, payload):
    created = api.post("/api/posts", {
        **payload, "postTitle": BAD, "postContent": f"<p>{BAD}</p>", "postExcerpt": BAD, "customSlug": f"x{BAD}",
        "seoMetadata": {"title": BAD, "description": BAD, "canonicalUrl": "", "focusKeyword": BAD},
        "ogTitle": BAD, "ogDescription": BAD, "twitterTitle": BAD, "twitterDescription": BAD,
    })
    assert created.status_code == 201, created.content
    post = _post(tenant, "xbad-text-here-now")
    assert post.content == f"<p>{CLEAN}</p>"
    for field in ("title", "excerpt", "meta_title", "meta_description", "focus_keyword", "og_title",
                  "og_description", "twitter_title", "twitter_description"):
        assert getattr(post, field) == CLEAN, field

    other = BAD.replace("Bad", "Other")
    updated = api.put(f"/api/posts/{post.id}", {
        "title": other, "content": f"<h2>{other}</h2>", "excerpt": other, "metaTitle": other,
        "metaDescription": other, "focusKeyword": other, "ogTitle": other, "ogDescription": other,
        "twitterTitle": other, "twitterDescription": other, "customSlug": other,
    })
    assert updated.status_code == 200, updated.content
    post = _post(tenant, "other-text-here-now")
    assert post.content == "<h2>Other text here now</h2>"
    for field in ("title", "excerpt", "meta_title", "meta_description", "focus_keyword", "og_title",
                  "og_description", "twitter_title", "twitter_description"):
        assert getattr(post, field) == "Other text here now", field

    autosaved = api.put(f"/api/posts/{post.id}/autosave", {"fields": {"title": BAD, "tags": [BAD], BAD: BAD}})
    assert autosaved.status_code == 200, autosaved.content
    with schema_context(tenant.schema_name):
        assert PostAutosave.objects.get(post=post).data == {"title": CLEAN, "tags": [CLEAN], CLEAN: CLEAN}


def test_review_notes_are_stored_without_what_xml_forbids(tenant, api, role_api):
    author = role_api("author")
    post = make_post(tenant, title="For review", slug="for-review", author=author.user)
    assert author.post(f"/api/posts/{post.id}/review/request").status_code == 200
    returned = api.post(f"/api/posts/{post.id}/review/return", {"note": BAD})
    assert returned.status_code == 200, returned.content
    assert returned.json()["post"]["reviewNote"] == CLEAN


def test_category_and_tag_names_and_descriptions_are_stored_without_what_xml_forbids(tenant, api):
    category = api.post("/api/categories/add", {"name": BAD, "slug": BAD, "description": BAD})
    assert category.status_code == 201, category.content
    assert category.json()["category"] == {**category.json()["category"], "name": CLEAN, "slug": "bad-text-here-now",
                                           "description": CLEAN}
    tag = api.post("/api/tags/add", {"name": BAD, "slug": BAD})
    assert tag.status_code == 201, tag.content
    with schema_context(tenant.schema_name):
        assert Tag.objects.get().name == CLEAN
    other = BAD.replace("Bad", "New")
    category_id, tag_id = category.json()["category"]["id"], tag.json()["tag"]["id"]
    assert api.put(f"/api/categories/{category_id}", {"name": other, "description": other}).status_code == 200
    assert api.put(f"/api/tags/{tag_id}", {"name": other}).status_code == 200
    with schema_context(tenant.schema_name):
        assert Category.objects.filter(pk=category_id).values_list("name", "description").get() == (
            "New text here now", "New text here now")
        assert Tag.objects.get(pk=tag_id).name == "New text here now"


def test_company_settings_and_sign_up_are_stored_without_what_xml_forbids(tenant, api, root_api):
    saved = api.put("/api/client/info", {"name": BAD, "contactName": BAD, "contactEmail": "jo@acme.com",
                                         "websiteUrl": "https://acme.example/\x0b", "postUrlTemplate":
                                         "https://acme.example/blog/{slug}\x01"})
    assert saved.status_code == 200, saved.content
    company = Client.objects.get(pk=tenant.pk)
    assert (company.name, company.contact_name) == (CLEAN, CLEAN)
    assert (company.website_url, company.post_url_template) == ("https://acme.example/",
                                                                "https://acme.example/blog/{slug}")
    subdomain = testing.unique_subdomain("signup")
    signed_up = root_api.post("/api/auth/register-client", {
        "companyName": BAD, "contactName": BAD, "contactEmail": "jo@acme.com", "subdomain": subdomain,
        "adminUsername": f"boss{BAD}", "adminEmail": "boss@acme.com", "adminPassword": "password-123"})
    assert signed_up.status_code == 201, signed_up.content
    company = Client.objects.get(subdomain=subdomain)
    assert (company.name, company.contact_name) == (CLEAN, CLEAN)
    with schema_context(company.schema_name):
        assert User.objects.get().username == f"boss{CLEAN}"


def test_user_names_are_stored_without_what_xml_forbids(tenant, api):
    created = api.post("/api/auth/register-user", {"username": f"ann{BAD}", "email": "ann@example.com",
                                                   "password": "password-123", "role": "viewer"})
    assert created.status_code == 201, created.content
    with schema_context(tenant.schema_name):
        user = User.objects.get(email="ann@example.com")
        assert user.username == f"ann{CLEAN}"
    renamed = api.put(f"/api/users/{user.id}", {"username": f"anne{BAD}"})
    assert renamed.status_code == 200, renamed.content
    with schema_context(tenant.schema_name):
        assert User.objects.get(pk=user.pk).username == f"anne{CLEAN}"


def test_text_reaching_feeds_through_the_api_comes_out_clean(tenant, api, payload):
    """End to end: what an author types with pasted control characters is published and listed."""
    Client.objects.filter(pk=tenant.pk).update(website_url="https://acme.example")
    tag = api.post("/api/tags/add", {"name": BAD, "slug": "pasted"}).json()["tag"]
    created = api.post("/api/posts", {**payload, "postTitle": BAD, "postExcerpt": BAD, "postStatus": "published",
                                      "tags": [tag["id"]]})
    assert created.status_code == 201, created.content
    for path in ("/feeds/rss.xml", "/feeds/atom.xml", "/feeds/tag/pasted/rss.xml"):
        response = testing.Api(tenant).get(path)
        assert response.status_code == 200, (path, response.content[:300])
        assert CLEAN in list(ET.fromstring(response.content).itertext()), path  # the post's title
    tag_feed = ET.fromstring(testing.Api(tenant).get("/feeds/tag/pasted/rss.xml").content)
    assert tag_feed.findtext("channel/title") == f"{tenant.name}: {CLEAN}"
