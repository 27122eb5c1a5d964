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

logger = logging.getLogger(__name__)

LAG_SQL = ("SELECT CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0 "
           "ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END, pg_is_in_recovery()")

_health: dict[str, tuple[bool, float]] = {}  # alias -> (usable, when checked)
_lock = threading.Lock()
_turn = itertools.count()


def lag_of(alias: str) -> float:
    """Seconds the replica is behind; raises DatabaseError when it does not answer."""
    with connections[alias].cursor() as cursor:
        cursor.execute(LAG_SQL)
        lag, recovering = cursor.fetchone()
    if not recovering:
        logger.warning("read replica %s is not in recovery (promoted?): it is still read", alias)
    return float(lag)


def _check(alias: str) -> bool:
    try:
        lag = lag_of(alias)
    except DatabaseError as exc:
        logger.warning("read replica %s skipped: %s", alias, exc)
        connections[alias].close()
        return False
    if lag > settings.DB_REPLICA_MAX_LAG:
        logger.warning("read replica %s skipped: %.1f s behind (DB_REPLICA_MAX_LAG %s)", alias, lag,
                       settings.DB_REPLICA_MAX_LAG)
        return False
    return True


def usable(alias: str) -> bool:
    now = time.monotonic()
    state = _health.get(alias)
    if state is None or now - state[1] >= settings.DB_REPLICA_CHECK_SECONDS:
        with _lock:
            state = _health.get(alias)
            if state is None or now - state[1] >= settings.DB_REPLICA_CHECK_SECONDS:
                state = (_check(alias), time.monotonic())
                _health[alias] = state
    return state[0]


def read_alias() -> str | None:
    """A healthy replica's database alias (taking turns), or None: read on the primary."""
    aliases = settings.DB_REPLICA_ALIASES
    if not aliases:
        return None
    start = next(_turn)
    for n in range(len(aliases)):
        alias = aliases[(start + n) % len(aliases)]
        if usable(alias):
            return alias
    return None


def mark_down(alias: str) -> None:
    """A read on `alias` failed: skip it until its next check."""
    logger.warning("read replica %s failed a read: the primary answers", alias, exc_info=True)
    _health[alias] = (False, time.monotonic())
    try:
        connections[alias].close()
    except DatabaseError:
        pass
