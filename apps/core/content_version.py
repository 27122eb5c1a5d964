"""A per-tenant content version: bumped (after commit) by every write to posts, categories,
tags or media. Caches of published content key on it, so one write invalidates every cached
response of that tenant without scanning keys."""
from __future__ import annotations

import logging

import redis
from django.db import connection, transaction

from apps.core.edge_cache import edge_purge_company
from apps.core.replicas import record_write
from apps.core.redis_conn import client as redis_client, tenant_key

logger = logging.getLogger(__name__)


def _key(schema_name: str) -> str:
    return tenant_key("content-version", schema_name)


def content_version_get(schema_name: str | None = None) -> int | None:
    """The current version, or None when Redis does not answer (callers then skip caching)."""
    try:
        value = redis_client().get(_key(schema_name or connection.schema_name))
        return int(value) if value is not None else 0
    except redis.RedisError:
        logger.warning("content version unavailable (Redis down)", exc_info=True)
        return None


# Called with the schema after this process bumped a content version (e.g. the public API's
# worker-local leases of cache hits: apps.public_api.core.Leases); registered by apps at start.
after_bump: list = []


def content_version_bump(schema_name: str | None = None, *, edge_tags: list[str] | None = None) -> None:
    """Call from any service that writes content; takes effect when the transaction commits.
    `edge_tags`: the surrogate keys the write changed in the cache tier (edge_cache.post_change_tags);
    None purges every reply of the company there."""
    schema = schema_name or connection.schema_name

    def bump() -> None:
        record_write(schema)  # read replicas answer this company's reads once they replayed this
        try:
            redis_client().incr(_key(schema))
        except redis.RedisError:
            logger.warning("content version not bumped (Redis down)", exc_info=True)
        for listener in after_bump:
            listener(schema)

    transaction.on_commit(bump)
    edge_purge_company(schema_name=schema, tags=edge_tags)  # the cache tier in front (after commit, EDGE_CACHE_URLS)
