"""A cloned tenant schema must be exactly what running every migration produces."""
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django_tenants.utils import quote_schema_name

from lifecycle.provisioning import _pg_dump_schema, applied_migrations_digest, expected_migrations_digest

# Companies here are cloned by the code under test, not taken from the run's spares.
pytestmark = pytest.mark.usefixtures("no_spare_schemas")


def _normalised(schema: str) -> list[str]:
    ddl = _pg_dump_schema(schema)
    ddl = re.sub(r"(?<![\w\"])%s\." % re.escape(schema), "SCHEMA.", ddl)
    lines = [line for line in ddl.splitlines() if line.strip() and not line.startswith(("--", "\\"))]
    return sorted(line.replace(schema, "SCHEMA") for line in lines)


@pytest.mark.django_db(transaction=True)
def test_clone_matches_a_schema_built_by_running_migrations(make_tenant):
    cloned = make_tenant()
    migrated = "t_migrated_reference"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP SCHEMA IF EXISTS {quote_schema_name(migrated)} CASCADE")
        cursor.execute(f"CREATE SCHEMA {quote_schema_name(migrated)}")
    try:
        call_command("migrate_schemas", schema_name=migrated, interactive=False, verbosity=0)
        connection.set_schema_to_public()
        assert _normalised(cloned.schema_name) == _normalised(migrated)
        assert applied_migrations_digest(cloned.schema_name) == expected_migrations_digest()
        # Sequences were moved past the copied migration rows: a new row does not collide.
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {quote_schema_name(cloned.schema_name)}.django_migrations (app, name, applied) "
                "VALUES ('probe', 'probe', now()) RETURNING id"
            )
            new_id = cursor.fetchone()[0]
            cursor.execute(f"SELECT max(id) FROM {quote_schema_name(migrated)}.django_migrations")
            assert new_id > cursor.fetchone()[0] - 1
    finally:
        connection.set_schema_to_public()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {quote_schema_name(migrated)} CASCADE")
