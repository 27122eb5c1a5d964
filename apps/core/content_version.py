"""A per-company content version: bumped (after commit) by every write to posts, categories,
tags, media or the company's settings. Caches of published content key on it (the public API's
reply cache, its totals, what a worker keeps of a company), so one write invalidates every
cached reply of that company without scanning keys.

The version lives in Redis, read in the same round trip as the cached reply it names (the public
API's lookup scripts), so a cache hit asks nothing more than before. Through a Redis outage two
things keep the public API fresh:

- A bump is never lost. A write that commits while Redis does not answer cannot move the version;
  its bump is then written to the outbox (apps.core.outbox: task BUMP_TASK), and the relay sends
  it once the broker answers again. The task bumps the version (tried again until Redis answers),
  then purges the cache tier again: the purge written with the write may have run first and let
  the tier fetch the old reply once more. Redis back with its data (restarted from its snapshot,
  a network partition healed) serves replies cached before the write until then: the relay's
  interval (OUTBOX_RELAY_SECONDS) after the broker answers, plus a task's run.
- A version number is never used twice. Redis back empty (or having evicted the key) has no
  version; counting again from 0 would bring back numbers that what workers keep by version
  (apps.ghost_api.direct, apps.core.languages) was kept under before the outage. A missing
  version starts instead from Redis's clock in microseconds (VERSION_LUA, in each script that
  reads or bumps it): more than any number counted before, since a company is bumped far fewer
  times than microseconds pass.

Not chosen: the version in PostgreSQL, bumped in the writing transaction (every write of a company
would queue on its row, and a cache hit could not learn it without a query: the hit path reads
Redis only), and the bump written to the outbox with every write (a task per write, when a
failed bump is the only one the relay must send).

A process killed between a commit and its bump loses the bump, with or without Redis: replies
cached before it expire after PUBLIC_API_CACHE_TTL.
"""
from __future__ import annotations

import logging
import uuid
from datetime import timedelta

import redis
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from apps.core.edge_cache import edge_purge_company
from apps.core.outbox import Later, outbox_add
from apps.core.redis_conn import client as redis_client, tenant_key
from apps.core.replicas import record_write

logger = logging.getLogger(__name__)

BUMP_TASK = "core.content_version_bump"
RETRY_SECONDS = 2  # a relayed bump whose Redis does not answer yet is tried again after this

# Lua: content_version(key), the version kept at `key`, made from Redis's clock when missing (the
# module's docstring). Prepended to every script that reads or bumps a version: _GET and _BUMP
# here, the public API's lookups (apps.public_api.cache.Script).
VERSION_LUA = """\
local function content_version(key)
  local version = redis.call('GET', key)
  if version then return version end
  local now = redis.call('TIME')  -- seconds, microseconds
  version = now[1] .. string.format('%06d', tonumber(now[2]))
  redis.call('SET', key, version)
  return version
end
"""
_GET = VERSION_LUA + "return content_version(KEYS[1])\n"
_BUMP = VERSION_LUA + "content_version(KEYS[1])\nreturn redis.call('INCR', KEYS[1])\n"


def _key(schema_name: str) -> str:
    return tenant_key("content-version", schema_name)


def _run(script: str, schema_name: str) -> int:
    return int(redis_client().register_script(script)(keys=[_key(schema_name)]))


def content_version_get(schema_name: str | None = None) -> int | None:
    """The current version, or None when Redis does not answer (callers then skip caching)."""
    try:
        return _run(_GET, schema_name or connection.schema_name)
    except redis.RedisError:
        logger.warning("content version unavailable (Redis down)", exc_info=True)
        return None


# Called with the schema after this process bumped a content version (e.g. the public API's
# worker-local leases of cache hits: apps.public_api.core.Leases); registered by apps at start.
after_bump: list = []


def _bump_now(schema: str) -> bool:
    """Bump the version in Redis; False when Redis did not answer."""
    record_write(schema)  # read replicas answer this company's reads once they replayed this
    try:
        _run(_BUMP, schema)
        bumped = True
    except redis.RedisError:
        logger.warning("content version of %s not bumped (Redis down)", schema, exc_info=True)
        bumped = False
    for listener in after_bump:
        listener(schema)
    return bumped


def content_version_bump(schema_name: str | None = None, *, edge_tags: list[str] | None = None) -> None:
    """Call from any service that writes content; takes effect when the transaction commits.
    `edge_tags`: the surrogate keys the write changed in the cache tier (edge_cache.post_change_tags);
    None purges every reply of the company there."""
    schema = schema_name or connection.schema_name

    def bump() -> None:
        if not _bump_now(schema):
            _bump_later(schema, edge_tags)  # bumped by the outbox once Redis answers

    transaction.on_commit(bump)
    edge_purge_company(schema_name=schema, tags=edge_tags)  # the cache tier in front (after commit, EDGE_CACHE_URLS)


def _bump_later(schema: str, edge_tags: list[str] | None) -> None:
    """The bump, written to the outbox. Due in a second rather than sent now: the broker is most
    likely the Redis that just failed, and the request would wait for its timeout. One row per
    failed bump (a row per company could be finished by a run that bumped before this write)."""
    try:
        outbox_add(task=BUMP_TASK, args=[schema, edge_tags], schema_name=schema,
                   key=f"{BUMP_TASK}:{schema}:{uuid.uuid4().hex}", due_at=timezone.now() + timedelta(seconds=1))
    except DatabaseError:
        logger.exception("content version bump of %s lost: cached replies may be stale until they expire", schema)


def content_version_bump_relayed(*, schema_name: str, edge_tags: list[str] | None = None) -> None:
    """The outbox's bump (BUMP_TASK): the version, then the cache tier again. Raises Later while
    Redis does not answer."""
    if not _bump_now(schema_name):
        raise Later.after(RETRY_SECONDS, "Redis unavailable: content version not bumped")
    edge_purge_company(schema_name=schema_name, tags=edge_tags)
