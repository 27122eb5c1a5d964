"""The PostgreSQL a test run uses, and keeping its catalogs small.

By default the process that starts pytest (the xdist controller, or the only process with -n 0)
starts a private cluster of its own: initdb into a temporary directory, a free loopback port,
settings made for throwaway data (no fsync, no WAL beyond crash safety, autovacuum on and eager),
and stops and removes it when the run ends. Workers and the processes tests start (gunicorn,
Celery workers, manage.py) inherit its address through DATABASE_URL. TEST_POSTGRES=shared keeps
the server DATABASE_URL names instead (a developer's own server, a managed one).

Creating and rolling back company schemas leaves dead rows in the system catalogs (pg_class,
pg_attribute, pg_depend, ...) that only VACUUM removes; on a server with autovacuum off they pile
up and every later DDL statement slows down. `CatalogJanitor` vacuums the catalogs of the test
database between tests whenever their dead rows pass a threshold, whatever the server.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

MODE_VARIABLE = "TEST_POSTGRES"  # "private" (the default) or "shared"
OWNER_VARIABLE = "TEST_POSTGRES_OWNER"  # pid of the process whose private cluster DATABASE_URL names
PREFIX = "cms-test-pg-"

# Throwaway data: nothing is worth an fsync or a full-page image; WAL only as much as a crash of
# the server itself needs (wal_level=minimal also skips WAL for tables created in the same
# transaction, as a company's schema is). Catalog churn is cleaned up by autovacuum within seconds.
TUNING = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "wal_level": "minimal",
    "max_wal_senders": "0",
    "max_wal_size": "4GB",
    "checkpoint_timeout": "30min",
    "shared_buffers": "256MB",
    "max_connections": "300",  # gunicorn (2 workers x 10 threads), Celery workers, PgBouncer per xdist worker
    "autovacuum": "on",
    "autovacuum_naptime": "5s",
    "autovacuum_vacuum_threshold": "200",
    "autovacuum_vacuum_scale_factor": "0.02",
    "autovacuum_vacuum_insert_threshold": "2000",
    "autovacuum_vacuum_cost_delay": "0",
    "log_min_messages": "warning",
}


def mode() -> str:
    value = (os.environ.get(MODE_VARIABLE) or "private").strip().lower()
    if value not in {"private", "shared"}:
        raise RuntimeError(f"{MODE_VARIABLE}={value!r}: use 'private' (the default) or 'shared'")
    return value


def with_port(url: str, port: int, host: str = "127.0.0.1") -> str:
    """`url` (postgres://user@host:port/name) on another server, same database name, user postgres."""
    parts = urlsplit(url or "postgres://postgres@127.0.0.1:5432/cms")
    return urlunsplit((parts.scheme or "postgres", f"postgres@{host}:{port}", parts.path or "/cms", "", ""))


@dataclass
class PrivateCluster:
    """The run's own cluster (apps/core/tests/hardening/services.py PrivatePostgres, tuned)."""

    url: str
    server: object = field(repr=False)

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        self.server.cleanup()


def start_private(database_url: str) -> PrivateCluster:
    from apps.core.tests.hardening.services import PrivatePostgres

    sweep_stale()
    server = PrivatePostgres(prefix=PREFIX, settings=TUNING)
    (server.dir / "owner").write_text(str(os.getpid()))
    try:
        server.init().start()
    except Exception:
        server.cleanup()
        raise
    return PrivateCluster(url=with_port(database_url, server.port), server=server)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale() -> list[Path]:
    """Stop and remove the clusters of earlier runs whose pytest process is gone (killed before it
    could stop its own); returns their directories."""
    removed = []
    for directory in Path(tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            owner = int((directory / "owner").read_text().strip())
        except (OSError, ValueError):
            continue
        if _alive(owner):
            continue
        try:
            postmaster = int((directory / "data" / "postmaster.pid").read_text().split()[0])
            command = Path(f"/proc/{postmaster}/cmdline").read_bytes()
            if b"postgres" in command and str(directory).encode() in command:
                os.kill(postmaster, signal.SIGQUIT)  # immediate shutdown
        except (OSError, ValueError, IndexError):
            pass
        shutil.rmtree(directory, ignore_errors=True)
        removed.append(directory)
    return removed


# --- the catalogs --------------------------------------------------------------------------------
DEAD_ROWS_SQL = (
    "SELECT relname, n_dead_tup FROM pg_stat_sys_tables WHERE schemaname = 'pg_catalog' ORDER BY relname"
)


class CatalogJanitor:
    """Reads the dead rows of the test database's system catalogs every `every` tests and vacuums
    those past `threshold` (unless `vacuum` is off: then it only reports them). `cursor_factory` gives a cursor on a connection in autocommit mode
    (VACUUM cannot run in a transaction)."""

    def __init__(self, *, threshold: int = 2000, every: int = 10, vacuum: bool = True):
        self.threshold, self.every, self.vacuum = threshold, every, vacuum
        self.tests = 0
        self.vacuums = 0
        self.vacuum_seconds = 0.0
        self.last_pg_class_dead = 0
        self.failed: str | None = None

    def dead_rows(self, cursor) -> dict[str, int]:
        cursor.execute(DEAD_ROWS_SQL)
        return {name: int(dead or 0) for name, dead in cursor.fetchall()}

    def after_test(self, cursor) -> None:
        import time

        self.tests += 1
        if self.failed or self.tests % self.every:
            return
        dead = self.dead_rows(cursor)
        self.last_pg_class_dead = dead.get("pg_class", 0)
        bloated = [name for name, count in dead.items() if count > self.threshold]
        if not bloated or not self.vacuum:
            return
        started = time.monotonic()
        try:
            cursor.execute("VACUUM " + ", ".join(f"pg_catalog.{name}" for name in bloated))
        except Exception as exc:  # noqa: BLE001 - a server that refuses (not a superuser): say so once
            self.failed = f"catalog VACUUM refused: {exc}"
            return
        self.vacuums += 1
        self.vacuum_seconds += time.monotonic() - started
        self.last_pg_class_dead = self.dead_rows(cursor).get("pg_class", 0)
