"""Statements of the hot read paths, run as prepared statements with one plan each.

Django's PostgreSQL backend binds parameters on the client and never prepares, so PostgreSQL
parses and plans every query anew; for the public content API's page of posts that costs about
as much as running it. `fetch_prepared` runs a statement on a server-side binding cursor of the
thread's connection, which psycopg prepares on first use, once per connection (the
connection's `prepare_threshold`), and PostgreSQL runs it on its generic plan (the connection's
`plan_cache_mode`); both are set in settings from DB_PREPARED_STATEMENTS. Only statements run
here are prepared, and they are written for a generic plan: their tables are named with their
schema (so the statement does not depend on the search_path; the one exception, a search, runs
on the primary after its cursor set the company's search_path, which PostgreSQL checks before
reusing a prepared statement) and what changes the best plan (a page's LIMIT, a post status) is
written into the text, not passed as a parameter. The
cursor is wrapped by Django as any other (errors become django.db errors; tests capture the
queries).
"""
from __future__ import annotations

import time

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection, connections
from psycopg import ClientCursor
from django.db.backends.postgresql.base import ServerBindingCursor

from apps.core import replicas


def fetch_prepared(sql: str, params: list | tuple, *, replica: str | None = None) -> list[tuple]:
    """The rows of `sql`, a statement whose tables are all named with their schema. `replica`:
    the schema of a lag-tolerant read, run on a healthy read replica that has replayed that
    company's last content write when there is one (apps.core.replicas), else (or when the
    replica fails) on the primary."""
    if replica:
        alias = replicas.read_alias(replica)
        if alias is not None:
            try:
                return _fetch_on(connections[alias], sql, params)
            except DatabaseError:
                replicas.mark_down(alias)
    return _fetch_on(connection, sql, params)


def _fetch_on(connection, sql: str, params: list | tuple) -> list[tuple]:
    """Django checks a connection before a request's first statement (CONN_HEALTH_CHECKS: a
    `SELECT 1`, a round trip of its own, on every request). Here the statement is the check: it
    runs at once, and only when the connection turns out broken (a restarted or failed-over
    server, a pooler that dropped it) is it connected again and the statement run once more. A
    connection that fails again raises, as Django's check would (the caller answers 503)."""
    reused = connection.connection is not None
    connection.health_check_done = True  # the statement below checks it
    connection.ensure_connection()
    try:
        return _run(connection, sql, params)
    except (OperationalError, InterfaceError):
        if not reused or connection.in_atomic_block:
            raise
        connection.close()
        with connection.cursor():  # connect again (django-tenants sets the company's search_path on it)
            pass
        return _run(connection, sql, params)


def search_path_cursor(connection):
    """A cursor of the connection on its company's search_path (django-tenants sets it when a cursor
    is made) without Django's per-request health check round trip: the statement run next checks the
    connection (`fetch_prepared`)."""
    reused = connection.connection is not None
    connection.health_check_done = True
    try:
        return connection.cursor()
    except (OperationalError, InterfaceError):
        if not reused or connection.in_atomic_block:
            raise
        connection.close()
        return connection.cursor()


def prepared_cursor(connection=connection):
    """A cursor of the connection, on its company's search_path, whose statements are prepared (a
    server-side binding cursor: psycopg prepares a statement at its first run on the connection,
    per the connection's `prepare_threshold`), wrapped as Django wraps its own (errors become
    django.db errors). For a statement run many times on one connection: PostgreSQL plans it anew
    when the search_path has changed since."""
    connection.cursor().close()  # django-tenants sets the search_path when a cursor is made (once per schema)
    return connection.make_cursor(ServerBindingCursor(connection.connection))


def _run(connection, sql: str, params: list | tuple) -> list[tuple]:
    raw = ServerBindingCursor(connection.connection)
    if not connection.queries_logged:
        with connection.make_cursor(raw) as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    with connection.make_debug_cursor(raw) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    logged = connection.queries_log[-1] if connection.queries_log else None
    if logged is not None and logged["sql"] is None:  # Django reads the SQL of client-bound cursors only
        logged["sql"] = ClientCursor(connection.connection).mogrify(sql, params)
    return rows


def schema_visited(schema: str, conn=None) -> None:
    """Record that the thread's connection reads `schema`. PostgreSQL keeps in each server process
    the catalog entries and plans of every table it has touched (about 180 KB per company schema,
    measured with 10,000 companies, and never given back while the connection lives): a connection
    that has served DB_CONNECTION_MAX_SCHEMAS companies is closed when its request ends (Django's
    own CONN_MAX_AGE closing, made due now) and the next request opens a fresh one."""
    conn = conn or connection
    raw = conn.connection
    if raw is None:
        return
    seen = getattr(raw, "_cms_schemas", None)
    if seen is None:
        seen = raw._cms_schemas = set()
    if schema in seen:
        return
    seen.add(schema)
    if len(seen) > settings.DB_CONNECTION_MAX_SCHEMAS:
        conn.close_at = time.monotonic()


def company_lock(kind: str, *names: str) -> None:
    """Hold, until this transaction ends, the advisory lock of `kind` (and `names`) in the
    connection's company: its schema is part of the key, so two companies never wait for each
    other. Callers that must not run at once for one company and thing take the same lock."""
    key = ":".join([kind, connection.schema_name, *map(str, names)])
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])
