"""The per-tenant event buffer: one Redis stream per tenant schema.

Tracking appends (XADD, capped at ANALYTICS_STREAM_MAXLEN entries, approximately); the flush
task reads the oldest entries (XRANGE), writes them to PostgreSQL, then deletes them (XDEL).
The entry id doubles as the event id, unique in PostgreSQL, so a flush repeated after a crash
between the insert and the delete inserts nothing twice. Callers handle redis.RedisError.
"""
from __future__ import annotations

from django.conf import settings

from apps.core import redis_conn


def stream_key(schema: str) -> str:
    return redis_conn.tenant_key("analytics:events", schema)


def append(schema: str, fields: dict[str, str]) -> str:
    entry_id = redis_conn.client().xadd(
        stream_key(schema), fields, maxlen=settings.ANALYTICS_STREAM_MAXLEN, approximate=True
    )
    return entry_id.decode() if isinstance(entry_id, bytes) else entry_id


def read(schema: str, count: int) -> list[tuple[str, dict[str, str]]]:
    entries = redis_conn.client().xrange(stream_key(schema), min="-", max="+", count=count)
    return [
        (entry_id.decode(), {key.decode(): value.decode("utf-8", "replace") for key, value in fields.items()})
        for entry_id, fields in entries
    ]


def delete(schema: str, entry_ids: list[str]) -> None:
    if entry_ids:
        redis_conn.client().xdel(stream_key(schema), *entry_ids)


def pending_counts(schemas: list[str]) -> dict[str, int]:
    """Events waiting in each tenant's stream (one round trip)."""
    if not schemas:
        return {}
    pipe = redis_conn.client().pipeline(transaction=False)
    for schema in schemas:
        pipe.xlen(stream_key(schema))
    return dict(zip(schemas, pipe.execute(), strict=True))
