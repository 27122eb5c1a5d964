"""Redis side of the public API: cached responses and the host map of the fast path.

Keys (prefix = the cache KEY_PREFIX setting; every key names the tenant's schema or host):
- `{prefix}:papi:gz:{schema}:{content version}:{key kind}:{sha1(path?query)}` -> hash
  {e: ETag, b: the JSON body's gzip (encoding.gzip_of)}, expiring after PUBLIC_API_CACHE_TTL. The
  content version (apps.core.content_version, bumped by every write to posts, categories, tags or media) is part
  of the key, so a write makes every older entry of that tenant unreachable at once without a
  scan; they expire on their own.
- `{prefix}:papi:count:{schema}:{content version}:{sha1(filter)}` -> the total of a post list,
  shared by all its pages (the count is the costliest part of a page on large tables).
- `{prefix}:papi:host:{host}` -> hash {s: schema, c: content-key hash, p: preview-key hash,
  g: Ghost-content-key hash, l: rate limit, wc/wp/wg: the rate-limit counters' keys of the three keys}, so the fast path
  (apps.public_api.fastpath) can check a key without the database. Written by the lookup of a request that passed the key check (only if absent), and
  rewritten (or replaced by a tombstone) after every save of the company, e.g. a key rotation
  or a suspension (apps.public_api.signals), so a rotated-out key stops working at once.

One Lua script per lookup (lua/*.lua, each key it touches commented there), so a lookup is one
round trip whatever it needs to read; their reply codes are `Code`; scripts run on a connection
of the calling thread's own (`Script.run`, apps.public_api.redis_thread). The scripts' KEYS and
ARGV are named in `Script` and checked against the scripts' text by test_scripts.py.
Callers catch redis.RedisError.
"""
from __future__ import annotations

import hashlib
from enum import IntEnum
from pathlib import Path
from typing import NamedTuple

import redis
from django.conf import settings
from limits.storage.redis import RedisStorage

from apps.analytics import buffer
from apps.core import content_version, digests, redis_conn
from apps.public_api import redis_thread
from apps.public_api.encoding import gzip_of
from apps.public_api.keys import host_fields

class Code(IntEnum):
    """What a script answers (first item of its reply); prepended to each script as Lua locals."""

    UNKNOWN = 0  # unknown host, or a key that is not the host's: Django decides (401, 404, 403)
    MISS = 1  # not cached and not a list the fast path builds: Django answers
    HIT = 2  # cached: {HIT, etag, body, kind, limit}
    NOT_MODIFIED = 3  # cached, and its ETag is If-None-Match's: {NOT_MODIFIED, etag, kind, limit}
    RATE_LIMITED = 4  # the key is over its limit: {RATE_LIMITED, limit}
    OTHER_SCHEMA = 5  # (tracking) the host is another schema than the caller's: {OTHER_SCHEMA, schema}
    WORKER_COPY = 6  # cached, and the worker holds this ETag's body: {WORKER_COPY, etag, kind, limit}
    BUILD = 7  # a posts list for the fast path to build: {BUILD, schema, kind, version, total or false, limit}
    APPENDED = 8  # (tracking) the event was appended


class Found(NamedTuple):
    """The fast path's lookup, by name (fields a code does not carry are None)."""

    code: Code
    etag: bytes | None = None
    body: bytes | None = None
    limit: int | None = None
    schema: str | None = None
    kind: str | None = None
    version: str | None = None  # "" with the cache off
    total: int | None = None  # the list's total at this version, when counted

    @classmethod
    def of(cls, reply: list) -> "Found":
        code = Code(reply[0])
        if code == Code.HIT:
            return cls(code, etag=reply[1], body=reply[2], kind=reply[3].decode(), limit=int(reply[4]))
        if code in (Code.NOT_MODIFIED, Code.WORKER_COPY):
            return cls(code, etag=reply[1], kind=reply[2].decode(), limit=int(reply[3]))
        if code == Code.RATE_LIMITED:
            return cls(code, limit=int(reply[1]))
        if code == Code.BUILD:
            return cls(code, schema=reply[1].decode(), kind=reply[2].decode(), version=reply[3].decode(),
                       total=int(reply[4]) if reply[4] is not None else None, limit=int(reply[5]))
        if code == Code.OTHER_SCHEMA:
            return cls(code, schema=reply[1].decode())
        return cls(code)


