"""What keeps the schema-per-company layout distributable by Citus schema-based sharding
(docs/scaling.md): every statement works inside one company's schema, joined at most with the
small reference tables of the public schema (which Citus copies to every node).

`problem(sql)` names what a statement does that would need two nodes: it names two different
company schemas, or it joins a company's table with a public table that is not a reference
table. The test suite checks every statement it issues with it (conftest.py).
"""
from __future__ import annotations

import re
from functools import lru_cache

from django.apps import apps
from django.conf import settings

# Public-schema tables that may be joined with a company's tables: small, read mostly, copied to
# every node as Citus reference tables.
REFERENCE_TABLES = frozenset({"tenants_client", "tenants_domain", "django_content_type"})

_DML = re.compile(r"^\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.I)
_COMPANY_SCHEMA = re.compile(r'"(t_[a-z0-9_]+)"\s*\.')


def _tables_of(app_labels: set[str]) -> set[str]:
    return {model._meta.db_table for model in apps.get_models(include_auto_created=True)
            if model._meta.app_label in app_labels}


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern | None, re.Pattern]:
    label = {config.name: config.label for config in apps.get_app_configs()}
    shared = {label[name] for name in settings.SHARED_APPS if name in label}
    tenant = {label[name] for name in settings.TENANT_APPS if name in label}
    public_only = _tables_of(shared - tenant) - _tables_of(tenant) - REFERENCE_TABLES - {"django_migrations"}
    company = _tables_of(tenant)

    def alternation(names):
        return re.compile(r'"(' + "|".join(sorted(map(re.escape, names))) + r')"') if names else None

    return alternation(public_only), alternation(company)


def problem(sql: str) -> str | None:
    """Why `sql` would span two Citus nodes, or None."""
    if not isinstance(sql, str) or not _DML.match(sql):
        return None
    schemas = set(_COMPANY_SCHEMA.findall(sql)) - {settings.TENANT_TEMPLATE_SCHEMA}
    if len(schemas) > 1:
        return f"names two company schemas: {', '.join(sorted(schemas))}"
    public_only, company = _patterns()
    if public_only is None:
        return None
    public_tables = set(public_only.findall(sql))
    if public_tables and (schemas or company.search(sql)):
        return f"joins a company's table with public tables that are not reference tables: {', '.join(sorted(public_tables))}"
    return None


def sql_statements(script: str) -> list[str]:
    """The statements of an SQL script, one per item, leading comment lines dropped (sqlparse
    splits it, dollar-quoted function bodies kept whole). Citus forwards a utility statement to
    the worker node with the text it was sent in, as a prepared statement: a script sent in one
    piece fails there ("cannot insert multiple commands into a prepared statement"), so the
    migrations' RunSQL and the provisioning template send their scripts statement by statement."""
    import sqlparse

    statements = []
    for statement in sqlparse.split(script):
        lines = statement.splitlines()
        while lines and (not lines[0].strip() or lines[0].lstrip().startswith("--")):
            lines.pop(0)
        text = "\n".join(lines).strip()
        if text and text != ";":
            statements.append(text)
    return statements
