"""Running behind a connection pooler (PgBouncer): which modes are safe, and the start-up check.

A company's requests run on its schema through the connection's `search_path`, set with a plain
`SET` (a session setting) and, with TENANT_LIMIT_SET_CALLS, only when the connection's schema
changes: the app remembers which path its connection has. That memory is only true while the
same server connection stays behind the client connection between statements:

- no pooler, or PgBouncer in **session** mode: a client keeps its server connection until it
  disconnects (PgBouncer then runs `DISCARD ALL`); safe, supported (`DB_POOL_MODE=session`).
- PgBouncer in **transaction** or **statement** mode: each transaction (autocommit: each
  statement) may run on another server connection, whose `search_path` was left by another
  client, possibly for another company. Not safe: refused.

The check: before the first connection of a process, two connections are opened, the first
staying open, and each asks for its server process id (`pg_backend_pid()`). Two client
connections open at the same time never share a server process unless a pooler hands server
connections out per transaction; then the app stops with `PoolerModeRefused`.
"""
from __future__ import annotations

import logging
import select
import threading
import time

import psycopg
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

SUPPORTED_MODES = ("direct", "session")

REFUSED = (
    "The database connection goes through a pooler that hands out server connections per "
    "transaction (PgBouncer pool_mode=transaction or statement). Company schemas are selected "
    "with a session-level search_path, so one company's request could read another company's "
    "tables. Run PgBouncer with pool_mode=session for this application (DB_POOL_MODE=session), "
    "or connect to PostgreSQL directly."
)

_checked = threading.Event()
_lock = threading.Lock()


class PoolerModeRefused(ImproperlyConfigured):
    pass


def validate_mode(mode: str) -> str:
    """DB_POOL_MODE as written in the environment; `transaction`/`statement` are refused."""
    if mode in ("transaction", "statement"):
        raise PoolerModeRefused(f"DB_POOL_MODE={mode} is not supported. {REFUSED}")
    if mode not in SUPPORTED_MODES:
        raise ImproperlyConfigured(f"DB_POOL_MODE must be one of {', '.join(SUPPORTED_MODES)}, not {mode!r}")
    return mode


def session_statements() -> list[str]:
    """Session settings sent after connecting when a pooler sits in front of PostgreSQL (PgBouncer
    refuses the `options` startup parameter that carries them on a direct connection)."""
    statements = []
    if not settings.DB_JIT:
        statements.append("SET jit = off")
    if settings.DB_PREPARED_STATEMENTS:
        statements.append("SET plan_cache_mode = force_generic_plan")
    return statements


def _backend_pid_within(conninfo: str, seconds: float) -> int | None:
    """The server process id a new client connection gets, or None when no server connection is
    free within `seconds` (a session pool that is fully held by other clients)."""
    pgconn = psycopg.pq.PGconn.connect(conninfo.encode())
    try:
        if pgconn.status != psycopg.pq.ConnStatus.OK:
            raise psycopg.OperationalError(pgconn.error_message.decode(errors="replace"))
        pgconn.send_query(b"SELECT pg_backend_pid()")
        deadline = time.monotonic() + seconds
        while pgconn.is_busy():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([pgconn.socket], [], [], remaining)[0]:
                return None
            pgconn.consume_input()
        result = pgconn.get_result()
        if result.status != psycopg.pq.ExecStatus.TUPLES_OK:
            raise psycopg.OperationalError(result.error_message.decode(errors="replace"))
        return int(result.get_value(0, 0))
    finally:
        pgconn.finish()


def shares_server_connections(conn_params: dict, wait: float = 2.0) -> bool:
    """True when a second client connection, opened while a first one is open and idle, lands on
    the same server process: the pooler gives server connections out per transaction. (Behind a
    session pool whose server connections are all taken, the second waits: not shared.)"""
    params = {key: value for key, value in conn_params.items()
              if key not in ("cursor_factory", "context", "prepare_threshold")}
    conninfo = psycopg.conninfo.make_conninfo(**params)
    with psycopg.connect(conninfo, autocommit=True) as first:
        for _ in range(3):
            mine = first.execute("SELECT pg_backend_pid()").fetchone()[0]
            if _backend_pid_within(conninfo, wait) == mine:
                return True
    return False


def check_before_connect(conn_params: dict) -> None:
    """Once per process, before its first database connection opens (apps/core/db_backend):
    other threads wait here holding no server connection, so a small session pool is enough."""
    if _checked.is_set() or not settings.DB_POOL_CHECK:
        return
    with _lock:
        if _checked.is_set():
            return
        if shares_server_connections(conn_params):
            log.critical(REFUSED)
            raise PoolerModeRefused(REFUSED)
        _checked.set()


def on_connection_created(sender, connection, **kwargs) -> None:
    """Behind a session pooler: the session settings a direct connection gets at start-up."""
    if settings.DB_POOL_MODE == "session":
        with connection.connection.cursor() as cursor:
            for statement in session_statements():
                cursor.execute(statement)