class Script:
    """A Lua script of this folder's lua/ (package data), read and loaded once per process (and
    into Redis once per server: EVALSHA, SCRIPT LOAD after a NOSCRIPT).

    `version`: the script reads the company's content version with `content_version(key)`
    (apps.core.content_version.VERSION_LUA, prepended).

    `keys` and `args` name the script's KEYS and ARGV in order: a call gives them by name
    (`run`), and the script declares each as `local <name> = KEYS[n]` / `ARGV[n]` (or, for the
    host entry's fields, `'<field>', ARGV[n]` in its HSET, named `host:<field>` here);
    test_scripts.py reads the scripts and fails when they disagree with these names, with
    `Code`, with the host entry's fields or with the `limits` library's script."""

    def __init__(self, name: str, *, keys: tuple[str, ...] = (), args: tuple[str, ...] = (), rest: bool = False,
                 codes: bool = False, acquire: bool = False, version: bool = False) -> None:
        self.name, self.keys, self.args, self.rest, self.codes = name, keys, args, rest, codes
        self.text = (Path(__file__).with_name("lua") / f"{name}.lua").read_text()
        source = self.text
        if acquire:  # the `limits` library's own window, so both paths share one limit
            source = source.replace(ACQUIRE_MARK, ACQUIRE_SOURCE)
        if codes:
            source = "".join(f"local {code.name} = {code.value}\n" for code in Code) + source
        if version:  # content_version(key): the company's version, made when Redis has none
            source = content_version.VERSION_LUA + source
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()  # noqa: S324 (Redis names scripts so)

    def run(self, *, rest: tuple = (), **values):
        """Run it with its KEYS and ARGV given by name (`rest`: the variadic ARGV after the named ones)."""
        if set(values) != {*self.keys, *self.args} or (rest and not self.rest):
            raise TypeError(f"{self.name}.lua takes {self.keys} and {self.args}, not {sorted(values)}")
        return redis_thread.evalsha(redis_conn.client(), self.sha, self.source, tuple(values[name] for name in self.keys),
                                    [*(values[name] for name in self.args), *rest])


ACQUIRE_MARK = "-- @acquire: the `limits` library's sliding-window-counter script, inserted here when loaded"
ACQUIRE_SOURCE = RedisStorage.SCRIPT_ACQUIRE_SLIDING_WINDOW.decode()
# The inserted script's KEYS (the previous window's counter, the current one's) and ARGV, in its
# order (test_scripts.py reads the library's script and checks).
ACQUIRE_KEYS = ("previous", "current")
ACQUIRE_ARGS = ("limit", "expiry", "amount")
PREVIOUS_WINDOW = "/-1"  # the previous window's counter: the current one's key and this
HOST_FIELDS = ("s", "c", "p", "l", "wc", "wp", "g", "wg")  # keys.host_fields, in the scripts' order
_HOST_ARGS = tuple(f"host:{name}" for name in HOST_FIELDS)

LOOKUP = Script("lookup", version=True, keys=("version_key", "host_key"),
                args=("response_prefix", "response_suffix", *_HOST_ARGS, "host_ttl"))
FAST_LOOKUP = Script("fast_lookup", codes=True, acquire=True, version=True, args=(
    "host_key", "key_hash", "version_prefix", "response_prefix", "query_suffix", "if_none_match", "window",
    "worker_etag", "buildable", "count_prefix", "filter_key", "needs_preview", "cached", "ghost", "amount"))
STORE = Script("store", keys=("response_key", "count_key"), args=("etag", "body", "ttl", "total"))
FAST_TRACK = Script("fast_track", codes=True, rest=True,
                    args=("host_key", "key_hash", "schema", "stream_key", "stream_cap"))
REMEMBER_HOST = Script("remember_host", keys=("host_key",), args=(*_HOST_ARGS, "host_ttl"))
SCRIPTS = (LOOKUP, FAST_LOOKUP, STORE, FAST_TRACK, REMEMBER_HOST)


def _host_args(client) -> dict[str, str]:
    fields = host_fields(client)
    return {f"host:{name}": fields[name] for name in HOST_FIELDS}


def query_hash(path: str, query: str) -> str:
    return digests.sha1(f"{path.rstrip('/')}?{query}".encode("utf-8", "replace")).hexdigest()  # noqa: S324


def _response_prefix() -> str:
    # `papi:gz`: the entries keep the body's gzip; the plain bodies of earlier releases were kept
    # under `papi:resp`, so that during a rolling upgrade neither release reads the other's form.
    return redis_conn.tenant_key("papi:gz", "")


def host_key(host: str) -> str:
    return f"{redis_conn.prefix()}:papi:host:{host}"


