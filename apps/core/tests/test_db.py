"""Prepared statements of the hot reads (apps.core.db): prepared once per connection and run on
their generic plan; nothing else is prepared; DB_PREPARED_STATEMENTS=0 turns them off."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError, connection, connections

from apps.content.tests.factories import make_post
from apps.core import db as hot_reads
from apps.core.pagination import page_params
from apps.public_api import selectors
from tenants.models import Client

ROOT = Path(__file__).resolve().parents[3]


def prepared() -> dict[str, tuple[int, int]]:
    """statement -> (generic plans, custom plans) of this connection's prepared statements."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
        return {statement: (generic, custom) for statement, generic, custom in cursor.fetchall()}


def test_a_hot_read_is_prepared_once_and_keeps_its_generic_plan(tenant):
    for n in range(3):
        make_post(tenant, slug=f"p{n}", status="published")
    found = selectors.posts_filter(schema=tenant.schema_name, status="published")
    for _ in range(6):
        rows, total = selectors.posts_page_rows(found, page_params(1, 2), with_total=True)
        assert (len(rows), total) == (2, 3)
    page_statements = {sql: plans for sql, plans in prepared().items() if f'"{tenant.schema_name}"."content_post"' in sql}
    assert len(page_statements) == 1  # one statement, prepared once, run six times
    assert list(page_statements.values()) == [(6, 0)]  # never planned again


def test_other_queries_are_not_prepared(tenant):
    before = set(prepared())
    assert Client.objects.filter(pk=tenant.pk).exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [41])
        assert cursor.fetchone() == (42,)
    assert set(prepared()) == before


def test_statements_name_their_schema_so_the_search_path_does_not_matter(tenant, other_tenant):
    make_post(tenant, "Mine", slug="same", status="published")
    make_post(other_tenant, "Theirs", slug="same", status="published")
    for path_of in (tenant, other_tenant):
        connection.set_tenant(path_of)
        for owner, title in ((tenant, "Mine"), (other_tenant, "Theirs")):
            found = selectors.posts_filter(schema=owner.schema_name, status="published")
            rows, _ = selectors.posts_page_rows(found, page_params(1, 10), with_total=False)
            assert [row[1] for row in rows] == [title]
    connection.set_schema_to_public()


def _options(**env) -> dict:
    code = ("import django; django.setup(); import json; from django.conf import settings; "
            "print(json.dumps(settings.DATABASES['default']['OPTIONS']))")
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
             "DJANGO_SETTINGS_MODULE": "config.settings", **env})
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_setting_turns_preparing_off():
    on, off = _options(), _options(DB_PREPARED_STATEMENTS="0")
    assert on["prepare_threshold"] == 0 and "plan_cache_mode=force_generic_plan" in on["options"]
    assert off["prepare_threshold"] is None and "plan_cache_mode" not in off.get("options", "")


def test_jit_is_off_on_the_applications_connections(db):
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)
    assert "jit=off" not in _options(DB_JIT="1")["options"]


def test_fetch_prepared_reads_rows(db):
    assert hot_reads.fetch_prepared("SELECT %s::text, 2", ["one"]) == [("one", 2)]


def _terminate(pid: int) -> None:
    """End the server process of a connection, as a restart or a failover does."""
    other = connection.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()


def test_a_hot_read_checks_its_own_connection_without_a_round_trip(transactional_db, monkeypatch):
    """Django's CONN_HEALTH_CHECKS costs a `SELECT 1` before a request's first statement; a hot
    read runs its statement at once, and a connection whose server went away is connected again
    and the statement run once more: the caller never sees the broken connection."""
    checks = []
    monkeypatch.setattr(type(connections["default"]), "is_usable", lambda self: checks.append(1) or True)
    assert hot_reads.fetch_prepared("SELECT %s::int", [1]) == [(1,)]
    connection.close_if_unusable_or_obsolete()  # a request ends: the next one would be checked again
    first = connection.connection.info.backend_pid
    _terminate(first)
    assert hot_reads.fetch_prepared("SELECT %s::int", [2]) == [(2,)]
    assert connection.connection.info.backend_pid != first
    assert checks == []  # no SELECT 1 before either statement


def test_a_connection_that_fails_again_raises_for_the_caller_to_answer(transactional_db, monkeypatch):
    assert hot_reads.fetch_prepared("SELECT 1", []) == [(1,)]
    _terminate(connection.connection.info.backend_pid)
    real = connection.ensure_connection
    tries = []

    def refused():
        tries.append(1)
        if len(tries) > 1:  # the server stays down after the first (still open) connection
            raise OperationalError("connection refused")
        real()

    monkeypatch.setattr(connection, "ensure_connection", refused)
    with pytest.raises(OperationalError):
        hot_reads.fetch_prepared("SELECT 1", [])
    monkeypatch.undo()
    connection.close()
