"""A WSGI layer in front of Django that answers cache hits of the public content API.

For `GET /api/v1/...` with an x-api-key header it makes one Redis round trip (a Lua script:
host -> company and key hashes, the company's content version, the cached reply and, on a hit,
one entry of the key's rate limit) and, when the key is right and the reply is cached, returns
the stored bytes (or 304 when If-None-Match matches) without entering Django: no
request object, no middleware, no database. A posts list that is not cached (or with the cache
off) is built here too, from the same round trip and the page's one SQL statement
(apps.public_api.direct). Everything else (other misses, wrong or missing keys, other methods,
an unknown host, Redis down) goes to Django unchanged, which answers exactly as it would
without this layer. `POST /api/v1/analytics/track` is answered here too: the body is
validated with the endpoint's own schema and the event appended to the company's stream in the
same round trip that checks the key (anything invalid goes to Django, which answers the 400).
Replies carry the same headers as Django's (apps.public_api.responses).

Each worker keeps the bodies it served last in memory (PUBLIC_API_LOCAL_CACHE_BYTES, each
once, by its ETag, which is a hash of the body): when Redis says the current reply has the ETag of the copy
held, the body does not cross the wire again. Settings read per request are read once and again
after any change (Django's setting_changed signal).

Serve `apps.public_api.wsgi:application` (Django wrapped in this layer) to get it.
"""
from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from types import SimpleNamespace

import redis
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection
from django.http.request import HttpHeaders
from django.utils import timezone

from apps.core import redis_conn
from apps.analytics import services
from apps.analytics.api import track_fields
from apps.analytics.schemas import TrackIn
from apps.core.validation import json_has_nul
from apps.public_api import cache, direct, keys
from apps.public_api import request as public
from apps.public_api.cache import Code
from apps.core.api import envelope
from apps.ghost_api import direct as ghost_direct
from apps.ghost_api import edge as ghost_edge
from apps.public_api.responses import HOST_UNKNOWN, etag_matches

logger = logging.getLogger(__name__)

TRACK_PATH = "/api/v1/analytics/track"
MAX_TRACK_BODY = 64 * 1024
TRACKED = b'{"success": true}'  # what Django's endpoint answers
_schemas: dict[str, str] = {}  # host -> schema, learnt from the host map (checked on every call)


def _host(environ) -> str:
    host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or ""
    return host.split(":", 1)[0].lower().rstrip(".")


def _single_etag(if_none_match: str) -> str:
    """The one strong ETag of a simple If-None-Match (checked inside Redis), else ""."""
    value = if_none_match.strip()
    if value.startswith('"') and value.endswith('"') and "," not in value:
        return value
    return ""


class _Setup:
    """What the fast path reads from settings, read once (and again after a settings change)."""

    def __init__(self) -> None:
        self.enabled = settings.PUBLIC_API_CACHE
        self.edge = public.EdgeHeaders()
        # The reply headers after the ETag (Vary as django-cors-headers extends it).
        self.cache_headers = self.edge.with_vary(public.reply_headers("", "HIT")[1:])
        self.miss_headers = self.edge.with_vary(public.reply_headers("", "MISS")[1:])
        # A cached reply of the Ghost-compatible routes: Vary names Accept-Version too (apps.ghost_api.views).
        self.ghost_cache_headers = self.edge.with_vary(ghost_edge.with_vary(public.reply_headers("", "HIT")[1:]))
        self.ghost_miss_headers = self.edge.with_vary(ghost_edge.with_vary(public.reply_headers("", "MISS")[1:]))
        self.bodies = _Bodies(settings.PUBLIC_API_LOCAL_CACHE_BYTES)
        # The 429 as Django's error handler writes it (apps.core.api.envelope), byte for byte.
        self.rate_limited = envelope(429, keys.RATE_LIMITED).content
        self.error_vary = [("Vary", self.edge.vary)] if self.edge.vary else []
        self.track_headers = [("Content-Type", "application/json; charset=utf-8"), ("Content-Length", str(len(TRACKED))),
                              *self.error_vary]


