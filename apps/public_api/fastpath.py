"""A WSGI layer in front of Django that answers cache hits of the public content API.

For `GET /api/v1/...` with an x-api-key header it makes one Redis round trip (a Lua script:
host -> company and key hashes, the company's content version, the cached reply and, on a hit,
one entry of the key's rate limit) and, when the key is right and the reply is cached, returns
the stored bytes (or 304 when If-None-Match matches) without entering Django: no
request object, no middleware, no database. Everything else (misses, wrong or missing keys,
other methods, an unknown host, Redis down) goes to Django unchanged, which answers exactly as
it would without this layer. Replies carry the same headers as Django's (apps.public_api.responses).

Serve `apps.public_api.wsgi:application` (Django wrapped in this layer) to get it.
"""
from __future__ import annotations

import uuid

import redis
from django.conf import settings

from apps.analytics import redis_conn
from apps.core.security import api_security_headers, environ_is_secure
from apps.public_api import cache, keys
from apps.public_api.responses import cache_headers, encode, etag_matches

PREFIX = "/api/v1/"


def _host(environ) -> str:
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or ""
    return host.split(":", 1)[0].lower().rstrip(".")


def _single_etag(if_none_match: str) -> str:
    """The one strong ETag of a simple If-None-Match (checked inside Redis), else ""."""
    value = if_none_match.strip()
    if value.startswith('"') and value.endswith('"') and "," not in value:
        return value
    return ""


class PublicApiFastPath:
    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        key = environ.get("HTTP_X_API_KEY")
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or not path.startswith(PREFIX)
            or not key
            or not settings.PUBLIC_API_CACHE
            or not redis_conn.available()
        ):
            return self.app(environ, start_response)
        host = _host(environ)
        if_none_match = environ.get("HTTP_IF_NONE_MATCH", "")
        key_hash = keys.key_hash(key)
        try:
            found = cache.fast_lookup(
                host=host, key_hash=key_hash, qhash=cache.query_hash(path, environ.get("QUERY_STRING", "")),
                if_none_match=_single_etag(if_none_match),
            )
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached and unthrottled")
            return self.app(environ, start_response)
        code = found[0]
        if code < 2:  # unknown host or key, or not cached: Django decides
            return self.app(environ, start_response)

        extra = self._extra_headers(environ)
        if code == 4:
            body = encode({"success": False, "message": keys.RATE_LIMITED, "error": "rate_limited"})
            limit = int(found[1])
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                       ("Retry-After", str(keys.retry_after(key_hash, limit))), *extra]
            start_response("429 Too Many Requests", headers)
            return [body]

        etag = found[1].decode()
        headers = [(name, value + ", origin" if name == "Vary" else value)
                   for name, value in cache_headers(etag, "HIT")]
        if code == 3 or etag_matches(if_none_match, etag):
            start_response("304 Not Modified", [*headers, *extra])
            return []
        body = found[2]
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                  *headers, *extra])
        return [body]

    @staticmethod
    def _extra_headers(environ) -> list[tuple[str, str]]:
        incoming = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = incoming[:64] if incoming and incoming.isprintable() else uuid.uuid4().hex
        # The security headers Django's middleware would add (this reply bypasses it).
        headers = [("X-Request-ID", request_id), *api_security_headers(secure=environ_is_secure(environ))]
        if environ.get("HTTP_ORIGIN"):  # as django-cors-headers answers (CORS_ALLOW_ALL_ORIGINS)
            headers.append(("Access-Control-Allow-Origin", "*"))
            if settings.CORS_EXPOSE_HEADERS:
                headers.append(("Access-Control-Expose-Headers", ", ".join(settings.CORS_EXPOSE_HEADERS)))
        return headers
