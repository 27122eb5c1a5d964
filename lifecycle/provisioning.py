"""Tenant schemas are created from a template schema instead of running every migration.

`migrate_schemas` migrates the template schema (`settings.TENANT_TEMPLATE_SCHEMA`) like any
tenant, then `template_rebuild()` captures its exact DDL with pg_dump (so constraint, index
and sequence names are the ones migrations produce) and the rows migrations seeded. A new
tenant is then: CREATE SCHEMA, the DDL with the schema name swapped, a copy of the seed
rows, all inside the caller's transaction. If the code's migrations differ from what the
template recorded, the template is rebuilt first, so a clone is never behind.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import shutil
import subprocess
from functools import lru_cache

from django.conf import settings
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django_tenants.utils import get_public_schema_name, quote_schema_name, schema_exists

from apps.core import db
from apps.core.sharding import sql_statements
from tenants.models import ProvisioningTemplate

logger = logging.getLogger(__name__)

_TEMPLATE_LOCK = 7_263_001  # pg advisory lock id guarding template rebuilds
_DROP_LINE = re.compile(
    r"^(--|\\restrict|\\unrestrict|SET |SELECT pg_catalog\.set_config|CREATE SCHEMA|ALTER SCHEMA|COMMENT ON SCHEMA)"
)


def template_schema() -> str:
    return settings.TENANT_TEMPLATE_SCHEMA


@lru_cache(maxsize=1)
def expected_migrations_digest() -> str:
    """Digest of every migration the code ships (what a fully migrated schema records)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    names = sorted(f"{app}.{name}" for app, name in loader.disk_migrations)
    return hashlib.md5("\n".join(names).encode(), usedforsecurity=False).hexdigest()


def digest_sql(quoted_schema: str | None) -> str:
    """The statement of a schema's digest (None: the schema of the search_path). The same string
    as expected_migrations_digest(): "app.name" lines in byte order (COLLATE "C")."""
    table = f"{quoted_schema}.django_migrations" if quoted_schema else "django_migrations"
    return (
        "SELECT md5(string_agg(app || '.' || name, E'\\n' ORDER BY (app || '.' || name) COLLATE \"C\")) "
        f"FROM {table}"
    )


def applied_migrations_digest(schema_name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(digest_sql(quote_schema_name(schema_name)))
        return cursor.fetchone()[0] or ""


def schema_digests(schema_names: list[str]) -> dict[str, str]:
    """The digest of the applied migrations of each schema that has a django_migrations table:
    one catalog query, then one digest statement per schema, sent 500 at a time in one round trip
    (psycopg's pipeline mode) instead of Django's per-schema catalog scans. One statement per
    schema: each reads a single company's schema, as Citus schema-based sharding needs
    (docs/scaling.md)."""
    if not schema_names:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relname = 'django_migrations' AND c.relkind = 'r' AND n.nspname = ANY(%s)",
            [list(schema_names)],
        )
        with_table = {row[0] for row in cursor.fetchall()}
    digests: dict[str, str] = {}
    names = [name for name in schema_names if name in with_table]
    for start in range(0, len(names), 500):
        chunk = names[start:start + 500]
        with connection.connection.pipeline():
            cursors = [connection.cursor() for _ in chunk]
            for each, name in zip(cursors, chunk):
                each.execute(digest_sql(quote_schema_name(name)))
            for each, name in zip(cursors, chunk):
                digests[name] = each.fetchone()[0] or ""
                each.close()
    return digests


def schemas_behind(schema_names: list[str]) -> list[str]:
    """The schemas whose applied migrations differ from the code's (schema_digests)."""
    digests = schema_digests(schema_names)
    expected = expected_migrations_digest()
    return [name for name in schema_names if digests.get(name) != expected]


def digests_record(digests: dict[str, str]) -> None:
    """Write what each schema records (schema_digests) into its company's `migrations_digest`."""
    from tenants.models import Client

    if not digests:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Client._meta.db_table} c SET migrations_digest = d.digest "
            "FROM unnest(%s::text[], %s::text[]) AS d(schema_name, digest) WHERE c.schema_name = d.schema_name",
            [list(digests), list(digests.values())])


