"""The one decision path of a public read: key -> rate limit -> cache -> build.

Plain data in (`Ask`: host, path, query, key, If-None-Match and the few request facts reply
headers depend on), a reply out (`Reply`: status, headers, body bytes), or `Pass` (Django
decides). No Django request and no WSGI environ here: the two entry points translate to and
from these types and nothing else:

- the WSGI layer in front of Django (apps.public_api.fastpath) asks `answer`, which runs the
  whole path in one Redis round trip (lua/fast_lookup.lua: the key against the host map, one
  entry of the key's rate limit, the cached reply) and builds a posts list on a miss
  (apps.public_api.direct, apps.ghost_api.direct);
- the ninja routes (apps.public_api.api, apps.ghost_api.views) know the company from Django's
  middleware: `admit` is their key check and rate limit (ninja's auth hook), `cached` their
  cache and build (apps.public_api.responses turns its Reply into an HttpResponse).

The rules each step follows live once: the query (`request.parse_list`), the key and its limit
(`keys`, `request.identify`), the cache's keys and scripts (`cache`), the bodies
(`request.list_body`, the selectors), the headers (`request.reply_headers`,
`request.edge_tag_headers`, `request.EdgeHeaders`).
"""
from __future__ import annotations

import logging
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import redis
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection

from apps.core import redis_conn
from apps.core.api import envelope
from apps.core.errors import Unauthorized
from apps.ghost_api import edge as ghost_edge
from apps.public_api import cache, keys
from apps.public_api import request as public
from apps.public_api.cache import Code
from apps.public_api.encoding import encode, etag_matches, etag_of, gzip_of, unpacked, weak

logger = logging.getLogger(__name__)

STATUS_LINES = {200: "200 OK", 304: "304 Not Modified", 429: "429 Too Many Requests"}


@dataclass(frozen=True, slots=True)
class Ask:
    """A public GET as plain data. `host`: lower case, no port; `key`: the x-api-key header, or
    the Ghost routes' `key` parameter; `secure`: the request came over HTTPS (as Django's
    request.is_secure() tells); `origin`, `request_id`, `accept_version`: those request headers
    (None when absent); `host_unknown`: the fast path found no host entry (Django's path records it);
    `gzip`: its Accept-Encoding admits gzip (encoding.accepts_gzip)."""

    host: str
    path: str
    query: str
    key: str | None
    if_none_match: str = ""
    ghost: bool = False
    secure: bool = False
    origin: str | None = None
    request_id: str = ""
    accept_version: str | None = None
    host_unknown: bool = False
    gzip: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    headers: list[tuple[str, str]]
    body: bytes = b""

    @property
    def status_line(self) -> str:
        return STATUS_LINES[self.status]


@dataclass(frozen=True, slots=True)
class Pass:
    """Django decides. `counted`: this request's rate-limit entry was taken already (Django
    must not take another); `host_unknown`: the host map has no entry for the host."""

    counted: bool = False
    host_unknown: bool = False


PASS = Pass()


class Lists(Protocol):
    """Who builds the posts lists of a route family on a miss, without Django (apps.public_api.direct
    for /api/v1, apps.ghost_api.direct for the Ghost-compatible routes): the adapter picks it."""

    def listing(self, path: str, query_string: str) -> Any | None: ...

    def build(self, wanted: Any, *, schema: str, version: str | None, kind: str, qhash: str,
              total: int | None, kept: str | None = None) -> Any | None: ...


def _single_etag(if_none_match: str) -> str:
    """The one ETag of a simple If-None-Match (checked inside Redis), without its weak mark
    (If-None-Match compares weakly: the W/ form a gzip reply carries names the same body), else ""."""
    value = if_none_match.strip()
    if value.startswith("W/"):
        value = value[2:]
    if value.startswith('"') and value.endswith('"') and "," not in value:
        return value
    return ""


