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
  l: rate limit, rc/rp: the rate-limit keys of the two keys}, so the fast path
  (apps.public_api.fastpath) can check a key without the database. Written by the lookup of a request that passed the key check (only if absent), and
  rewritten (or replaced by a tombstone) after every save of the company, e.g. a key rotation
  or a suspension (apps.public_api.signals), so a rotated-out key stops working at once.

One Lua script per lookup, so a lookup is one round trip whatever it needs to read; scripts run
on a connection of the calling thread's own (`_eval`).
Callers catch redis.RedisError.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time

import redis
from redis.exceptions import NoScriptError
from django.conf import settings
from limits.storage.redis import RedisStorage

from apps.analytics import redis_conn
from apps.core import content_version

# The Django path's one round trip: remember the host for the fast path (only if absent), read
# the content version and the cached reply. KEYS: version key, host key. ARGV: response key
# prefix, ":" .. kind .. ":" .. query hash, then the host fields (s, c, p, l, rc, rp) and their TTL.
_LOOKUP = """
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[2], 's', ARGV[3], 'c', ARGV[4], 'p', ARGV[5], 'l', ARGV[6], 'rc', ARGV[7], 'rp', ARGV[8])
  redis.call('EXPIRE', KEYS[2], ARGV[9])
end
local v = redis.call('GET', KEYS[1])
if not v then v = '0' end
local entry = redis.call('HMGET', ARGV[1] .. v .. ARGV[2], 'e', 'b')
return {v, entry[1], entry[2]}
"""

# The fast path's one round trip. ARGV: host key, key hash, version key prefix, response key
# prefix, ":" .. query hash, If-None-Match, now, rate window, the ETag of the copy of this reply
# the worker holds in memory (or ""), then for a posts list the fast path can build itself
# (apps.public_api.direct; "" otherwise): "d", the count key prefix, the list's filter key,
# "1" when the list needs the preview key, "1" when replies are cached ("0": cache off).
# A request it answers takes one entry from the key's moving-window rate limit, with the
# `limits` library's own script and key (the host entry holds the key; apps.core.ratelimit uses
# the same), so both paths share one limit.
# Returns {0} unknown host or key, {1} miss (Django answers), {2, etag, body} hit, {3, etag} hit
# whose ETag matches If-None-Match (no body sent), {4, limit} over the rate limit, {6, etag} hit
# whose ETag is the worker's copy (the body is not sent: the ETag is a hash of the body),
# {7, schema, kind, version, total or false} a posts list to build (the version is "" with the
# cache off; the total is the list's, when counted at this version).
_FAST_LOOKUP = """
local function acquire(KEYS, ARGV)
%s
end
local m = redis.call('HMGET', ARGV[1], 's', 'c', 'p', 'l', 'rc', 'rp')
local schema = m[1]
if not schema then return {0} end
local kind, limit_key
if ARGV[2] == m[2] then kind, limit_key = 'c', m[5] elseif ARGV[2] == m[3] then kind, limit_key = 'p', m[6]
else return {0} end
if not limit_key then return {0} end
local direct = ARGV[10] == 'd' and (ARGV[13] ~= '1' or kind == 'p')
if ARGV[14] == '0' then
  if not direct then return {1} end
  if not acquire({limit_key}, {ARGV[7], m[4], ARGV[8], 1}) then return {4, m[4]} end
  return {7, schema, kind, '', false}
end
local v = redis.call('GET', ARGV[3] .. schema)
if not v then v = '0' end
local ck = ARGV[4] .. schema .. ':' .. v .. ':' .. kind .. ARGV[5]
local e = redis.call('HGET', ck, 'e')
if not e and not direct then return {1} end
if not acquire({limit_key}, {ARGV[7], m[4], ARGV[8], 1}) then return {4, m[4]} end
if not e then return {7, schema, kind, v, redis.call('GET', ARGV[11] .. schema .. ':' .. v .. ':' .. ARGV[12])} end
if ARGV[6] ~= '' and ARGV[6] == e then return {3, e} end
if ARGV[9] == e then return {6, e} end
return {2, e, redis.call('HGET', ck, 'b')}
""" % RedisStorage.SCRIPT_ACQUIRE_MOVING_WINDOW.decode()

# A reply built on a miss, and the total it counted. KEYS: response key, count key (or "").
# ARGV: ETag, body, TTL, total (or "").
_STORE = """
redis.call('HSET', KEYS[1], 'e', ARGV[1], 'b', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[2], ARGV[4], 'EX', ARGV[3]) end
return 1
"""

# Tracking on the fast path. ARGV: host key, key hash, schema, stream key, stream cap, then the
# event's field/value pairs. Returns {0} unknown host or key, {5, schema} when the schema given
# is not the host's (the caller learns it and retries), {1} appended.
_FAST_TRACK = """
local m = redis.call('HMGET', ARGV[1], 's', 'c', 'p')
if not m[1] then return {0} end
if ARGV[2] ~= m[2] and ARGV[2] ~= m[3] then return {0} end
if m[1] ~= ARGV[3] then return {5, m[1]} end
redis.call('XADD', ARGV[4], 'MAXLEN', '~', ARGV[5], '*', unpack(ARGV, 6))
return {1}
"""