def companies_behind() -> tuple[list[str], dict[str, str]]:
    """The company schemas to migrate, and the digest each records. One query on the companies'
    `migrations_digest`; only those not at the code's digest are checked in their schema (one
    statement each, schema_digests), and those found up to date get the column written."""
    from tenants.models import Client

    expected = expected_migrations_digest()
    candidates = list(Client.objects.exclude(schema_name=get_public_schema_name())
                      .exclude(migrations_digest=expected).order_by("created_at")
                      .values_list("schema_name", flat=True))
    digests = schema_digests(candidates)
    digests_record({name: digest for name, digest in digests.items() if digest == expected})
    return [name for name in candidates if digests.get(name) != expected], digests


def _pg_dump_schema(schema_name: str) -> str:
    db = connection.settings_dict
    pg_dump = shutil.which(os.environ.get("PG_DUMP", "pg_dump"))
    if not pg_dump:
        raise RuntimeError("pg_dump is needed to build the tenant template (install the PostgreSQL client)")
    command = [pg_dump, "--schema-only", "--no-owner", "--no-privileges", "--schema", schema_name]
    if db.get("HOST"):
        command += ["--host", db["HOST"]]
    if db.get("PORT"):
        command += ["--port", str(db["PORT"])]
    if db.get("USER"):
        command += ["--username", db["USER"]]
    command.append(db["NAME"])
    environment = {**os.environ, "PGPASSWORD": db.get("PASSWORD") or "", "PGCONNECT_TIMEOUT": "10"}
    result = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"pg_dump failed: {result.stderr.strip()}")
    return result.stdout


def _clean_ddl(dump: str) -> str:
    kept = [line for line in dump.splitlines() if not _DROP_LINE.match(line)]
    return "\n".join(line for line in kept if line.strip()) + "\n"


# pg_dump writes an identity column as a plain column, then `ALTER TABLE ... ALTER COLUMN ... ADD
# GENERATED ... AS IDENTITY (...)`. Citus refuses that ALTER on a table of a distributed schema
# (the table is distributed as soon as it is created): the identity goes into the column's
# definition in CREATE TABLE instead, where migrations put it. The same statements on one PostgreSQL.
_ADD_IDENTITY = re.compile(
    r"^ALTER TABLE (?:ONLY )?(?P<table>\S+) ALTER COLUMN (?P<column>\S+) ADD "
    r"(?P<identity>GENERATED (?:BY DEFAULT|ALWAYS) AS IDENTITY\s*\(.*\))\s*;?\s*$", re.S)
_CREATE_TABLE = re.compile(r"^CREATE TABLE (?P<table>\S+) \(")


def template_statements(ddl: str) -> list[str]:
    """The template's DDL as the statements a clone runs one by one (Citus forwards each to the
    schema's worker; apps.core.sharding.sql_statements), identity columns folded into their
    CREATE TABLE."""
    identities: dict[str, dict[str, str]] = {}
    statements = []
    for statement in sql_statements(ddl):
        match = _ADD_IDENTITY.match(statement)
        if match:
            identities.setdefault(match["table"], {})[match["column"]] = " ".join(match["identity"].split())
        else:
            statements.append(statement)
    for index, statement in enumerate(statements):
        match = _CREATE_TABLE.match(statement)
        if not match or match["table"] not in identities:
            continue
        for column, identity in identities.pop(match["table"]).items():
            statement, found = re.subn(rf"^(\s+{re.escape(column)} [^\n]*?) NOT NULL(,?)$",
                                       lambda m: f"{m[1]} {identity} NOT NULL{m[2]}", statement, count=1, flags=re.M)
            if not found:
                raise RuntimeError(f"identity column {column} not found in CREATE TABLE {match['table']}")
        statements[index] = statement
    if identities:
        raise RuntimeError(f"identity columns of tables the dump does not create: {sorted(identities)}")
    return statements


def _swap_schema(ddl: str, source: str, target: str) -> str:
    pattern = re.compile(r'(?<![\w"])(?:"%s"|%s)\.' % (re.escape(source), re.escape(source)))
    return pattern.sub(quote_schema_name(target) + ".", ddl)


