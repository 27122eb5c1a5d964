from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.migration_executors.standard import StandardExecutor as MigrationExecutor
from django_tenants.utils import quote_schema_name

from tenants.models import Client
from lifecycle.provisioning import expected_migrations_digest, schemas_behind


@pytest.mark.django_db(transaction=True)
def test_migrate_only_visits_schemas_that_are_behind(make_tenant, monkeypatch):
    tenants = [make_tenant() for _ in range(3)]
    names = [t.schema_name for t in tenants]
    assert schemas_behind(names) == []

    visited = []
    original = MigrationExecutor.run_migrations

    def record(self, tenants):
        visited.append(list(tenants))
        return original(self, tenants)

    monkeypatch.setattr(MigrationExecutor, "run_migrations", record)
    out = StringIO()
    call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", no_batch=True, stdout=out)
    assert "3 of 3 company schemas up to date; migrating 0" in out.getvalue()
    assert [v for v in visited if v != ["public"]] == []

    # One company misses a migration (a shared app's latest, which is a no-op in company
    # schemas): the next run migrates that company only, and afterwards it is up to date.
    behind = names[1]
    table = f"{quote_schema_name(behind)}.django_migrations"
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = (SELECT id FROM {table} WHERE app = 'tenants' "
                       "ORDER BY name DESC LIMIT 1)")
        assert cursor.rowcount == 1
    # What a failed or partial migration leaves: the company's recorded digest is not the code's.
    Client.objects.filter(schema_name=behind).update(migrations_digest="")
    assert schemas_behind(names) == [behind]
    visited.clear()
    out = StringIO()
    call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", no_batch=True, stdout=out)
    assert "2 of 3 company schemas up to date; migrating 1" in out.getvalue()
    assert [v for v in visited if v != ["public"]] == [[behind]]
    assert schemas_behind(names) == []


def test_schemas_without_migration_table_are_behind(db):
    with connection.cursor() as cursor:
        cursor.execute("CREATE SCHEMA t_empty_probe")
    assert schemas_behind(["t_empty_probe"]) == ["t_empty_probe"]


@pytest.mark.django_db(transaction=True)
def test_migrate_trusts_recorded_digests_and_checks_only_the_other_schemas(make_tenant):
    names = [make_tenant().schema_name for _ in range(3)]
    expected = expected_migrations_digest()
    assert list(Client.objects.filter(schema_name__in=names).values_list("migrations_digest", flat=True)) == [
        expected] * 3  # written at sign-up, from the template

    def company_statements() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            out = StringIO()
            call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", stdout=out)
        assert "3 of 3 company schemas up to date; migrating 0" in out.getvalue()
        return [q["sql"] for q in queries.captured_queries
                if any(f'"{name}".django_migrations' in q["sql"] for name in names)]

    assert company_statements() == []  # nothing to apply: no company schema is visited

    # A company whose recorded digest is not the code's is checked in its schema (one statement);
    # found up to date, its digest is written and nothing is migrated.
    Client.objects.filter(schema_name=names[0]).update(migrations_digest="")
    visited = company_statements()
    assert len(visited) == 1 and names[0] in visited[0]
    assert Client.objects.get(schema_name=names[0]).migrations_digest == expected
