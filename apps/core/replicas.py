"""Read replicas (DATABASE_REPLICA_URLS): which one answers a lag-tolerant read.

A replica is used while its health check passes: it answers, and it is at most
DB_REPLICA_MAX_LAG seconds behind the primary (0 when it has replayed everything it received;
else the age of the last transaction it replayed). The result is kept DB_REPLICA_CHECK_SECONDS
per process; a replica whose query fails is skipped until its next check. With none healthy,
reads go to the primary. Only reads that may be a little behind come here
(apps.core.db.fetch_prepared(replica=True)); every write, and every read that must see the
caller's own write, stays on the primary.
"""
from __future__ import annotations

import itertools
import logging
import threading
import time

from django.conf import settings
from django.db import DatabaseError, connections

from apps.core.redis_conn import client, tenant_key

logger = logging.getLogger(__name__)

LAG_SQL = ("SELECT CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0 "
           "ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END, pg_is_in_recovery(), "
           "pg_last_wal_replay_lsn()::text")

_health: dict[str, tuple[bool, float, int]] = {}  # alias -> (usable, when checked, replayed WAL position)
_lock = threading.Lock()
_turn = itertools.count()


def lsn(text: str | None) -> int:
    """A WAL position ('16/B374D848') as a number."""
    if not text:
        return 0
    high, _, low = text.partition("/")
    return (int(high, 16) << 32) | int(low, 16)


def lag_of(alias: str) -> tuple[float, int]:
    """Seconds the replica is behind, and the WAL position it has replayed; raises
    DatabaseError when it does not answer."""
    with connections[alias].cursor() as cursor:
        cursor.execute(LAG_SQL)
        lag, recovering, replayed = cursor.fetchone()
    if not recovering:
        logger.warning("read replica %s is not in recovery (promoted?): it is still read", alias)
        replayed = None
    return float(lag), lsn(replayed) if replayed else 1 << 64


def _check(alias: str) -> tuple[bool, int]:
    try:
        lag, replayed = lag_of(alias)
    except DatabaseError as exc:
        logger.warning("read replica %s skipped: %s", alias, exc)
        connections[alias].close()
        return False, 0
    if lag > settings.DB_REPLICA_MAX_LAG:
        logger.warning("read replica %s skipped: %.1f s behind (DB_REPLICA_MAX_LAG %s)", alias, lag,
                       settings.DB_REPLICA_MAX_LAG)
        return False, replayed
    return True, replayed


def usable(alias: str, written: int = 0) -> bool:
    """Healthy, and it had replayed the WAL position `written` when last checked."""
    now = time.monotonic()
    state = _health.get(alias)
    if state is None or now - state[1] >= settings.DB_REPLICA_CHECK_SECONDS:
        with _lock:
            state = _health.get(alias)
            if state is None or now - state[1] >= settings.DB_REPLICA_CHECK_SECONDS:
                ok, replayed = _check(alias)
                state = (ok, time.monotonic(), replayed)
                _health[alias] = state
    return state[0] and state[2] >= written


def _key(schema: str) -> str:
    return tenant_key("write-lsn", schema)


def record_write(schema: str) -> None:
    """After a commit that changed a company's public content: the primary's WAL position, so
    that no replica that has not replayed it answers that company's reads (the public API's
    Redis cache stores what it reads under the new content version)."""
    if not settings.DB_REPLICA_ALIASES:
        return
    import redis

    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            position = cursor.fetchone()[0]
        client().set(_key(schema), lsn(position), ex=86400)
    except (DatabaseError, redis.RedisError):
        logger.warning("write position of %s not recorded: its reads stay on the primary a while", schema,
                       exc_info=True)
        try:
            client().set(_key(schema), 1 << 64, ex=int(settings.DB_REPLICA_MAX_LAG) + 60)
        except redis.RedisError:
            pass


def read_alias(schema: str) -> str | None:
    """A healthy replica's database alias (taking turns) that has replayed the company's last
    content write, or None: read on the primary."""
    aliases = settings.DB_REPLICA_ALIASES
    if not aliases:
        return None
    import redis

    try:
        written = int(client().get(_key(schema)) or 0)
    except redis.RedisError:
        return None  # unknown: the primary is always current
    start = next(_turn)
    for n in range(len(aliases)):
        alias = aliases[(start + n) % len(aliases)]
        if usable(alias, written):
            return alias
    return None


def mark_down(alias: str) -> None:
    """A read on `alias` failed: skip it until its next check."""
    logger.warning("read replica %s failed a read: the primary answers", alias, exc_info=True)
    _health[alias] = (False, time.monotonic(), 0)
    try:
        connections[alias].close()
    except DatabaseError:
        pass
