"""The statement check the suite runs on every statement (conftest.py, apps/core/sharding.py)."""
from __future__ import annotations

import pytest
from django.db import connection

from apps.core import sharding
from apps.content.tests.factories import make_post


def test_one_company_and_reference_tables_pass():
    assert sharding.problem('SELECT * FROM "t_a"."content_post" WHERE id = 1') is None
    assert sharding.problem('SELECT d."domain" FROM "public"."tenants_domain" d JOIN "public"."tenants_client" c '
                            'ON c.id = d.tenant_id') is None
    assert sharding.problem('SELECT p.* FROM "t_a"."content_post" p JOIN "public"."tenants_client" c ON true') is None
    assert sharding.problem('CREATE TABLE "t_a"."x" (LIKE "t_b"."y")') is None  # DDL: provisioning, migrations


def test_two_company_schemas_are_refused():
    reason = sharding.problem('SELECT * FROM "t_a"."content_post" UNION ALL SELECT * FROM "t_b"."content_post"')
    assert reason == "names two company schemas: t_a, t_b"


def test_a_company_table_joined_with_a_public_table_that_is_not_a_reference_table_is_refused(monkeypatch):
    monkeypatch.setattr(sharding, "REFERENCE_TABLES", frozenset())
    sharding._patterns.cache_clear()
    try:
        reason = sharding.problem('SELECT * FROM "content_post" p JOIN "public"."tenants_client" c ON true')
        assert reason and "tenants_client" in reason
    finally:
        sharding._patterns.cache_clear()


def test_the_suite_sees_the_statements_of_a_request(api, tenant):
    """The reads of a real request pass the check (and are seen by it)."""
    make_post(tenant, "Mine", slug="mine", status="published")
    seen = []

    def spy(execute, sql, params, many, context):
        seen.append(sharding.problem(sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        assert api.get("/api/posts").status_code == 200
    assert seen and not any(seen)


@pytest.mark.django_db
def test_sql_names_no_company_schema_outside_a_statement():
    assert sharding.problem(None) is None


def test_every_migration_sends_its_sql_one_statement_at_a_time():
    """On Citus a RunSQL script of several statements fails on the workers ("cannot insert multiple
    commands into a prepared statement"): each RunSQL item holds one statement (sql_statements)."""
    from django.db import migrations as django_migrations
    from django.db.migrations.loader import MigrationLoader

    from apps.core.sharding import sql_statements

    loader = MigrationLoader(None, ignore_no_migrations=True)
    several = []
    for (app, name), migration in loader.disk_migrations.items():
        if app not in {"content", "media", "ai", "accounts", "analytics", "audit", "webhooks", "core", "tenants",
                       "portability", "plans", "operator"}:
            continue
        operations = list(migration.operations)
        for operation in operations:
            operations.extend(getattr(operation, "database_operations", []))
            if not isinstance(operation, django_migrations.RunSQL):
                continue
            for sql in (operation.sql, operation.reverse_sql):
                items = [sql] if isinstance(sql, str) else list(sql or [])
                for item in items:
                    text = item[0] if isinstance(item, (list, tuple)) else item
                    if isinstance(text, str) and len(sql_statements(text)) > 1:
                        several.append(f"{app}.{name}")
    assert several == [], f"RunSQL with several statements in one item: {sorted(set(several))}"
