"""Batch migration (lifecycle/batch_migrate.py): company schemas that record the same migrations get
the SQL Django would run, collected once; the result is the schema Django's executor makes."""
import importlib
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django_tenants.utils import quote_schema_name

from lifecycle.batch_migrate import batch_migrate
from tenants.models import Client
from lifecycle.provisioning import expected_migrations_digest, schemas_behind

BACK_TO = ("content", "0006_post_review")  # content 0007 (two new tables) is plain SQL


def shape(schema: str) -> dict:
    """Columns, indexes, constraints and recorded migrations of `schema`, with its name taken out."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, '') "
            "FROM information_schema.columns WHERE table_schema = %s ORDER BY 1, 2", [schema])
        columns = cursor.fetchall()
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s ORDER BY 1", [schema])
        indexes = cursor.fetchall()
        cursor.execute(
            "SELECT c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c "
            "JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = %s ORDER BY 1", [schema])
        constraints = cursor.fetchall()
        cursor.execute(f"SELECT app, name FROM {quote_schema_name(schema)}.django_migrations ORDER BY 1, 2")
        recorded = cursor.fetchall()
    text = repr((columns, indexes, constraints, recorded)).replace(schema, "<schema>")
    return {"text": text, "tables": {row[0] for row in columns}, "recorded": recorded}


def roll_back(schema: str) -> None:
    call_command("migrate_schemas", *BACK_TO, schema_name=schema, interactive=False, verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_batch_gives_the_schema_djangos_executor_gives(make_tenant):
    a, b, c = (make_tenant().schema_name for _ in range(3))
    migrated = shape(a)
    for schema in (a, b, c):
        roll_back(schema)
    assert "content_postautosave" not in shape(a)["tables"]
    assert sorted(schemas_behind([a, b, c])) == sorted([a, b, c])

    assert batch_migrate([a, b]) == []  # both handled here, none left to the executor
    call_command("migrate_schemas", schema_name=c, interactive=False, verbosity=0)  # Django's executor

    assert schemas_behind([a, b, c]) == []
    digests = set(Client.objects.filter(schema_name__in=[a, b, c]).values_list("migrations_digest", flat=True))
    assert digests == {expected_migrations_digest()}  # each company's recorded digest, written with its migration
    assert shape(a)["text"] == shape(b)["text"] == shape(c)["text"] == migrated["text"]
    assert {"content_postautosave", "content_previewlink"} <= shape(b)["tables"]


@pytest.mark.django_db(transaction=True)
def test_a_schema_whose_statements_fail_is_rolled_back_and_left_to_the_executor(make_tenant):
    good, bad = (make_tenant().schema_name for _ in range(2))
    for schema in (good, bad):
        roll_back(schema)
    with connection.cursor() as cursor:  # a table in the way of content 0007's CREATE TABLE
        cursor.execute(f"CREATE TABLE {quote_schema_name(bad)}.content_previewlink (id int)")
    before = shape(bad)

    assert batch_migrate([good, bad]) == [bad]
    assert schemas_behind([good, bad]) == [bad]
    assert shape(bad) == before  # nothing of the plan stayed: not the first table, not a record
    assert "content_postautosave" not in before["tables"]


@pytest.mark.django_db(transaction=True)
def test_plans_that_are_not_plain_sql_go_to_the_executor(make_tenant, monkeypatch):
    schema = make_tenant().schema_name
    roll_back(schema)
    # A company app's migration that must run outside a transaction: not batched.
    module = importlib.import_module("apps.content.migrations.0007_editorial_autosave_preview_links")
    monkeypatch.setattr(module.Migration, "atomic", False)
    assert batch_migrate([schema]) == [schema]

    out = StringIO()
    call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", stdout=out)
    assert "migrating 1" in out.getvalue() and "applying" not in out.getvalue()
    assert schemas_behind([schema]) == []


@pytest.mark.django_db(transaction=True)
def test_public_schema_migrations_are_only_recorded_in_company_schemas(make_tenant):
    schema = make_tenant().schema_name
    table = f"{quote_schema_name(schema)}.django_migrations"
    with connection.cursor() as cursor:  # tenants (a public-schema app) 0006 and 0010 hold RunPython
        cursor.execute(f"DELETE FROM {table} WHERE app = 'tenants' AND name >= '0006'")
    Client.objects.filter(schema_name=schema).update(migrations_digest="")  # as a partial migration leaves it
    before = shape(schema)
    assert batch_migrate([schema]) == []  # their RunPython does not run in a company schema: batched
    assert schemas_behind([schema]) == []
    after = shape(schema)
    assert after["tables"] == before["tables"] and len(after["recorded"]) > len(before["recorded"])


@pytest.mark.django_db(transaction=True)
def test_migrate_schemas_batches_by_default_and_not_with_no_batch(make_tenant):
    schemas = [make_tenant().schema_name for _ in range(2)]
    for schema in schemas:
        roll_back(schema)
    out = StringIO()
    call_command("migrate_schemas", interactive=False, verbosity=1, executor="standard", stdout=out)
    assert "applying content.0007_editorial_autosave_preview_links to 2 schemas" in out.getvalue()
    assert schemas_behind(schemas) == []

    roll_back(schemas[0])
    out = StringIO()
    call_command("migrate_schemas", "--no-batch", interactive=False, verbosity=1, executor="standard", stdout=out)
    assert "applying" not in out.getvalue()
    assert schemas_behind(schemas) == []
