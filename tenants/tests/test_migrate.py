from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django_tenants.migration_executors.standard import StandardExecutor as MigrationExecutor
from django_tenants.utils import quote_schema_name

from tenants.provisioning import schemas_behind


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
    call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", stdout=out)
    assert "3 of 3 company schemas up to date; migrating 0" in out.getvalue()
    assert [v for v in visited if v != ["public"]] == []

    # One company misses a migration (a shared app's, which is a no-op in company schemas):
    # the next run migrates that company only, and afterwards it is up to date.
    behind = names[1]
    with connection.cursor() as cursor:
        cursor.execute(
            # The app's newest migration (deleting an older one would leave an inconsistent history).
            f"DELETE FROM {quote_schema_name(behind)}.django_migrations WHERE id = (SELECT id FROM "
            f"{quote_schema_name(behind)}.django_migrations WHERE app = 'tenants' ORDER BY name DESC LIMIT 1)"
        )
        assert cursor.rowcount == 1
    assert schemas_behind(names) == [behind]
    visited.clear()
    out = StringIO()
    call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", stdout=out)
    assert "2 of 3 company schemas up to date; migrating 1" in out.getvalue()
    assert [v for v in visited if v != ["public"]] == [[behind]]
    assert schemas_behind(names) == []


def test_schemas_without_migration_table_are_behind(db):
    with connection.cursor() as cursor:
        cursor.execute("CREATE SCHEMA t_empty_probe")
    assert schemas_behind(["t_empty_probe"]) == ["t_empty_probe"]