def _seed_tables(schema_name: str) -> list[list]:
    """Tables of the template that hold rows (migration records, seeded rows), with their
    identity/serial columns, so clones copy the rows and move the sequences past them."""
    quoted = quote_schema_name(schema_name)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY c.relname",
            [schema_name],
        )
        tables = [row[0] for row in cursor.fetchall()]
        seeded = []
        for table in tables:
            cursor.execute(f'SELECT EXISTS (SELECT 1 FROM {quoted}."{table}")')
            if not cursor.fetchone()[0]:
                continue
            cursor.execute(
                "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped "
                "AND (a.attidentity <> '' OR pg_get_serial_sequence(quote_ident(n.nspname) || '.' "
                "|| quote_ident(c.relname), a.attname) IS NOT NULL)",
                [schema_name, table],
            )
            seeded.append([table, [row[0] for row in cursor.fetchall()]])
    return seeded


def template_rebuild(*, verbosity: int = 0, force: bool = False) -> ProvisioningTemplate:
    """Migrate the template schema and capture its DDL. Called by migrate_schemas; a no-op
    when the template already records every migration the code ships."""
    from django.core.management import call_command

    name = template_schema()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [_TEMPLATE_LOCK])
    try:
        connection.set_schema_to_public()
        current = ProvisioningTemplate.objects.filter(schema_name=name).first()
        if (not force and current is not None and current.migrations_digest == expected_migrations_digest()
                and current.statements and schema_exists(name) and schemas_behind([name]) == []):
            return current
        if not schema_exists(name):
            with connection.cursor() as cursor:
                cursor.execute(f"CREATE SCHEMA {quote_schema_name(name)}")
        call_command("migrate_schemas", schema_name=name, interactive=False, verbosity=verbosity)
        connection.set_schema_to_public()
        ddl = _clean_ddl(_pg_dump_schema(name))
        template, _ = ProvisioningTemplate.objects.update_or_create(
            schema_name=name,
            defaults={
                "ddl": ddl,
                "statements": template_statements(ddl),
                "seed_tables": _seed_tables(name),
                "migrations_digest": applied_migrations_digest(name),
            },
        )
        return template
    finally:
        connection.set_schema_to_public()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [_TEMPLATE_LOCK])


def template_current() -> ProvisioningTemplate:
    """The template, rebuilt first when the code ships migrations it has not applied."""
    template = ProvisioningTemplate.objects.filter(schema_name=template_schema()).first()
    if template is None or template.migrations_digest != expected_migrations_digest() or not template.statements:
        logger.warning("Tenant template missing or behind the code's migrations: rebuilding it")
        template = template_rebuild()
        if template.migrations_digest != expected_migrations_digest():
            raise RuntimeError("The tenant template does not match the code's migrations after a rebuild")
    return template


def schema_create_from_template(schema_name: str, template: ProvisioningTemplate) -> None:
    """Create `schema_name` as a copy of the template: a spare of the pool renamed (a few
    milliseconds), or the template's DDL run (a few hundred on a busy machine). Must run inside a
    transaction owned by the caller, so that a failure later in provisioning leaves no schema
    behind (and a spare it took goes back to the pool). The caller writes the company's row with
    `migrations_digest=template.migrations_digest`."""
    if not connection.in_atomic_block:
        raise RuntimeError("schema_create_from_template must run inside transaction.atomic()")
    if not _spare_take(schema_name, template):
        _clone(schema_name, template)
    # The company's row records the template's digest (Client.migrations_digest): its creator writes
    # it with the row's INSERT (no UPDATE of the shared companies table here: docs/scaling.md).
    if settings.SCHEMA_POOL_SIZE:
        # Robust: a broker down then must not fail the sign-up that committed; beat refills the pool.
        transaction.on_commit(_refill_soon, robust=True)


