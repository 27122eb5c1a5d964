"""Redis side of the public API: cached responses and the host map of the fast path.

Keys (prefix = the cache KEY_PREFIX setting; every key names the tenant's schema or host):
- `{prefix}:papi:resp:{schema}:{content version}:{key kind}:{sha1(path?query)}` -> hash
  {e: ETag, b: JSON body}, expiring after PUBLIC_API_CACHE_TTL. The content version
  (apps.core.content_version, bumped by every write to posts, categories, tags or media) is part
  of the key, so a write makes every older entry of that tenant unreachable at once without a
  scan; they expire on their own.
- `{prefix}:papi:count:{schema}:{content version}:{sha1(filter)}` -> the total of a post list,
  shared by all its pages (the count is the costliest part of a page on large tables).
- `{prefix}:papi:host:{host}` -> hash {s: schema, c: content-key hash, p: preview-key hash,
  g: Ghost-content-key hash, l: rate limit, rc/rp/rg: the rate-limit keys of the three keys}, so the fast path
  (apps.public_api.fastpath) can check a key without the database. Written by the lookup of a request that passed the key check (only if absent), and
  rewritten (or replaced by a tombstone) after every save of the company, e.g. a key rotation
  or a suspension (apps.public_api.signals), so a rotated-out key stops working at once.

One Lua script per lookup (lua/*.lua, each key it touches commented there), so a lookup is one
round trip whatever it needs to read; their reply codes are `Code`; scripts run on a connection
of the calling thread's own (`_eval`, apps.public_api.redis_thread).
Callers catch redis.RedisError.
"""
from __future__ import annotations

import hashlib
import time
from enum import IntEnum
from pathlib import Path
from typing import NamedTuple

import redis
from django.conf import settings
from limits.storage.redis import RedisStorage

from apps.analytics import buffer
from apps.core import content_version, redis_conn
from apps.public_api import redis_thread
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
    into Redis once per server: EVALSHA, SCRIPT LOAD after a NOSCRIPT)."""

    def __init__(self, name: str, *, codes: bool = False, acquire: bool = False) -> None:
        source = (Path(__file__).with_name("lua") / f"{name}.lua").read_text()
        if acquire:  # the `limits` library's own moving window, so both paths share one limit
            source = source.replace("-- @acquire: the `limits` library's moving-window script, inserted here when "
                                    "loaded", RedisStorage.SCRIPT_ACQUIRE_MOVING_WINDOW.decode())
        if codes:
            source = "".join(f"local {code.name} = {code.value}\n" for code in Code) + source
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()  # noqa: S324 (Redis names scripts so)


_LOOKUP = Script("lookup")
_FAST_LOOKUP = Script("fast_lookup", codes=True, acquire=True)
_STORE = Script("store")
_FAST_TRACK = Script("fast_track", codes=True)
_REMEMBER_HOST = Script("remember_host")
_HOST_FIELDS = ("s", "c", "p", "l", "rc", "rp", "g", "rg")


def query_hash(path: str, query: str) -> str:
    return hashlib.sha1(f"{path.rstrip('/')}?{query}".encode("utf-8", "replace")).hexdigest()  # noqa: S324


def _response_prefix() -> str:
    return redis_conn.tenant_key("papi:resp", "")


def host_key(host: str) -> str:
    return f"{redis_conn.prefix()}:papi:host:{host}"


def lookup(*, schema: str, kind: str, qhash: str, host: str, client) -> tuple[str, bytes | None, bytes | None]:
    """(content version, ETag or None, body or None); also records host -> company for the fast
    path unless an entry exists (a rotation may have written a newer one meanwhile)."""
    fields = host_fields(client)
    version, etag, body = _eval(
        _LOOKUP, keys=(content_version._key(schema), host_key(host)),
        args=[f"{_response_prefix()}{schema}:", f":{kind}:{qhash}",
              *(fields[name] for name in _HOST_FIELDS), settings.PUBLIC_API_HOST_MAP_TTL],
    )
    return version.decode(), etag, body


def store(*, schema: str, version: str, kind: str, qhash: str, etag: str, body: bytes, count_key: str = "",
          total: int | None = None) -> None:
    """Cache a reply (and, when given, the total of its list under `count_key`)."""
    counted = f"{_count_prefix()}{schema}:{version}:{count_key}" if total is not None else ""
    _eval(_STORE, keys=(f"{_response_prefix()}{schema}:{version}:{kind}:{qhash}", counted),
          args=[etag, body, settings.PUBLIC_API_CACHE_TTL, "" if total is None else total])


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


def _eval(script: Script, args: list, keys: tuple = ()):
    return redis_thread.evalsha(redis_conn.client(), script.sha, script.source, keys, args)


def fast_lookup(*, host: str, key_hash: str, qhash: str, if_none_match: str, local_etag: str = "",
                list_key: str | None = None, needs_preview: bool = False, cached: bool = True,
                ghost: bool = False) -> Found:
    """The fast path's lookup (lua/fast_lookup.lua). `list_key`: the request is a posts list the
    fast path builds itself on a miss (the key of its filter, apps.public_api.request.ListQuery).
    `ghost`: a read of the Ghost-compatible routes (apps.ghost_api), whose only key is the Ghost
    content key (and which are answered from the cache only)."""
    return Found.of(_eval(_FAST_LOOKUP, [
        host_key(host), key_hash, content_version._key(""), _response_prefix(), f":{qhash}", if_none_match,
        time.time(), settings.PUBLIC_API_RATE_WINDOW, local_etag, "1" if list_key is not None else "0",
        _count_prefix(), list_key or "", "1" if needs_preview else "0", "1" if cached else "0",
        "1" if ghost else "0"]))


def fast_track(*, host: str, key_hash: str, schema: str, fields: dict[str, str]) -> Found:
    """A page view on the fast path (lua/fast_track.lua)."""
    pairs = [item for pair in fields.items() for item in pair]
    return Found.of(_eval(_FAST_TRACK, [host_key(host), key_hash, schema, buffer.stream_key(schema),
                                        settings.ANALYTICS_STREAM_MAXLEN, *pairs]))


def host_remember(host: str, client) -> None:
    """Record host -> company for the fast path unless an entry exists (for hosts whose only
    traffic is tracking; reads record it in their lookup)."""
    fields = host_fields(client)
    _eval(_REMEMBER_HOST, keys=(host_key(host),),
          args=[*(fields[name] for name in _HOST_FIELDS), settings.PUBLIC_API_HOST_MAP_TTL])


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