class Setup:
    """What the path reads from settings, read once per worker (and again after a settings
    change): the reply headers that do not change between requests are made here, once."""

    def __init__(self) -> None:
        self.enabled = settings.PUBLIC_API_CACHE
        self.edge = public.EdgeHeaders()
        # The reply headers after the ETag (Vary as django-cors-headers extends it).
        self.cache_headers = self.edge.with_vary(public.reply_headers("", "HIT")[1:])
        self.miss_headers = self.edge.with_vary(public.reply_headers("", "MISS")[1:])
        # A cached reply of the Ghost-compatible routes: Vary names Accept-Version too (apps.ghost_api.views).
        self.ghost_cache_headers = self.edge.with_vary(ghost_edge.with_vary(public.reply_headers("", "HIT")[1:]))
        self.ghost_miss_headers = self.edge.with_vary(ghost_edge.with_vary(public.reply_headers("", "MISS")[1:]))
        self.bodies = Bodies(settings.PUBLIC_API_LOCAL_CACHE_BYTES)
        self.leases = Leases(settings.PUBLIC_API_LEASE_MS / 1000 if self.enabled else 0,
                             budget=max(settings.PUBLIC_API_LOCAL_CACHE_BYTES, 1024 * 1024))
        # The 429 as Django's error handler writes it (apps.core.api.envelope), byte for byte.
        self.rate_limited = envelope(429, keys.RATE_LIMITED).content
        self.rate_limited_headers = [("Content-Type", "application/json"),
                                     ("Content-Length", str(len(self.rate_limited)))]
        self.error_vary = [("Vary", self.edge.vary)] if self.edge.vary else []
        self.window = settings.PUBLIC_API_RATE_WINDOW


class Bodies:
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


@dataclass(slots=True)
class Lease:
    """A cache hit this worker may answer again without Redis until `until` (time.monotonic()),
    at most `left` more times: its body and the headers that do not depend on the request."""

    until: float
    left: int
    etag: str
    headers: list  # the 200's, after Content-Type and Content-Length, without _extra
    not_modified: list  # the 304's, without _extra
    body: bytes | None  # None: made from a 304, it answers only requests whose If-None-Match is its ETag