def _clone(schema_name: str, template: ProvisioningTemplate) -> None:
    target = quote_schema_name(schema_name)
    source = quote_schema_name(template.schema_name)
    # The session that creates a schema keeps its relations in its caches, as one that reads it does:
    # counted with the companies it served (DB_CONNECTION_MAX_SCHEMAS), it is replaced in time.
    db.schema_visited(schema_name)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE SCHEMA {target}")
        # One statement at a time (Citus), sent together in one round trip (psycopg's pipeline).
        with connection.connection.pipeline():
            for statement in template.statements:
                cursor.execute(_swap_schema(statement, template.schema_name, schema_name))
        for table, serial_columns in template.seed_tables:
            cursor.execute(f'INSERT INTO {target}."{table}" SELECT * FROM {source}."{table}"')
            for column in serial_columns:
                sequence_catch_up(cursor, f'{target}."{table}"', column)


def sequence_catch_up(cursor, quoted_table: str, column: str) -> None:
    """Move the sequence of an identity/serial column past the rows loaded by hand. Two
    statements: the highest value is read from the table, then the sequence set with it as a
    constant, so setval runs where the sequence is kept (on Citus, the coordinator; in one
    statement with the table, Citus would run it on the worker, whose copy of the sequence has a
    range of its own)."""
    cursor.execute(f'SELECT max("{column}") FROM {quoted_table}')
    highest = cursor.fetchone()[0]
    cursor.execute("SELECT setval(pg_get_serial_sequence(%s, %s), %s, %s)",
                   [quoted_table, column, highest or 1, highest is not None])


# --- The pool of spare schemas ---------------------------------------------------------------------
# Sign-up time is mostly PostgreSQL creating ~150 relations. SCHEMA_POOL_SIZE schemas are cloned
# ahead of time (Celery: after each sign-up that took one, and every SCHEMA_POOL_CHECK_SECONDS by
# beat); a sign-up takes one (FOR UPDATE SKIP LOCKED: two sign-ups never take the same) and renames
# it. Renaming is safe: tables, sequences, defaults and triggers point at each other by OID, and the
# trigger functions name their schema through TG_TABLE_SCHEMA. A spare cloned from an older template
# (other migrations) is never taken, and is dropped by the next refill.
SPARE_PREFIX = "spare_"
REFILL_TASK = "tenants.refill_schema_pool"


def _spare_take(schema_name: str, template: ProvisioningTemplate) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM tenants_spareschema WHERE id = (SELECT id FROM tenants_spareschema "
            "WHERE migrations_digest = %s ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING schema_name",
            [template.migrations_digest])
        row = cursor.fetchone()
        if row is None:
            return False
        cursor.execute(f"ALTER SCHEMA {quote_schema_name(row[0])} RENAME TO {quote_schema_name(schema_name)}")
    return True


def _refill_soon() -> None:
    from apps.core.task_queue import send_by_name

    send_by_name(REFILL_TASK, args=[])


def schema_pool_refill(*, size: int | None = None) -> int:
    """Drop spares of older templates, then clone until the pool holds `size` (SCHEMA_POOL_SIZE)
    current ones; each in its own transaction. Returns how many it cloned."""
    from tenants.models import SpareSchema

    size = settings.SCHEMA_POOL_SIZE if size is None else size
    template = template_current()
    for spare in SpareSchema.objects.exclude(migrations_digest=template.migrations_digest):
        with transaction.atomic():
            if SpareSchema.objects.filter(pk=spare.pk).select_for_update(skip_locked=True).delete()[0]:
                with connection.cursor() as cursor:
                    cursor.execute(f"DROP SCHEMA IF EXISTS {quote_schema_name(spare.schema_name)} CASCADE")
    made = 0
    while SpareSchema.objects.filter(migrations_digest=template.migrations_digest).count() < size:
        spare_create(template)
        made += 1
    return made


def spare_create(template: ProvisioningTemplate, *, prefix: str = SPARE_PREFIX) -> str:
    """Clone one spare schema from the template and put it in the pool (its own transaction)."""
    from tenants.models import SpareSchema

    name = prefix + secrets.token_hex(8)
    with transaction.atomic():
        _clone(name, template)
        SpareSchema.objects.create(schema_name=name, migrations_digest=template.migrations_digest)
    return name