class _Bodies:
    """The replies this worker served last: per slot (host, key hash, query hash) the ETag of its
    reply, and each reply's body once, by its ETag (a hash of the body: queries answered with the
    same bytes, such as `?page=1` and no query, or the same list read with either key, share one
    copy). The least recently used slots are dropped first once the bodies and the slots (each
    counted as SLOT_BYTES) hold more than `budget` bytes; a body goes with the last slot that
    names it."""

    SLOT_BYTES = 400  # a slot: its key (host, key hash, query hash), ETag and place in the order (measured)

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self.slots: OrderedDict[tuple, bytes] = OrderedDict()
        self.bodies: dict[bytes, list] = {}  # ETag -> [body, how many slots name it]
        self.lock = threading.Lock()

    def etag(self, slot: tuple) -> bytes:
        return self.slots.get(slot, b"")

    def get(self, slot: tuple, etag: bytes) -> bytes | None:
        with self.lock:
            if self.slots.get(slot) != etag:
                return None
            self.slots.move_to_end(slot)
            return self.bodies[etag][0]

    def put(self, slot: tuple, etag: bytes, body: bytes) -> None:
        if len(body) > self.budget // 4:
            return
        with self.lock:
            old = self.slots.pop(slot, None)
            if old is not None:
                self._release(old)
            held = self.bodies.get(etag)
            if held is None:
                held = self.bodies[etag] = [body, 0]
                self.size += len(body)
            held[1] += 1
            self.slots[slot] = etag
            self.size += self.SLOT_BYTES
            while self.size > self.budget:
                _, dropped = self.slots.popitem(last=False)
                self._release(dropped)

    def _release(self, etag: bytes) -> None:
        self.size -= self.SLOT_BYTES
        held = self.bodies[etag]
        held[1] -= 1
        if not held[1]:
            del self.bodies[etag]
            self.size -= len(held[0])


_setup: _Setup | None = None


def _current() -> _Setup:
    global _setup
    if _setup is None:
        _setup = _Setup()
    return _setup


def _forget_setup(**kwargs) -> None:
    global _setup
    _setup = None


setting_changed.connect(_forget_setup)


