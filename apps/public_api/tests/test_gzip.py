"""A client that accepts gzip (every browser, Node's fetch, Ghost's own client, Python's requests)
gets the public reads compressed, as Ghost's own server sends them: the same JSON, a weak form of
the same ETag, and the same 304s; a client that does not gets the bytes it always got. Both
entry points (the WSGI layer's hits and builds, Django's routes) answer alike."""
from __future__ import annotations

import gzip
import json

import pytest

from apps.public_api import cache, encoding
from apps.public_api.encoding import accepts_gzip
from apps.core.testing import Api
from apps.public_api.tests.conftest import lookup_codes, wsgi_app, wsgi_call  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize(("header", "accepted"), [
    ("gzip", True), ("GZIP", True), ("x-gzip", True), ("br, gzip;q=0.5", True), ("gzip, deflate, br, zstd", True),
    ("*", True), ("br, *;q=0.1", True), (None, False), ("", False), ("identity", False), ("br", False),
    ("deflate, br", False), ("gzip;q=0", False), ("gzip;q=0.000", False), ("*;q=0", False), ("gzip;q=0, *", False),
    ("gzip;q=nonsense", False), ("gzip ; q=1.0", True),
])
def test_accept_encoding_is_read_as_http_defines_it(header, accepted):
    assert accepts_gzip(header) is accepted


@pytest.fixture
def content(tenant):
    from apps.content.tests.factories import make_post

    for n in range(5):
        make_post(tenant, f"Post {n}", slug=f"post-{n}", status="published", content="<p>" + "words " * 400 + "</p>")