class Leases:
    """Cache hits answered again for a moment without the Redis round trip (PUBLIC_API_LEASE_MS):
    a hit Redis confirmed (key, rate limit, content version, reply) gives its slot a lease; until
    it ends, the same request is answered from memory. The hits answered so are owed to the key's
    rate limit and taken with its next round trip (`owed`). A lease ends early when this process
    bumps a content version or rewrites a host entry (`forget`), when the key is limited, and
    after one hundredth of the key's limit of hits (so a key near its limit is checked each time)."""

    MAX_SLOTS = 4096
    MAX_HITS = 1000

    def __init__(self, seconds: float, budget: int = 4 * 1024 * 1024) -> None:
        self.seconds = seconds
        self.budget = budget  # bytes of bodies the leases may hold (they share them with Bodies)
        self.size = 0
        self.slots: dict[tuple, Lease] = {}
        self.debts: dict[str, int] = {}  # key hash -> hits answered from a lease, not yet counted
        self.lock = threading.Lock()

    def take(self, slot: tuple, if_none_match: str = "") -> Lease | None:
        """The slot's lease, if it may answer this request (one of its hits taken), else None. A
        lease made from a 304 holds no body: it answers only requests its ETag matches."""
        if not self.slots:
            return None
        with self.lock:
            lease = self.slots.get(slot)
            if lease is None:
                return None
            if lease.left <= 0 or time.monotonic() >= lease.until:
                self._drop(slot)
                return None
            if lease.body is None and not etag_matches(if_none_match, lease.etag):
                return None
            lease.left -= 1
            self.debts[slot[1]] = self.debts.get(slot[1], 0) + 1
            return lease

    def grant(self, slot: tuple, limit: int | None, etag: str, headers: list, not_modified: list,
              body: bytes | None) -> None:
        hits = min(self.MAX_HITS, (limit or 0) // 100)
        if self.seconds <= 0 or hits <= 0:
            return
        now = time.monotonic()
        with self.lock:
            if slot in self.slots:
                self._drop(slot)
            size = len(body or b"")
            if len(self.slots) >= self.MAX_SLOTS or self.size + size > self.budget:
                for ended in [key for key, lease in self.slots.items() if lease.until <= now]:
                    self._drop(ended)
                if len(self.slots) >= self.MAX_SLOTS or self.size + size > self.budget:
                    self.slots.clear()
                    self.size = 0
            self.slots[slot] = Lease(now + self.seconds, hits, etag, headers, not_modified, body)
            self.size += size

    def _drop(self, slot: tuple) -> None:
        self.size -= len(self.slots.pop(slot).body or b"")

    def owed(self, key_hash: str) -> int:
        """The hits of this key answered from leases since its last round trip (now counted)."""
        if not self.debts:
            return 0
        with self.lock:
            return self.debts.pop(key_hash, 0)

    def refund(self, key_hash: str, hits: int) -> None:
        """A round trip that failed did not count them: owed again."""
        if hits:
            with self.lock:
                self.debts[key_hash] = self.debts.get(key_hash, 0) + hits

    def end_key(self, key_hash: str) -> None:
        with self.lock:
            for slot in [slot for slot in self.slots if slot[1] == key_hash]:
                self._drop(slot)

    def forget(self) -> None:
        with self.lock:
            self.slots.clear()
            self.size = 0


def forget_leases(*args, **kwargs) -> None:
    """End every lease of this process (after a content version bump or a host entry rewrite made
    here: the next request asks Redis)."""
    if _setup is not None:
        _setup.leases.forget()


_setup: Setup | None = None


def current() -> Setup:
    global _setup
    if _setup is None:
        _setup = Setup()
    return _setup


def _forget_setup(**kwargs) -> None:
    global _setup
    _setup = None


setting_changed.connect(_forget_setup)


def _extra(setup: Setup, ask: Ask) -> list[tuple[str, str]]:
    """What Django's middleware would add (request id, security, CORS), and Ghost's version header."""
    extra = setup.edge.of(request_id=ask.request_id, secure=ask.secure, origin=ask.origin)
    if ask.ghost and ask.accept_version is not None:
        extra.append(("Content-Version", ghost_edge.CONTENT_VERSION))
    return extra


def encoded(ask: Ask, reply: Reply) -> Reply:
    """The reply as sent to a client that accepts gzip (Ghost's own server compresses its replies
    too): a 200 of the public reads with its body compressed (kept by its ETag: a reply sent again
    is not compressed again) and its ETag weak, a 304 with its ETag weak; any other reply, and any
    reply to a client that does not accept gzip, as it is. Both entry points send this."""
    if not ask.gzip or reply.status not in (200, 304):
        return reply
    headers = []
    etag = None
    for name, value in reply.headers:
        if name == "ETag":
            etag = value
            value = weak(value)
        elif name == "Content-Length":
            continue
        headers.append((name, value))
    if etag is None:  # not a reply of the cacheable reads
        return reply
    if reply.status == 304:
        return Reply(304, headers)
    body = gzip_of(etag, reply.body)
    return Reply(200, [("Content-Encoding", "gzip"), ("Content-Length", str(len(body))), *headers], body)


# --- the WSGI layer's path: key, limit and cache in one round trip -------------------------------
def answer(ask: Ask, lists: Lists) -> Reply | Pass:
    """The reply of a public GET made without Django, or Pass. `lists`: the builder of the
    route family's posts lists."""
    reply = _answer(ask, lists)
    return encoded(ask, reply) if ask.gzip and isinstance(reply, Reply) else reply


def _answer(ask: Ask, lists: Lists) -> Reply | Pass:
    if not ask.key:
        return PASS
    if not ask.ghost and (not ask.path.startswith(public.PREFIX) or public.is_preview(ask.path)):
        return PASS
    setup = current()
    if not redis_conn.available():
        return PASS
    if not setup.edge.answers(ask.origin):  # headers only Django's middleware can make
        return PASS
    # A posts list this layer can build on a miss (/api/v1's, or Ghost's posts browse).
    wanted = lists.listing(ask.path, ask.query)
    if not setup.enabled and wanted is None:
        return PASS
    key_hash = sys.intern(keys.key_hash(ask.key))
    qhash = cache.query_hash(ask.path, ask.query)
    # The host and the key hash: one string each for every slot that names them (a website sends
    # one key to one host), not one per request a slot was made by (Bodies counts SLOT_BYTES a slot).
    slot = (sys.intern(ask.host), key_hash, qhash)
    lease = setup.leases.take(slot, ask.if_none_match)
    if lease is not None:  # a hit Redis confirmed a moment ago (Leases)
        if etag_matches(ask.if_none_match, lease.etag):
            return Reply(304, [*lease.not_modified, *_extra(setup, ask)])
        return Reply(200, [*lease.headers, *_extra(setup, ask)], lease.body)
    owed = setup.leases.owed(key_hash)
    try:
        found = cache.fast_lookup(
            host=ask.host, key_hash=key_hash, qhash=qhash, if_none_match=_single_etag(ask.if_none_match),
            local_etag=setup.bodies.etag(slot) if setup.enabled else "",
            list_key=(None if wanted is None else "" if ask.ghost else wanted.filter_key),
            needs_preview=bool(wanted and not ask.ghost and wanted.needs_preview), cached=setup.enabled,
            ghost=ask.ghost, amount=1 + owed)
    except redis.RedisError as exc:
        setup.leases.refund(key_hash, owed)
        redis_conn.failed(exc, "public API served uncached and unthrottled")
        return PASS
    code = found.code
    if code in (Code.UNKNOWN, Code.MISS):  # the script took no rate-limit entry: the leases' hits are owed still
        setup.leases.refund(key_hash, owed)
    if code == Code.UNKNOWN:  # Django decides, and records the host if the key passes
        return Pass(host_unknown=True)
    if code == Code.MISS:
        return PASS
    if code == Code.RATE_LIMITED:
        setup.leases.end_key(key_hash)
        if ask.ghost:  # Django answers Ghost's 429 (the window is still full then)
            return PASS
        return Reply(429, [*setup.rate_limited_headers, ("Retry-After", str(keys.retry_after(key_hash, found.limit))),
                           *setup.error_vary, *_extra(setup, ask)], setup.rate_limited)
    if code == Code.BUILD:
        return _built(ask, setup, found, slot, wanted, qhash, lists)

    etag = found.etag.decode()
    headers = [("ETag", etag), *(setup.ghost_cache_headers if ask.ghost else setup.cache_headers)]
    not_modified = [*headers, *public.edge_tag_headers(ask.host, found.kind, found.limit)]
    if code == Code.NOT_MODIFIED or etag_matches(ask.if_none_match, etag):
        if code == Code.NOT_MODIFIED:  # (Redis sent no body: the lease answers 304s only)
            setup.leases.grant(slot, found.limit, etag, [], not_modified, None)
        return Reply(304, [*not_modified, *_extra(setup, ask)])
    if code == Code.WORKER_COPY:
        body = setup.bodies.get(slot, found.etag)
        if body is None:  # dropped meanwhile by another thread: Django answers from the cache
            return PASS
    else:
        body = unpacked(etag, found.body)
        setup.bodies.put(slot, found.etag, body)
    full = _full_headers(ask, found, headers, body)
    setup.leases.grant(slot, found.limit, etag, full, not_modified, body)
    return Reply(200, [*full, *_extra(setup, ask)], body)


def _full_headers(ask: Ask, found: cache.Found, headers: list, body: bytes) -> list:
    """A 200's headers, but those of the request itself (_extra)."""
    return [("Content-Type", "application/json"), ("Content-Length", str(len(body))), *headers,
            *public.edge_tag_headers(ask.host, found.kind, found.limit, ask.query, body,
                                     reader=ghost_edge.edge_keys if ask.ghost else None, etag=headers[0][1])]


def _full(ask: Ask, setup: Setup, found: cache.Found, headers: list, body: bytes) -> Reply:
    return Reply(200, [*_full_headers(ask, found, headers, body), *_extra(setup, ask)], body)


def _built(ask: Ask, setup: Setup, found: cache.Found, slot: tuple, wanted, qhash: str, lists: Lists) -> Reply | Pass:
    """A posts list missing from the cache (or the cache off), built here by `lists`."""
    try:
        built = lists.build(wanted, schema=found.schema, version=found.version if setup.enabled else None,
                            kind=found.kind, qhash=qhash, total=found.total, kept=found.version or None)
    except Exception:  # never a bare 500 from this layer: Django answers, with its own handling
        logger.exception("posts list left to Django after an error on the fast path")
        built = None
    finally:
        # As Django does when a request ends: a connection past DB_CONN_MAX_AGE is closed, so a
        # thread does not keep a server connection of a session pooler (PgBouncer) it is not using.
        if not connection.in_atomic_block:  # (tests run requests inside their transaction)
            connection.close_if_unusable_or_obsolete()
    if built is None:
        return Pass(counted=True)  # the script took this request's rate-limit entry
    if setup.enabled:
        setup.bodies.put(slot, built.etag.encode(), built.body)
    headers = [("ETag", built.etag), *(setup.ghost_miss_headers if ask.ghost else setup.miss_headers)]
    if etag_matches(ask.if_none_match, built.etag):
        return Reply(304, [*headers, *public.edge_tag_headers(ask.host, found.kind, found.limit), *_extra(setup, ask)])
    return _full(ask, setup, found, headers, built.body)


# --- Django's path: the company is known from its middleware -------------------------------------
def admit(tenant, key: str | None, *, counted: bool, ghost: bool = False, throttled: bool = True,
          also: Callable[[str], bool] | None = None) -> keys.ApiKey:
    """The key of a request to the company of its host (401), then one entry of its rate limit
    (429 with Retry-After), unless `counted` (the WSGI layer took it) or not `throttled`. `also`: an
    adapter's own keys of the company that read what the route's key reads (the Ghost-compatible
    routes: the Content API keys of the company's integrations), asked after the company's."""
    try:
        api_key = public.identify(tenant, key, ghost=ghost)
    except Unauthorized:
        if also is None or not key or tenant is None or not also(key):
            raise
        api_key = keys.ApiKey(kind=keys.GHOST if ghost else keys.CONTENT, key_hash=keys.key_hash(key),
                              limit=keys.limit_of(tenant))
    if throttled and not counted and redis_conn.available():
        keys.throttle(api_key)
    return api_key


def remember_host(host: str, tenant, *, always: bool = False) -> None:
    """Let the fast path know this host (tracking calls; reads do it in their lookup)."""
    if (always or settings.PUBLIC_API_CACHE) and redis_conn.available():
        try:
            cache.host_remember(host, tenant)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")


def reply_of(ask: Ask, api_key: keys.ApiKey, body: bytes, etag: str, cache_status: str, *, cached: bool = True,
             edge_reader=None) -> Reply:
    """The reply Django's path answers (its middleware adds the request id, security and CORS headers)."""
    modified = not etag_matches(ask.if_none_match, etag)
    edge_tags = public.edge_tag_headers(ask.host, api_key.kind, api_key.limit, ask.query, body if modified else None,
                                        reader=edge_reader, etag=etag) if cached else []
    headers = [*public.reply_headers(etag, cache_status, cached=cached), *edge_tags]
    if not modified:
        return encoded(ask, Reply(304, headers))
    return encoded(ask, Reply(200, [("Content-Type", "application/json"), *headers], body))


def cached(ask: Ask, api_key: keys.ApiKey, *, schema: str, tenant, build: Callable[[str | None], dict],
           edge_reader=None) -> Reply:
    """The reply of `build(version)`, from the cache when it is there. `version` is the company's
    content version read with the lookup (None when the cache is off or Redis is down); builders
    may cache parts of the reply under it. `edge_reader`: what a body says to the cache tier, for
    bodies not of /api/v1's shapes (request.edge_tag_headers)."""
    kind = api_key.kind
    qhash = cache.query_hash(ask.path, ask.query)
    version = None
    if not settings.PUBLIC_API_CACHE and ask.host_unknown and redis_conn.available():
        # Cache off: the fast path still builds posts lists, once the host map knows this host.
        remember_host(ask.host, tenant, always=True)
    if settings.PUBLIC_API_CACHE and redis_conn.available():
        try:
            version, etag, body = cache.lookup(schema=schema, kind=kind, qhash=qhash, host=ask.host, client=tenant)
            if etag is not None and body is not None:
                return reply_of(ask, api_key, unpacked(etag.decode(), body), etag.decode(), "HIT",
                                edge_reader=edge_reader)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
            version = None
    body = encode(build(version))
    etag = etag_of(body)
    if version is not None:
        try:
            cache.store(schema=schema, version=version, kind=kind, qhash=qhash, etag=etag, body=body)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
    return reply_of(ask, api_key, body, etag, "MISS", edge_reader=edge_reader)


def uncached(ask: Ask, api_key: keys.ApiKey, data: dict) -> Reply:
    """A reply built for this request only and kept by no cache (a preview link's, a member's read:
    Cache-Control private, no-store, no surrogate keys)."""
    body = encode(data)
    return reply_of(ask, api_key, body, etag_of(body), "BYPASS", cached=False)
