"""What the hardening suites (fuzzing, faults) found, each pinned by a plain test."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category
from apps.core.testing import Api, tenant_admin
from apps.core.tests.hardening.helpers import production_wsgi_app, seed_tenant, wsgi_call

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options",
                    "cross-origin-opener-policy")


@pytest.fixture
def seeded(db):
    from apps.core import redis_conn

    redis_conn.reset()
    return seed_tenant()


def test_non_object_json_bodies_are_refused_and_change_nothing(seeded):
    client = Api(seeded.tenant, headers=seeded.bearer())
    path = f"/api/categories/{seeded.ids['category_id']}"
    for body in ('"AAA"', "[]", "[{\"name\": \"Renamed\"}]", "12", "null"):
        response = client.put(path, body, content_type="application/json")
        assert response.status_code == 400, body
        assert response.json() == {"success": False, "message": "Request body must be a JSON object",
                                   "error": "validation_error"}
    broken = client.put(path, "{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["message"] == "Request body is not valid JSON"
    with schema_context(seeded.tenant.schema_name):
        category = Category.objects.get(pk=seeded.ids["category_id"])
        assert category.name.startswith("Category ")
    # An object still works.
    assert client.put(path, {"name": "Renamed", "slug": "renamed"}).status_code == 200


def test_boolean_parameters_get_a_readable_message(seeded):
    client = Api(seeded.tenant, headers=seeded.bearer())
    response = client.post("/api/ai/generate-seo?async=maybe", {"title": "A title"})
    assert response.status_code == 400
    assert response.json()["message"] == "Async must be true or false"
    response = client.post("/api/posts", {"postTitle": "T", "allowIndexing": "perhaps"})
    assert response.status_code == 400
    assert {"field": "allowIndexing", "message": "Allow indexing must be true or false"} in response.json()["errors"]


def test_public_api_cache_hits_and_304s_carry_the_security_headers(seeded):
    """Cache hits are answered by the fast path in front of Django (no middleware): they must
    carry the same security headers as Django's own replies, 304s included."""
    app = production_wsgi_app()
    key = {"x-api-key": seeded.api_key}
    miss = wsgi_call(app, seeded.host, "GET", "/api/v1/posts", headers=key)
    hit = wsgi_call(app, seeded.host, "GET", "/api/v1/posts", headers=key)
    assert (miss.status_code, miss.headers["x-cache"]) == (200, "MISS")
    assert (hit.status_code, hit.headers["x-cache"]) == (200, "HIT")
    fast_304 = wsgi_call(app, seeded.host, "GET", "/api/v1/posts", headers={**key, "If-None-Match": hit.headers["etag"]})
    django_304 = wsgi_call(app, seeded.host, "GET", "/api/v1/posts",
                           headers={**key, "If-None-Match": f'"x", {hit.headers["etag"]}'})  # not the fast path's
    assert fast_304.status_code == django_304.status_code == 304
    for response in (hit, fast_304, django_304):
        for name in SECURITY_HEADERS:
            assert response.headers.get(name) == miss.headers[name], (response.status_code, name)
    assert "frame-ancestors 'none'" in hit.headers["content-security-policy"]
    assert hit.headers["x-content-type-options"] == "nosniff"
    assert "set-cookie" not in hit.headers


def test_fast_path_sends_hsts_only_over_https(seeded, settings):
    settings.SECURE_HSTS_SECONDS = 3600
    app = production_wsgi_app()
    key = {"x-api-key": seeded.api_key}
    wsgi_call(app, seeded.host, "GET", "/api/v1/tags", headers=key)
    plain = wsgi_call(app, seeded.host, "GET", "/api/v1/tags", headers=key)
    assert plain.headers["x-cache"] == "HIT" and "strict-transport-security" not in plain.headers
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    secure = wsgi_call(app, seeded.host, "GET", "/api/v1/tags", headers={**key, "X-Forwarded-Proto": "https"})
    assert secure.headers["x-cache"] == "HIT"
    assert secure.headers["strict-transport-security"] == "max-age=3600; includeSubDomains"


NUL_REPLY = {"success": False, "message": "Text must not contain NUL characters", "error": "validation_error"}