def lookup(*, schema: str, kind: str, qhash: str, host: str, client) -> tuple[str, bytes | None, bytes | None]:
    """(content version, ETag or None, body or None); also records host -> company for the fast
    path unless an entry exists (a rotation may have written a newer one meanwhile)."""
    version, etag, body = LOOKUP.run(
        version_key=content_version._key(schema), host_key=host_key(host),
        response_prefix=f"{_response_prefix()}{schema}:", response_suffix=f":{kind}:{qhash}",
        **_host_args(client), host_ttl=settings.PUBLIC_API_HOST_MAP_TTL)
    return version.decode(), etag, body


def store(*, schema: str, version: str, kind: str, qhash: str, etag: str, body: bytes, count_key: str = "",
          total: int | None = None) -> None:
    """Cache a reply (and, when given, the total of its list under `count_key`)."""
    counted = f"{_count_prefix()}{schema}:{version}:{count_key}" if total is not None else ""
    STORE.run(response_key=f"{_response_prefix()}{schema}:{version}:{kind}:{qhash}", count_key=counted,
              etag=etag, body=gzip_of(etag, body), ttl=settings.PUBLIC_API_CACHE_TTL,
              total="" if total is None else total)


def _count_prefix() -> str:
    return redis_conn.tenant_key("papi:count", "")


class Counts:
    """Totals of post lists of one company at one content version (every page of a listing
    shares its total; a write moves to a new version). Misses and Redis errors give None."""

    def __init__(self, schema: str, version: str) -> None:
        self.prefix = f"{_count_prefix()}{schema}:{version}:"

    def get(self, key: str) -> int | None:
        try:
            value = redis_conn.client().get(self.prefix + key)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
            return None
        return int(value) if value is not None else None

    def set(self, key: str, total: int) -> None:
        try:
            redis_conn.client().set(self.prefix + key, total, ex=settings.PUBLIC_API_CACHE_TTL)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")


def fast_lookup(*, host: str, key_hash: str, qhash: str, if_none_match: str, local_etag: str = "",
                list_key: str | None = None, needs_preview: bool = False, cached: bool = True,
                ghost: bool = False, amount: int = 1) -> Found:
    """The fast path's lookup (lua/fast_lookup.lua). `list_key`: the request is a posts list the
    fast path builds itself on a miss (the key of its filter, apps.public_api.request.ListQuery).
    `ghost`: a read of the Ghost-compatible routes (apps.ghost_api), whose only key is the Ghost
    content key (and which are answered from the cache only). `amount`: the entries the request
    takes of the key's rate limit (1, and the hits a worker answered from its leases since:
    apps.public_api.core.Leases)."""
    return Found.of(FAST_LOOKUP.run(
        host_key=host_key(host), key_hash=key_hash, version_prefix=content_version._key(""),
        response_prefix=_response_prefix(), query_suffix=f":{qhash}", if_none_match=if_none_match,
        window=settings.PUBLIC_API_RATE_WINDOW, worker_etag=local_etag,
        buildable="1" if list_key is not None else "0", count_prefix=_count_prefix(), filter_key=list_key or "",
        needs_preview="1" if needs_preview else "0", cached="1" if cached else "0", ghost="1" if ghost else "0",
        amount=amount))


def fast_track(*, host: str, key_hash: str, schema: str, fields: dict[str, str]) -> Found:
    """A page view on the fast path (lua/fast_track.lua)."""
    pairs = [item for pair in fields.items() for item in pair]
    return Found.of(FAST_TRACK.run(host_key=host_key(host), key_hash=key_hash, schema=schema,
                                   stream_key=buffer.stream_key(schema), stream_cap=settings.ANALYTICS_STREAM_MAXLEN,
                                   rest=tuple(pairs)))


def host_remember(host: str, client) -> None:
    """Record host -> company for the fast path unless an entry exists (for hosts whose only
    traffic is tracking; reads record it in their lookup)."""
    REMEMBER_HOST.run(host_key=host_key(host), **_host_args(client), host_ttl=settings.PUBLIC_API_HOST_MAP_TTL)


def host_replace(hosts: list[str], client, *, usable: bool) -> None:
    """Overwrite the entries of these hosts: the company's current keys, or a tombstone (the
    fast path then steps aside and Django answers, e.g. 403 for a suspended company)."""
    fields = host_fields(client) if usable else {"x": "1"}
    pipe = redis_conn.client().pipeline(transaction=True)
    for host in hosts:
        pipe.delete(host_key(host))
        pipe.hset(host_key(host), mapping=fields)
        pipe.expire(host_key(host), settings.PUBLIC_API_HOST_MAP_TTL)
    pipe.execute()
