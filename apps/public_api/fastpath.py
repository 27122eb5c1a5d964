"""A WSGI layer in front of Django that answers cache hits of the public content API.

For `GET /api/v1/...` with an x-api-key header it makes one Redis round trip (a Lua script:
host -> company and key hashes, the company's content version, the cached reply and, on a hit,
one entry of the key's rate limit) and, when the key is right and the reply is cached, returns
the stored bytes (or 304 when If-None-Match matches) without entering Django: no
request object, no middleware, no database. A posts list that is not cached (or with the cache
off) is built here too, from the same round trip and the page's one SQL statement
(apps.public_api.direct). Everything else (other misses, wrong or missing keys, other methods,
an unknown host, Redis down, a request with a member token: X-Member-Token) goes to Django
unchanged, which answers exactly as it would without this layer. `POST /api/v1/analytics/track`
is answered here too: the body is validated with the endpoint's own schema and the event
appended to the company's stream in the same round trip that checks the key (anything invalid
goes to Django, which answers the 400).
Replies carry the same headers as Django's. This module only translates: the WSGI environ into
the plain `core.Ask`, and the core's `Reply` (or `Pass`: Django decides) back into WSGI; the
decisions are apps.public_api.core's, the same the ninja routes follow.

Each worker keeps the bodies it served last in memory (PUBLIC_API_LOCAL_CACHE_BYTES, each
once, by its ETag, which is a hash of the body): when Redis says the current reply has the ETag of the copy
held, the body does not cross the wire again. Settings read per request are read once and again
after any change (Django's setting_changed signal).

Serve `apps.public_api.wsgi:application` (Django wrapped in this layer) to get it.
"""
from __future__ import annotations

import io
import logging
from types import SimpleNamespace

import redis
from django.http.request import HttpHeaders
from django.utils import timezone

from apps.analytics import services
from apps.analytics.tracking import TrackIn, track_fields
from apps.core import redis_conn
from apps.core.security import environ_is_secure
from apps.core.validation import json_has_nul
from apps.ghost_api import direct as ghost_direct
from apps.ghost_api import edge as ghost_edge
from apps.public_api import cache, core, direct, keys
from apps.public_api import request as public_request
from apps.public_api.cache import Code
from apps.public_api.core import Bodies as _Bodies  # noqa: F401 (the worker's copies of replies)
from apps.public_api.encoding import accepts_gzip

logger = logging.getLogger(__name__)

TRACK_PATH = "/api/v1/analytics/track"
MAX_TRACK_BODY = 64 * 1024
TRACKED = b'{"success": true}'  # what Django's endpoint answers
_schemas: dict[str, str] = {}  # host -> schema, learnt from the host map (checked on every call)


def _host(environ) -> str:
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or ""
    return host.split(":", 1)[0].lower().rstrip(".")


def _track_headers(setup: core.Setup) -> list[tuple[str, str]]:
    return [("Content-Type", "application/json; charset=utf-8"), ("Content-Length", str(len(TRACKED))),
            *setup.error_vary]


class PublicApiFastPath:
    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        ghost = path.startswith(ghost_edge.PREFIX)  # Ghost-compatible routes: cache hits only, key in the query
        method = environ.get("REQUEST_METHOD")
        if method == "POST" and not ghost:
            key = environ.get("HTTP_X_API_KEY")
            if key and path.rstrip("/") == TRACK_PATH and redis_conn.available():
                setup = core.current()
                if setup.enabled and setup.edge.answers(environ.get("HTTP_ORIGIN")):
                    return self._track(environ, start_response, key, setup)
            return self.app(environ, start_response)
        if method != "GET" or environ.get(public_request.MEMBER_ENVIRON):
            # A request with a member token (docs/content.md#members-only-posts): Django checks it and
            # answers a member from no cache; this layer never serves nor stores such a request's reply.
            return self.app(environ, start_response)
        query = environ.get("QUERY_STRING", "")
        ask = core.Ask(host=_host(environ), path=path, query=query,
                       key=ghost_edge.query_key(query) if ghost else environ.get("HTTP_X_API_KEY"),
                       if_none_match=environ.get("HTTP_IF_NONE_MATCH", ""), ghost=ghost,
                       secure=environ_is_secure(environ), origin=environ.get("HTTP_ORIGIN") or None,
                       request_id=environ.get("HTTP_X_REQUEST_ID", ""),
                       accept_version=environ.get("HTTP_ACCEPT_VERSION"),
                       gzip=accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING")))
        reply = core.answer(ask, ghost_direct if ghost else direct)
        if isinstance(reply, core.Pass):
            if reply.counted:
                environ[keys.COUNTED] = "1"
            if reply.host_unknown:
                environ[keys.HOST_UNKNOWN] = "1"
            return self.app(environ, start_response)
        start_response(reply.status_line, reply.headers)
        return [reply.body] if reply.status != 304 else []

    def _track(self, environ, start_response, key: str, setup: core.Setup):
        """A page view from a website: validated with the same schema as Django's endpoint,
        appended to the company's stream in one round trip that also checks the key."""
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_TRACK_BODY or "json" not in environ.get("CONTENT_TYPE", ""):
            return self.app(environ, start_response)
        body = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)  # Django reads it again if this layer steps aside
        if json_has_nul(body):  # Django answers the 400 (after the key check), as for any other caller
            return self.app(environ, start_response)
        try:
            payload = TrackIn.model_validate_json(body)
        except ValueError:  # pydantic's ValidationError included: Django answers the 400
            return self.app(environ, start_response)
        host = _host(environ)
        request = SimpleNamespace(META=environ, headers=HttpHeaders(environ))
        event_args = {**track_fields(request, payload), "now": timezone.now()}
        key_hash = keys.key_hash(key)
        schema = _schemas.get(host, "-")
        try:
            found = cache.Found(Code.UNKNOWN)
            for _ in range(2):  # a second time only to learn the host's schema
                fields = services.pageview_event(**event_args, schema=schema)
                found = cache.fast_track(host=host, key_hash=key_hash, schema=schema, fields=fields)
                if found.code != Code.OTHER_SCHEMA:
                    break
                schema = _schemas[host] = found.schema
        except redis.RedisError as exc:
            redis_conn.failed(exc, "page views are written straight to PostgreSQL")
            return self.app(environ, start_response)
        if found.code != Code.APPENDED:  # unknown host or key: Django decides
            return self.app(environ, start_response)
        start_response("200 OK", [*_track_headers(setup), *setup.edge.of(
            request_id=environ.get("HTTP_X_REQUEST_ID", ""), secure=environ_is_secure(environ),
            origin=environ.get("HTTP_ORIGIN") or None)])
        return [TRACKED]