def test_nul_characters_are_refused_wherever_they_come_in(seeded):
    """PostgreSQL text cannot hold U+0000: these were 500s (a DataError in the query or insert).
    Refused after the credentials check (apps.core.api.Api), so a caller without them still gets
    401 first."""
    from django.test.client import MULTIPART_CONTENT

    from apps.ai.models import GenerationJob

    client = Api(seeded.tenant, headers=seeded.bearer())
    site = Api(seeded.tenant, headers={"x-api-key": seeded.api_key})
    reads = [
        (client, "/api/posts?search=a%00b"), (client, "/api/search?q=ab%00c"), (client, "/api/tags?search=a%00"),
        (client, "/api/media?search=%00"), (client, "/api/posts/slug/a%00b"), (client, "/api/posts?%00=1"),
        (site, "/api/v1/posts?search=a%00b"), (site, "/api/v1/posts/slug/a%00"),
        (site, "/api/v1/posts/category/a%00"), (site, "/api/v1/posts/tag/%00"),
    ]
    for who, path in reads:
        response = who.get(path)
        assert (response.status_code, response.json()) == (400, NUL_REPLY), path
    writes = [
        ("/api/categories/add", {"name": "a\x00b", "slug": "ab"}),
        ("/api/ai/generate-blog", {"inputContent": "Ten or more characters \x00 here"}),
        ("/api/analytics/track", {"pageUrl": "https://example.com/a\x00"}),
    ]
    for path, body in writes:
        response = client.post(path, body)
        assert (response.status_code, response.json()) == (400, NUL_REPLY), path
    response = client.put(f"/api/users/{seeded.ids['user_id']}",
                          {"username": "ab\x00c", "email": "x@example.com", "role": "viewer", "status": "active"})
    assert response.status_code == 400
    upload = client.post("/api/media/upload", {"fileName": "a\x00.png", "altText": "x"}, content_type=MULTIPART_CONTENT)
    assert (upload.status_code, upload.json()) == (400, NUL_REPLY)
    with schema_context(seeded.tenant.schema_name):
        assert not Category.objects.filter(slug="ab").exists()
        assert GenerationJob.objects.count() == 1  # the seeded one
    # Credentials are checked first: without them (or with another company's), 401 as usual.
    anonymous = Api(seeded.tenant)
    assert anonymous.get("/api/posts?search=a%00b").status_code == 401
    assert anonymous.post("/api/categories/add", {"name": "a\x00b", "slug": "ab"}).status_code == 401
    assert Api(seeded.tenant, headers={"x-api-key": "wrong"}).get("/api/v1/posts?search=%00").status_code == 401
    # A backslash followed by "u0000" is ordinary text, and so are other control characters.
    fine = client.post("/api/categories/add", {"name": "Back\\u0000slash", "slug": "back-slash"})
    assert fine.status_code == 201 and fine.json()["category"]["name"] == "Back\\u0000slash"


def test_a_password_of_another_type_is_refused_not_ignored(seeded):
    client = Api(seeded.tenant, headers=seeded.bearer())
    path = f"/api/users/{seeded.ids['user_id']}"
    for password in (0, False, [], {}):
        response = client.put(path, {"password": password})
        assert response.status_code == 400, password
        assert response.json()["errors"] == [{"field": "password", "message": "Password must be at least 8 characters"}]
    assert client.put(path, {"password": ""}).status_code == 200  # blank keeps the current one, as documented


def test_media_alt_text_null_is_documented_and_clears_it(seeded):
    client = Api(seeded.tenant, headers=seeded.bearer())
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]["MediaUpdateIn"]
    assert {"type": "null"} in schema["properties"]["altText"]["anyOf"]
    response = client.put(f"/api/media/{seeded.ids['media_id']}", {"altText": None})
    assert response.status_code == 200 and response.json()["media"]["altText"] == ""


def test_media_references_are_documented_as_an_id_or_the_media_object(seeded):
    """Posts accept a media reference as its id or as the {id, ...} object the API returns; the
    OpenAPI document said "string" only."""
    client = Api(seeded.tenant, headers=seeded.bearer())
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    for schema, field in (("PostCreateIn", "featuredMediaId"), ("PostUpdateIn", "featuredImage"),
                          ("PostUpdateIn", "twitterImageId"), ("PostCreateIn", "ogImageId")):
        prop = schemas[schema]["properties"][field]
        kinds = {option.get("type") for option in prop.get("anyOf", [prop])}
        assert {"string", "object"} <= kinds, (schema, field, prop)
    response = client.put(f"/api/posts/{seeded.ids['post_id']}", {"featuredImage": {"id": seeded.ids["media_id"]}})
    assert response.status_code == 200
    assert response.json()["post"]["featuredImage"]["id"] == seeded.ids["media_id"]