def _get(app, tenant, headers=None):
    return wsgi_call(app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=5", headers=headers)


def _django(tenant, **headers):
    """Django's routes (no WSGI layer in front), as a client sending `headers`."""
    return Api(tenant, headers={"x-api-key": tenant.api_key, **headers})


def test_a_gzip_client_gets_the_same_json_compressed_from_both_entry_points(wsgi_app, tenant, content,  # noqa: F811
                                                                            lookup_codes, settings):
    settings.PUBLIC_API_LEASE_MS = 0
    plain_miss = _get(wsgi_app, tenant)  # Django builds it
    assert plain_miss.headers.get("content-encoding") is None
    etag = plain_miss.headers["etag"]
    assert not etag.startswith("W/")
    replies = [_get(wsgi_app, tenant, GZIP), _get(wsgi_app, tenant, GZIP)]  # the WSGI layer's hits
    django = _django(tenant, **GZIP).get("/api/v1/posts?limit=5")
    assert lookup_codes[-2:] == [2, 6]  # hits before Django
    for reply in replies:
        assert reply.status_code == 200 and reply.headers["content-encoding"] == "gzip"
        assert gzip.decompress(reply.content) == plain_miss.content
        assert reply.headers["content-length"] == str(len(reply.content)) and len(reply.content) < len(
            plain_miss.content) / 3
        assert reply.headers["etag"] == f"W/{etag}"
        assert "Accept-Encoding" in reply.headers["vary"] and "x-api-key" in reply.headers["vary"]
    assert django.status_code == 200 and django["Content-Encoding"] == "gzip"
    assert django.content == replies[0].content and django["ETag"] == f"W/{etag}"
    # The client without gzip still gets the plain bytes, and the same Vary says why.
    plain_hit = _get(wsgi_app, tenant)
    assert plain_hit.content == plain_miss.content and plain_hit.headers.get("content-encoding") is None
    assert plain_hit.headers["etag"] == etag and "Accept-Encoding" in plain_hit.headers["vary"]


def test_either_form_of_the_etag_gets_a_304_in_the_form_the_client_is_sent(wsgi_app, tenant, content,  # noqa: F811
                                                                           lookup_codes, settings):
    etag = _get(wsgi_app, tenant).headers["etag"]
    for lease_ms in (0, 10_000):  # a round trip each time, then a lease's answers
        settings.PUBLIC_API_LEASE_MS = lease_ms
        for sent in (etag, f"W/{etag}"):
            lookup_codes.clear()
            zipped = _get(wsgi_app, tenant, {**GZIP, "If-None-Match": sent})
            assert zipped.status_code == 304 and zipped.content == b"" and zipped.headers["etag"] == f"W/{etag}"
            plain = _get(wsgi_app, tenant, {"If-None-Match": sent})
            assert plain.status_code == 304 and plain.headers["etag"] == etag
            if not lease_ms:  # either form is answered inside Redis, without the body
                assert lookup_codes == [3, 3]
        changed = _get(wsgi_app, tenant, {**GZIP, "If-None-Match": 'W/"0123"'})
        assert changed.status_code == 200 and changed.headers["content-encoding"] == "gzip"
    django = _django(tenant, **GZIP, **{"If-None-Match": f"W/{etag}"}).get("/api/v1/posts?limit=5")
    assert django.status_code == 304 and django["ETag"] == f"W/{etag}"


def test_a_reply_sent_again_is_not_compressed_again(wsgi_app, tenant, content, monkeypatch, settings):  # noqa: F811
    settings.PUBLIC_API_LEASE_MS = 0
    calls = []
    real = encoding.gzipped
    monkeypatch.setattr(encoding, "gzipped", lambda body: calls.append(len(body)) or real(body))
    bodies = {gzip.decompress(_get(wsgi_app, tenant, GZIP).content) for _ in range(4)}
    assert len(bodies) == 1 and len(calls) == 1
    # Another page is another body: compressed once too.
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=2", headers=GZIP)
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=2", headers=GZIP)
    assert len(calls) == 2


def test_the_reply_cache_off_and_errors(wsgi_app, tenant, other_tenant, content, settings):  # noqa: F811
    settings.PUBLIC_API_CACHE = False  # the WSGI layer builds every list
    plain, zipped = _get(wsgi_app, tenant), _get(wsgi_app, tenant, GZIP)
    assert gzip.decompress(zipped.content) == plain.content and zipped.headers["etag"] == f"W/{plain.headers['etag']}"
    # A post read through Django's route, the cache off.
    post = _django(tenant, **GZIP).get("/api/v1/posts/slug/post-1")
    assert post.status_code == 200 and post["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(post.content))["data"]["post"]["slug"] == "post-1"
    # Errors are sent as they are: a wrong key, another company's key.
    for key in ("wrong", other_tenant.api_key):
        denied = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=key, headers=GZIP)
        assert denied.status_code == 401 and denied.headers.get("content-encoding") is None
        assert denied.json()["success"] is False


def test_the_reply_cache_keeps_the_gzip_and_every_client_reads_its_own_form(wsgi_app, tenant, content,  # noqa: F811
                                                                            lookup_codes, settings):
    """The cache keeps a reply's gzip (a fifth of its bytes here): a worker that has not seen the
    reply unzips it once for a client that does not ask for gzip, and sends it as it is to one
    that does; an entry that holds plain JSON is read as it is."""
    from apps.core import redis_conn

    settings.PUBLIC_API_LEASE_MS = 0
    miss = _get(wsgi_app, tenant)  # Django builds and stores it
    etag = miss.headers["etag"]
    client = redis_conn.client()
    [entry] = [key for key in client.scan_iter(f"{cache._response_prefix()}{tenant.schema_name}:*")]
    stored = client.hget(entry, "b")
    assert stored[:2] == b"\x1f\x8b" and gzip.decompress(stored) == miss.content
    assert len(stored) < len(miss.content) / 3
    for headers, decode in ((None, lambda body: body), (GZIP, gzip.decompress)):
        encoding._gzips = None  # another worker: none of the reply's forms held
        core_setup_reset()
        hit = _get(wsgi_app, tenant, headers)
        assert lookup_codes[-1] == 2 and decode(hit.content) == miss.content  # the body crossed from Redis
        assert hit.headers["etag"] in (etag, f"W/{etag}")
    django = _django(tenant).get("/api/v1/posts?limit=5")  # Django's path reads the gzip entry too
    assert django.content == miss.content and django["X-Cache"] == "HIT"
    # An entry that holds plain JSON is read as it is.
    client.hset(entry, "b", miss.content)
    core_setup_reset()
    plain, zipped = _get(wsgi_app, tenant), _get(wsgi_app, tenant, GZIP)
    assert plain.content == miss.content and gzip.decompress(zipped.content) == miss.content
    assert _django(tenant).get("/api/v1/posts?limit=5").content == miss.content


def core_setup_reset():
    from apps.public_api import core

    core._forget_setup()  # a new worker copy (core.Bodies) and leases
