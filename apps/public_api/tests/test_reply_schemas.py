"""Real replies of every public route, through both entry points (the WSGI layer in front of
Django and Django alone), validate against the committed OpenAPI document (openapi/public.json):
the success bodies against each route's documented 200 schema, the errors against the envelope
documented for their status. Objects are checked strictly (no key the document does not name),
so the document is the exact shape the SDK's types are generated from."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from django.core.handlers.wsgi import WSGIHandler

from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.portability.models import Redirect
from apps.site.services import site_settings_update
from apps.content.tests.factories import make_category, make_media, make_post, make_tag
from apps.core.management.commands.openapi_export import default_directory
from apps.public_api.tests.conftest import wsgi_call


def _strict(node):
    if isinstance(node, dict):
        if "properties" in node:
            node.setdefault("additionalProperties", False)
        for value in node.values():
            _strict(value)
    elif isinstance(node, list):
        for value in node:
            _strict(value)
    return node


@pytest.fixture(scope="module")
def document():
    return _strict(copy.deepcopy(json.loads((default_directory() / "public.json").read_text())))


def _validate(document, path_template: str, method: str, status: int, body: dict) -> None:
    responses = document["paths"][path_template][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {path_template} does not document {status}"
    schema = responses[str(status)]["content"]["application/json"]["schema"]
    jsonschema.Draft202012Validator({**schema, "components": document["components"]}).validate(body)


@pytest.fixture
def content(tenant):
    news, tag = make_category(tenant, "News", slug="news"), make_tag(tenant, "Python", slug="python")
    cover, og, card = make_media(tenant, alt_text="Cover"), make_media(tenant), make_media(tenant, alt_text="")
    make_post(tenant, "Imaged", slug="imaged", categories=[news], tags=[tag], status="published",
              featured_image=cover, og_image=og, twitter_image=card, video_id="dQw4w9WgXcQ")
    make_post(tenant, "Bare", slug="bare", status="published", featured_image=None)
    draft = make_post(tenant, "A draft", slug="a-draft", status="draft", categories=[news])
    with schema_context(tenant.schema_name):  # old addresses of imported posts (apps.portability)
        Redirect.objects.create(old_path="/2019/05/imaged/", post=Post.objects.get(slug="imaged"))
        Redirect.objects.create(old_path="/?p=3", post=draft)


SUCCESSES = [
    ("api_key", "/api/v1/posts", "/api/v1/posts", ""),
    ("api_key", "/api/v1/posts", "/api/v1/posts", "search=imaged"),
    ("preview_key", "/api/v1/posts", "/api/v1/posts", "status=all&limit=1&page=2"),
    ("api_key", "/api/v1/posts/slug/imaged", "/api/v1/posts/slug/{slug}", ""),
    ("api_key", "/api/v1/posts/slug/bare", "/api/v1/posts/slug/{slug}", ""),
    ("preview_key", "/api/v1/posts/slug/a-draft", "/api/v1/posts/slug/{slug}", ""),
    ("api_key", "/api/v1/posts/category/news", "/api/v1/posts/category/{slug}", ""),
    ("api_key", "/api/v1/posts/tag/python", "/api/v1/posts/tag/{slug}", "limit=1"),
    ("api_key", "/api/v1/categories", "/api/v1/categories", ""),
    ("api_key", "/api/v1/tags", "/api/v1/tags", ""),
    ("api_key", "/api/v1/redirects", "/api/v1/redirects", ""),
    ("api_key", "/api/v1/settings", "/api/v1/settings", ""),
]


@pytest.mark.parametrize("key_field,path,template,query", SUCCESSES)
def test_every_reply_has_the_documented_shape(document, wsgi_app, tenant, content, key_field, path, template, query):
    key = getattr(tenant, key_field)
    for app in (wsgi_app, WSGIHandler(), wsgi_app):  # the last one: a cache hit of the fast path
        response = wsgi_call(app, tenant, path, key=key, query=query)
        assert response.status_code == 200, response.content
        _validate(document, template, "get", 200, response.json())


def test_the_site_settings_reply_is_documented_with_every_value_set(document, wsgi_app, tenant, content):
    logo = make_media(tenant)
    with schema_context(tenant.schema_name):
        site_settings_update(client=tenant, title="Acme", logo=str(logo.pk), icon="https://cdn.example.com/i.png",
                             accent_color="#00ff00", navigation=[{"label": "Home", "url": "/"}],
                             social={"twitter": "https://x.com/acme"}, meta_title="Acme")
    for app in (wsgi_app, WSGIHandler(), wsgi_app):
        response = wsgi_call(app, tenant, "/api/v1/settings", key=tenant.api_key)
        assert response.status_code == 200, response.content
        assert response.json()["data"]["settings"]["logo"].startswith("http")
        _validate(document, "/api/v1/settings", "get", 200, response.json())


def test_image_objects_are_documented_with_their_addresses(document, wsgi_app, tenant, content):
    body = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/imaged", key=tenant.api_key).json()
    post = body["data"]["post"]
    for name in ("featuredImage", "ogImage", "twitterImage"):
        assert post[name]["link"].startswith("http") and post[name]["cdnUrl"].startswith("http")
    image = document["components"]["schemas"]["FeaturedImageOut"]
    assert set(image["required"]) == {"id", "spacesKey", "altText", "link", "cdnUrl"}


def test_a_reply_with_an_undocumented_key_is_refused(document, wsgi_app, tenant, content):
    """The check is strict: a key the document lacks fails (so the test proves the shape)."""
    body = wsgi_call(wsgi_app, tenant, "/api/v1/posts/slug/imaged", key=tenant.api_key).json()
    body["data"]["post"]["surprise"] = 1
    with pytest.raises(jsonschema.ValidationError):
        _validate(document, "/api/v1/posts/slug/{slug}", "get", 200, body)


ERRORS = [
    ("api_key", "/api/v1/posts", "/api/v1/posts", "limit=101", 400),
    ("api_key", "/api/v1/posts/category/news", "/api/v1/posts/category/{slug}", "page=0", 400),
    (None, "/api/v1/posts", "/api/v1/posts", "", 401),
    ("made-up", "/api/v1/tags", "/api/v1/tags", "", 401),
    ("api_key", "/api/v1/posts", "/api/v1/posts", "status=draft", 403),
    ("api_key", "/api/v1/posts/slug/a-draft", "/api/v1/posts/slug/{slug}", "", 404),
    ("api_key", "/api/v1/posts/tag/no-such-tag", "/api/v1/posts/tag/{slug}", "", 404),
]


@pytest.mark.parametrize("key_field,path,template,query,status", ERRORS)
def test_every_error_has_the_documented_envelope(document, wsgi_app, tenant, content, key_field, path, template,
                                                 query, status):
    key = {None: None, "made-up": "cms_live_made_up", "api_key": tenant.api_key}[key_field]
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key)  # the host is known
    for app in (wsgi_app, WSGIHandler()):
        response = wsgi_call(app, tenant, path, key=key, query=query)
        assert response.status_code == status, response.content
        _validate(document, template, "get", status, response.json())


def test_the_rate_limit_has_the_documented_envelope(document, wsgi_app, tenant, content, settings):
    settings.PUBLIC_API_RATE_LIMIT = 1
    settings.PUBLIC_API_RATE_LIMITS = {}
    for app in (wsgi_app, wsgi_app, WSGIHandler()):
        response = wsgi_call(app, tenant, "/api/v1/categories", key=tenant.api_key)
    assert response.status_code == 429
    _validate(document, "/api/v1/categories", "get", 429, response.json())


def test_tracking_has_the_documented_reply(document, wsgi_app, tenant):
    body = json.dumps({"pageUrl": "https://site.example/blog/hello", "postSlug": "hello"}).encode()
    for app in (wsgi_app, WSGIHandler()):
        response = wsgi_call(app, tenant, "/api/v1/analytics/track", key=tenant.api_key, method="POST", body=body)
        assert response.status_code == 200, response.content
        _validate(document, "/api/v1/analytics/track", "post", 200, response.json())


def test_with_a_cdn_every_image_has_its_cdn_address_in_every_reply(wsgi_app, tenant, content, settings):
    """Issue: a client used `spacesKey` as an address. Every image object carries `link` and
    `cdnUrl` (MEDIA_CDN_BASE_URL + key): dashboard list and get, public list and post on both
    entry points."""
    from apps.core import testing

    settings.MEDIA_CDN_BASE_URL = "https://cdn.example.com"
    settings.PUBLIC_API_CACHE = False

    def check(image):
        assert image["cdnUrl"] == f"https://cdn.example.com/{image['spacesKey']}"
        assert image["link"].startswith("http") and image["link"].endswith(image["spacesKey"])
        assert image["link"] != image["spacesKey"]

    for app in (wsgi_app, WSGIHandler()):
        post = wsgi_call(app, tenant, "/api/v1/posts/slug/imaged", key=tenant.api_key).json()["data"]["post"]
        for name in ("featuredImage", "ogImage", "twitterImage"):
            check(post[name])
        listed = wsgi_call(app, tenant, "/api/v1/posts", key=tenant.api_key).json()["data"]["posts"]
        check(next(p for p in listed if p["slug"] == "imaged")["featuredImage"])
    dashboard = testing.Api(tenant, user=testing.tenant_admin(tenant))
    listed = dashboard.get("/api/posts").json()["posts"]
    imaged = next(p for p in listed if p["slug"] == "imaged")
    check(imaged["featuredImage"])
    full = dashboard.get(f"/api/posts/{imaged['id']}").json()["post"]
    for name in ("featuredImage", "ogImage", "twitterImage"):
        check(full[name])