@pytest.mark.django_db(transaction=True)
def test_upload_succeeds_and_keeps_its_file_when_the_broker_is_down(make_tenant, settings, tmp_path, monkeypatch):
    """Found by test_faults (Redis stopped): enqueueing the renditions failed after the commit and
    Django's robust on_commit could not log it (a functools.partial has no __qualname__), so the
    request answered 500, the row stayed and its file was deleted."""
    import kombu.exceptions

    from apps.media import tasks
    from apps.media.models import Media
    from apps.media.tests.conftest import make_image, upload

    settings.MEDIA_ROOT = tmp_path
    tenant = make_tenant()

    def broker_down(*args, **kwargs):
        raise kombu.exceptions.OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.media_make_renditions, "delay", broker_down)
    response = upload(Api(tenant, user=tenant_admin(tenant)), make_image())
    assert response.status_code == 201, response.content
    with schema_context(tenant.schema_name):
        media = Media.objects.get()
    assert (tmp_path / media.storage_key).is_file()
    assert media.renditions == {}  # made later by the media_renditions command or a re-upload


DB_DOWN = {"success": False, "message": "Service temporarily unavailable. Please try again shortly",
           "error": "unavailable"}


def test_database_unreachable_is_503_with_retry_after_not_500(seeded, monkeypatch):
    """Found by test_faults (PostgreSQL stopped): every API call answered 500."""
    from django.db import OperationalError

    from apps.content import selectors
    from tenants import middleware

    client = Api(seeded.tenant, headers=seeded.bearer())
    client.http.raise_request_exception = False  # answer as a server does

    def unreachable(*args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')

    with monkeypatch.context() as patch:  # inside a handler
        patch.setattr(selectors, "post_list", unreachable)
        response = client.get("/api/posts")
    assert (response.status_code, response.json(), response["Retry-After"]) == (503, DB_DOWN, "5")

    with monkeypatch.context() as patch:  # before any handler: the host -> company lookup
        patch.setattr(middleware.db, "fetch_prepared", unreachable)
        response = client.get("/api/posts")
        assert (response.status_code, response.json(), response["Retry-After"]) == (503, DB_DOWN, "5")
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
        page = client.get("/dashboard")
        assert (page.status_code, page["Retry-After"]) == (503, "5")
    assert client.get("/api/posts").status_code == 200


def test_a_huge_page_number_is_refused_not_a_500(seeded):
    """Found by `make fuzz`: page=16389192737227918278209373867081728 overflowed the SQL offset."""
    site = Api(seeded.tenant, headers={"x-api-key": seeded.api_key})
    client = Api(seeded.tenant, headers=seeded.bearer())
    huge = "16389192737227918278209373867081728"
    for who, path in ((site, "/api/v1/posts"), (site, f"/api/v1/posts/tag/{seeded.ids['tag_slug']}"),
                      (client, "/api/posts"), (client, "/api/tags"), (client, "/api/media")):
        for page in (huge, "1000001"):
            response = who.get(f"{path}?page={page}")
            assert response.status_code == 400, (path, response.content)
            assert response.json()["message"] == "Page must be at most 1000000"
    far = site.get("/api/v1/posts?page=1000000").json()
    assert far["data"]["posts"] == [] and far["data"]["pagination"]["currentPage"] == 1000000


def test_a_query_parameter_given_twice_is_refused(seeded):
    """Found by `make fuzz`: ?search=a&search=b silently used the last value."""
    client = Api(seeded.tenant, headers=seeded.bearer())
    response = client.get("/api/tags?search=a&search=b")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "search", "message": "Search must be given once"}]
    assert client.get("/api/tags?search=a&page=1").status_code == 200


def test_seo_generation_fields_documented_as_nullable(seeded, settings):
    """Found by `make fuzz`: null was accepted (read as empty) where the document said string."""
    settings.AI_WAIT_SECONDS = 0
    client = Api(seeded.tenant, headers=seeded.bearer())
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    for schema, field in (("SeoGenerateIn", "content"), ("SeoGenerateIn", "excerpt"), ("BlogGenerateIn", "tone")):
        assert {"type": "null"} in schemas[schema]["properties"][field]["anyOf"], (schema, field)
    response = client.post("/api/ai/generate-seo?async=true", {"title": "A title", "content": None, "excerpt": None})
    assert response.status_code == 202


