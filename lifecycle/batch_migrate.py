"""Applying the same new migrations to thousands of identical company schemas.

django-tenants migrates one schema at a time through Django's MigrationExecutor, which renders
the whole project state for every schema: about 0.2 s of Python per schema before any SQL runs
(210 s for 1,000 companies with 2 processes). Company schemas are clones of one template, so the
schemas that record the same applied migrations need the same statements. This module:

1. groups the schemas that are behind by the set of migrations they recorded (one digest
   statement per schema, 500 per round trip: provisioning.schema_digests);
2. for each group, plans once on one schema of it and collects the SQL of that plan once, exactly
   as `sqlmigrate` prints it (MigrationLoader.collect_sql);
3. runs those statements plus the django_migrations rows in every schema of the group, one
   transaction per schema (`SET LOCAL search_path`: a statement never names two schemas), from a
   few threads, each with its own connection.

A group whose plan holds anything that is not plain SQL (RunPython, a non-atomic migration) is
left to django-tenants' executor: `batch_migrate` returns those schemas. Settings:
TENANT_MIGRATION_BATCH (on by default), TENANT_MIGRATION_THREADS.
"""
from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import psycopg
from django.conf import settings
from django.db import connection, router
from django.db.migrations.executor import MigrationExecutor
from django_tenants.utils import get_public_schema_name, quote_schema_name, schema_context

from tenants.models import Client
from lifecycle.provisioning import digest_sql, schema_digests

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GroupPlan:
    statements: list[str]  # the migrations' SQL, in order, unqualified (the schema comes from search_path)
    recorded: list[tuple[str, str]]  # (app, name) rows for django_migrations, as Django records them
    names: list[str]  # "app.name" of the migrations applied, for the log


def _plain_sql(plan) -> bool:
    """True when every migration of the plan that runs in a company schema is atomic and reduces
    to SQL (no RunPython). Called in a company's schema context: the migrations of the public
    schema's apps are only recorded there (django-tenants' router skips their operations)."""
    return all(
        not router.allow_migrate(connection.alias, migration.app_label)
        or (migration.atomic and not backwards and all(operation.reduces_to_sql for operation in migration.operations))
        for migration, backwards in plan
    )


def _collect_sql(executor, plan) -> list[str]:
    """The SQL of `plan`, from the state of every migration the schema has applied. (Django's
    loader.collect_sql starts from the first planned migration's ancestors only: an applied
    migration that is not one of them, e.g. members' tables when content is behind, is missing
    from that state, and a later migration referring to its models cannot be rendered.)"""
    statements: list[str] = []
    state = executor._create_project_state(with_applied_migrations=True)
    for migration, _backwards in plan:
        with connection.schema_editor(collect_sql=True, atomic=migration.atomic) as schema_editor:
            state = migration.apply(state, schema_editor, collect_sql=True)
        statements.extend(schema_editor.collected_sql)
    return statements


def plan_for(schema_name: str) -> GroupPlan | None:
    """The SQL that brings `schema_name` (and every schema recording the same migrations) up to
    date, or None when the plan must run through Django's executor."""
    with schema_context(schema_name):
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if not plan or not _plain_sql(plan):
            return None
        collected = _collect_sql(executor, plan)
    # What sqlmigrate prints, less its comment lines ("-- Add field ...", "-- (no-op)").
    statements = [sql for sql in collected if not sql.lstrip().startswith("--")]
    recorded: list[tuple[str, str]] = []
    for migration, _ in plan:
        # MigrationRecorder's rule: a squashed migration records the ones it replaces.
        recorded.extend(migration.replaces or [(migration.app_label, migration.name)])
    return GroupPlan(statements, recorded, [f"{m.app_label}.{m.name}" for m, _ in plan])


def _connect() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    return psycopg.connect(**params, autocommit=False)


def _apply(schemas: list[str], group: GroupPlan) -> list[str]:
    """Apply the group's plan to `schemas` over one connection; returns the schemas it failed on.
    The company's `migrations_digest` is written in the same transaction, from its schema."""
    failed = []
    insert = "INSERT INTO django_migrations (app, name, applied) VALUES (%s, %s, now())"
    # The digest is read from the schema, then written as a constant: one statement reading a
    # company's table and writing tenants_client (a reference table on Citus, docs/scaling.md)
    # would need two nodes ("cannot perform select on a distributed table and modify a
    # reference table").
    record = (f"UPDATE {quote_schema_name(get_public_schema_name())}.{Client._meta.db_table} "
              f"SET migrations_digest = %s WHERE schema_name = %s")
    with _connect() as conn:
        for schema in schemas:
            try:
                with conn.transaction(), conn.cursor() as cursor:
                    cursor.execute(f"SET LOCAL search_path TO {quote_schema_name(schema)}, public")
                    for statement in group.statements:
                        cursor.execute(statement)
                    cursor.executemany(insert, group.recorded)
                    cursor.execute(digest_sql(None))
                    cursor.execute(record, [cursor.fetchone()[0], schema])
            except psycopg.Error:
                logger.exception("batch migration of schema %s failed; it is left to the standard executor", schema)
                failed.append(schema)
    return failed


def batch_migrate(schema_names: list[str], *, digests: dict[str, str] | None = None, log=None) -> list[str]:
    """Migrate `schema_names` (company schemas that are behind) group by group; `digests`: what
    each records, when the caller has read it already (schema_digests). Returns the schemas still
    to migrate with django-tenants' executor (plans that are not plain SQL, and any schema whose
    statements failed: its transaction was rolled back)."""
    if digests is None:
        digests = schema_digests(schema_names)
    digests = {name: digests[name] for name in schema_names if name in digests}
    leftover = [name for name in schema_names if name not in digests]  # no django_migrations table yet
    by_digest: dict[str, list[str]] = {}
    for name, digest in digests.items():
        by_digest.setdefault(digest, []).append(name)
    threads = max(1, int(settings.TENANT_MIGRATION_THREADS))
    for schemas in by_digest.values():
        group = plan_for(schemas[0])
        if group is None:
            leftover.extend(schemas)
            continue
        if log:
            log(f"applying {', '.join(group.names)} to {len(schemas)} schemas "
                f"({len(group.statements)} statements each, {threads} connections)")
        slices = [schemas[index::threads] for index in range(threads)]
        with ThreadPoolExecutor(max_workers=threads) as pool:
            for failed in pool.map(lambda part: _apply(part, group), slices):
                leftover.extend(failed)
    return leftover