class PublicApiFastPath:
    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        ghost = path.startswith(ghost_edge.PREFIX)  # Ghost-compatible routes: cache hits only, key in the query
        if ghost:
            key = ghost_edge.query_key(environ.get("QUERY_STRING", ""))
        else:
            key = environ.get("HTTP_X_API_KEY")
            if not path.startswith(public.PREFIX) or public.is_preview(path):
                return self.app(environ, start_response)
        if not key:
            return self.app(environ, start_response)
        setup = _current()
        if not redis_conn.available():
            return self.app(environ, start_response)
        if not setup.edge.answers(environ):  # headers only Django's middleware can make
            return self.app(environ, start_response)
        method = environ.get("REQUEST_METHOD")
        if method == "POST" and setup.enabled and path.rstrip("/") == TRACK_PATH:
            return self._track(environ, start_response, key, setup)
        if method != "GET":
            return self.app(environ, start_response)
        query_string = environ.get("QUERY_STRING", "")
        # A posts list this layer can build on a miss (/api/v1's, or Ghost's posts browse).
        wanted = ghost_direct.listing(path, query_string) if ghost else direct.listing(path, query_string)
        if not setup.enabled and wanted is None:
            return self.app(environ, start_response)
        host = _host(environ)
        if_none_match = environ.get("HTTP_IF_NONE_MATCH", "")
        key_hash = keys.key_hash(key)
        qhash = cache.query_hash(path, query_string)
        slot = (host, key_hash, qhash)
        try:
            found = cache.fast_lookup(
                host=host, key_hash=key_hash, qhash=qhash, if_none_match=_single_etag(if_none_match),
                local_etag=setup.bodies.etag(slot) if setup.enabled else "",
                list_key=(None if wanted is None else "" if ghost else wanted.filter_key),
                needs_preview=bool(wanted and not ghost and wanted.needs_preview), cached=setup.enabled, ghost=ghost)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached and unthrottled")
            return self.app(environ, start_response)
        code = found.code
        if code in (Code.UNKNOWN, Code.MISS):  # Django decides
            if code == Code.UNKNOWN:
                environ[HOST_UNKNOWN] = "1"  # Django records the host if the key passes
            return self.app(environ, start_response)

        extra = setup.edge.of(environ)
        if ghost:
            if code == Code.RATE_LIMITED:  # Django answers Ghost's 429 (the window is still full then)
                return self.app(environ, start_response)
            if environ.get("HTTP_ACCEPT_VERSION") is not None:
                extra = [*extra, ("Content-Version", ghost_edge.CONTENT_VERSION)]
        if code == Code.RATE_LIMITED:
            body = setup.rate_limited
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                       ("Retry-After", str(keys.retry_after(key_hash, found.limit))), *setup.error_vary, *extra]
            start_response("429 Too Many Requests", headers)
            return [body]

        if code == Code.BUILD:
            if ghost:
                return self._build(environ, start_response, found, slot, setup, extra, if_none_match, ghost=True,
                                   make=lambda: ghost_direct.build(
                                       wanted, schema=found.schema, version=found.version if setup.enabled else None,
                                       kind=found.kind, qhash=qhash))
            return self._build(environ, start_response, found, slot, setup, extra, if_none_match,
                               make=lambda: direct.build(
                                   wanted, schema=found.schema, version=found.version if setup.enabled else None,
                                   kind=found.kind, qhash=qhash, total=found.total))

        etag = found.etag.decode()
        headers = [("ETag", etag), *(setup.ghost_cache_headers if ghost else setup.cache_headers)]
        reader = ghost_edge.edge_keys if ghost else None
        if code == Code.NOT_MODIFIED or etag_matches(if_none_match, etag):
            start_response("304 Not Modified", [*headers, *public.edge_tag_headers(host, found.kind, found.limit),
                                                *extra])
            return []
        if code == Code.WORKER_COPY:
            body = setup.bodies.get(slot, found.etag)
            if body is None:  # dropped meanwhile by another thread: Django answers from the cache
                return self.app(environ, start_response)
        else:
            body = found.body
            setup.bodies.put(slot, found.etag, body)
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                  *headers, *public.edge_tag_headers(host, found.kind, found.limit, query_string, body,
                                                                     reader=reader),
                                  *extra])
        return [body]

    def _build(self, environ, start_response, found, slot, setup, extra, if_none_match, *, make, ghost=False):
        """A posts list missing from the cache (or the cache off), built here by `make`
        (apps.public_api.direct, or apps.ghost_api.direct for the Ghost-compatible routes)."""
        try:
            built = make()
        except Exception:  # never a bare 500 from this layer: Django answers, with its own handling
            logger.exception("posts list left to Django after an error on the fast path")
            built = None
        finally:
            # As Django does when a request ends: a connection past DB_CONN_MAX_AGE is closed, so a
            # thread does not keep a server connection of a session pooler (PgBouncer) it is not using.
            if not connection.in_atomic_block:  # (tests run requests inside their transaction)
                connection.close_if_unusable_or_obsolete()
        if built is None:
            environ[keys.COUNTED] = "1"  # the script took this request's rate-limit entry
            return self.app(environ, start_response)
        if setup.enabled:
            setup.bodies.put(slot, built.etag.encode(), built.body)
        headers = [("ETag", built.etag), *(setup.ghost_miss_headers if ghost else setup.miss_headers)]
        host, query_string = _host(environ), environ.get("QUERY_STRING", "")
        if etag_matches(if_none_match, built.etag):
            start_response("304 Not Modified", [*headers, *public.edge_tag_headers(host, found.kind, found.limit),
                                                *extra])
            return []
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(built.body))),
                                  *headers,
                                  *public.edge_tag_headers(host, found.kind, found.limit, query_string, built.body,
                                                           reader=ghost_edge.edge_keys if ghost else None),
                                  *extra])
        return [built.body]

    def _track(self, environ, start_response, key: str, setup: _Setup):
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
        start_response("200 OK", [*setup.track_headers, *setup.edge.of(environ)])
        return [TRACKED]