def test_the_production_image_serves_the_public_api_fast_path():
    """The image ran `gunicorn config.wsgi`: cache hits went through all of Django (the fast path,
    which the public API's throughput targets rely on, was never deployed)."""
    from pathlib import Path

    entrypoint = (Path(__file__).resolve().parents[4] / "deploy" / "docker" / "entrypoint.sh").read_text()
    web = entrypoint.split("web)", 1)[1].split(";;", 1)[0]
    assert "gunicorn apps.public_api.wsgi:application " in web


def test_tracking_on_the_fast_path_refuses_nul_characters(seeded):
    """The fast path validates page views itself (no Django middleware): a NUL went into the
    company's stream, where the flush to PostgreSQL would fail on it."""
    from apps.analytics import buffer
    from apps.core import redis_conn

    app = production_wsgi_app()
    key = {"x-api-key": seeded.api_key}
    stream = buffer.stream_key(seeded.tenant.schema_name)
    assert wsgi_call(app, seeded.host, "GET", "/api/v1/tags", headers=key).status_code == 200  # host map
    fine = wsgi_call(app, seeded.host, "POST", "/api/v1/analytics/track", headers=key,
                     body=b'{"pageUrl": "https://example.com/ok"}')
    assert fine.status_code == 200 and redis_conn.client().xlen(stream) == 1
    for body in (b'{"pageUrl": "https://example.com/a\\u0000b"}', b'{"pageUrl": "https://x.com", "postSlug": "\\u0000"}',
                 b'{"pageUrl": "https://x.com", "other\\u0000": 1}'):  # unknown keys too, as Django
        response = wsgi_call(app, seeded.host, "POST", "/api/v1/analytics/track", headers=key, body=body)
        assert (response.status_code, response.json()) == (400, NUL_REPLY), body
    assert redis_conn.client().xlen(stream) == 1  # only the fine one


def test_malformed_multipart_and_oversized_bodies_are_client_errors(seeded, settings):
    """Found by the fuzzer: multipart/form-data without a boundary was a 500 inside the APIs."""
    client = Api(seeded.tenant, headers=seeded.bearer())
    for path in ("/api/auth/login", "/api/media/upload", "/api/categories/add"):
        response = client.post(path, '{"email": ""}', content_type="multipart/form-data")
        assert response.status_code == 400, (path, response.content)
        assert response.json()["message"] == "Request body is not valid multipart form data"
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    big = client.post("/api/categories/add", {"name": "x" * 200, "slug": "big"})
    assert (big.status_code, big.json()["error"]) == (413, "payload_too_large")


def test_allow_indexing_takes_json_booleans_only(seeded):
    """Found by `make fuzz`: allowIndexing 0.0 (or "no") was read as false."""
    client = Api(seeded.tenant, headers=seeded.bearer())
    path = f"/api/posts/{seeded.ids['post_id']}"
    for value in (0.0, 0, "no", "false", 1):
        response = client.put(path, {"allowIndexing": value})
        assert response.status_code == 400, value
        assert response.json()["errors"] == [{"field": "allowIndexing",
                                              "message": "Allow indexing must be true or false"}]
    assert client.get(path).json()["post"]["allowIndexing"] is True
    response = client.put(path, {"allowIndexing": False})
    assert response.status_code == 200 and response.json()["post"]["allowIndexing"] is False


def test_publish_dates_with_any_offset_are_stored_in_utc(seeded):
    """Found by `make fuzz`: an offset beyond PostgreSQL's ±15:59 (here -16:30) was a 500."""
    client = Api(seeded.tenant, headers=seeded.bearer())
    path = f"/api/posts/{seeded.ids['post_id']}"
    response = client.put(path, {"scheduledPublishDate": "2035-04-09T11:11:09-16:30"})
    assert response.status_code == 200, response.content
    assert response.json()["post"]["scheduledPublishDate"].startswith("2035-04-10T03:41:09")
    for value in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"):
        response = client.put(path, {"scheduledPublishDate": value})
        assert response.status_code == 400, (value, response.content)
        assert response.json()["errors"][0]["field"] == "scheduledPublishDate"