_REMEMBER_HOST = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'c', ARGV[2], 'p', ARGV[3], 'l', ARGV[4], 'rc', ARGV[5], 'rp', ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[7])
return 1
"""

def query_hash(path: str, query: str) -> str:
    return hashlib.sha1(f"{path.rstrip('/')}?{query}".encode("utf-8", "replace")).hexdigest()  # noqa: S324


def _response_prefix() -> str:
    return f"{redis_conn.prefix()}:papi:resp:"


def host_key(host: str) -> str:
    return f"{redis_conn.prefix()}:papi:host:{host}"


def lookup(*, schema: str, kind: str, qhash: str, host: str, client) -> tuple[str, bytes | None, bytes | None]:
    """(content version, ETag or None, body or None); also records host -> company for the fast
    path unless an entry exists (a rotation may have written a newer one meanwhile)."""
    fields = _host_fields(client)
    version, etag, body = _eval(
        _LOOKUP, keys=(content_version._key(schema), host_key(host)),
        args=[f"{_response_prefix()}{schema}:", f":{kind}:{qhash}",
              *(fields[name] for name in ("s", "c", "p", "l", "rc", "rp")), settings.PUBLIC_API_HOST_MAP_TTL],
    )
    return version.decode(), etag, body


def store(*, schema: str, version: str, kind: str, qhash: str, etag: str, body: bytes, count_key: str = "",
          total: int | None = None) -> None:
    """Cache a reply (and, when given, the total of its list under `count_key`)."""
    counted = f"{_count_prefix()}{schema}:{version}:{count_key}" if total is not None else ""
    _eval(_STORE, keys=(f"{_response_prefix()}{schema}:{version}:{kind}:{qhash}", counted),
          args=[etag, body, settings.PUBLIC_API_CACHE_TTL, "" if total is None else total])


def _count_prefix() -> str:
    return f"{redis_conn.prefix()}:papi:count:"


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


class _Dedicated(threading.local):
    """One Redis connection per thread of a web worker for this module's scripts: taking a
    connection from the shared pool costs more CPU than the round trip itself (the pool checks
    each one it hands out), and the fast path runs on every request of every company website."""

    connection = None
    pid = 0
    client = None


_dedicated = _Dedicated()
_shas: dict[str, str] = {}


def _eval(source: str, args: list, keys: tuple = ()):
    """Run a script (loaded once per Redis server) on this thread's connection."""
    local = _dedicated
    client = redis_conn.client()
    connection = local.connection
    if connection is None or local.client is not client or local.pid != os.getpid():
        pool = client.connection_pool
        connection = local.connection = pool.connection_class(**pool.connection_kwargs)
        local.client, local.pid = client, os.getpid()
    sha = _shas.get(source)
    if sha is None:
        sha = _shas[source] = hashlib.sha1(source.encode()).hexdigest()  # noqa: S324 (Redis names scripts so)
    command = ("EVALSHA", sha, len(keys), *keys, *args)
    try:
        try:
            connection.send_command(*command)
            return connection.read_response()
        except NoScriptError:  # a new or flushed Redis: load it once
            connection.send_command("SCRIPT", "LOAD", source)
            connection.read_response()
            connection.send_command(*command)
            return connection.read_response()
    except redis.ResponseError:
        raise
    except BaseException:
        connection.disconnect()  # never reuse a connection left half-read
        raise


def fast_lookup(*, host: str, key_hash: str, qhash: str, if_none_match: str, local_etag: str = "",
                list_key: str | None = None, needs_preview: bool = False, cached: bool = True) -> list:
    """The fast path's lookup (see _FAST_LOOKUP). `list_key`: the request is a posts list the
    fast path builds itself on a miss (the key of its filter, apps.public_api.selectors)."""
    direct = ["d", _count_prefix(), list_key, "1" if needs_preview else "0"] if list_key is not None else ["", "", "", ""]
    return _eval(_FAST_LOOKUP, [host_key(host), key_hash, content_version._key(""), _response_prefix(),
                                f":{qhash}", if_none_match, time.time(), settings.PUBLIC_API_RATE_WINDOW,
                                local_etag, *direct, "1" if cached else "0"])


def fast_track(*, host: str, key_hash: str, schema: str, fields: dict[str, str]) -> list:
    from apps.analytics import buffer

    pairs = [item for pair in fields.items() for item in pair]
    return _eval(_FAST_TRACK, [host_key(host), key_hash, schema, buffer.stream_key(schema),
                                    settings.ANALYTICS_STREAM_MAXLEN, *pairs])


def host_remember(host: str, client) -> None:
    """Record host -> company for the fast path unless an entry exists (for hosts whose only
    traffic is tracking; reads record it in their lookup)."""
    fields = _host_fields(client)
    _eval(_REMEMBER_HOST, keys=(host_key(host),),
          args=[*(fields[name] for name in ("s", "c", "p", "l", "rc", "rp")), settings.PUBLIC_API_HOST_MAP_TTL])


def _host_fields(client) -> dict[str, str]:
    from apps.public_api.keys import key_hash, limit_for, throttle_key

    limit = limit_for(client.subscription_plan)
    content, preview = key_hash(client.api_key or "-"), key_hash(client.preview_key or "-")
    return {
        "s": client.schema_name,
        "c": content if client.api_key else "-",
        "p": preview if client.preview_key else "-",
        "l": str(limit),
        "rc": throttle_key(content, limit),
        "rp": throttle_key(preview, limit),
    }


def host_replace(hosts: list[str], client, *, usable: bool) -> None:
    """Overwrite the entries of these hosts: the company's current keys, or a tombstone (the
    fast path then steps aside and Django answers, e.g. 403 for a suspended company)."""
    fields = _host_fields(client) if usable else {"x": "1"}
    pipe = redis_conn.client().pipeline(transaction=True)
    for host in hosts:
        pipe.delete(host_key(host))
        pipe.hset(host_key(host), mapping=fields)
        pipe.expire(host_key(host), settings.PUBLIC_API_HOST_MAP_TTL)
    pipe.execute()
