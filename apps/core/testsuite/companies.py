"""Companies for tests without running the template's DDL for each one.

A company's schema is ~150 relations: cloning the template for every test creates them and rolls
them back, which costs a few hundred milliseconds and leaves thousands of dead catalog rows. The
product already keeps spare schemas (lifecycle/provisioning.py: a sign-up renames a spare cloned
ahead of time), so each test database gets a few of its own (`testspare_...`) when it is set up.
A test that makes a company takes one through the product's own sign-up code; when the test's
transaction rolls back, the rename rolls back with it and the spare is there again for the next
test. Tests that commit (transaction=True) use spares up, and tests that flush the public tables
(every transaction=True test) remove their registration: `refresh()` after each test registers
them again and clones new ones.

The pool is not the product's (SCHEMA_POOL_SIZE stays 0 in the tests and nothing refills it in
the background); tests of the pool itself, or of the clone, ask for `no_spare_schemas`.
"""
from __future__ import annotations

from django.db import connection, transaction
from django_tenants.utils import quote_schema_name, schema_exists

PREFIX = "testspare_"


class TestCompanyPool:
    def __init__(self, size: int):
        self.size = size
        self.saved_template: dict | None = None
        self.cloned = 0  # spares cloned after the start (used up by tests that commit)

    def prepare(self) -> None:
        from tenants.models import ProvisioningTemplate
        from lifecycle.provisioning import template_current

        connection.set_schema_to_public()
        template = template_current()
        self.saved_template = ProvisioningTemplate.objects.filter(pk=template.pk).values().first()
        self.refresh(initial=True)

    def _template(self):
        """The template's row; put back as it was at the start when a flush removed it and the
        template schema still records the same migrations (else the product rebuilds it)."""
        from tenants.models import ProvisioningTemplate
        from lifecycle.provisioning import applied_migrations_digest, template_current

        saved = self.saved_template
        row = ProvisioningTemplate.objects.filter(schema_name=saved["schema_name"]).first()
        if row is not None:
            return row
        if (schema_exists(saved["schema_name"])
                and applied_migrations_digest(saved["schema_name"]) == saved["migrations_digest"]):
            return ProvisioningTemplate.objects.create(**saved)
        return template_current()

    def refresh(self, *, initial: bool = False) -> None:
        """After a test: the template's row there, every spare of the pool registered, the pool full."""
        from tenants.models import SpareSchema
        from lifecycle.provisioning import spare_create

        if connection.in_atomic_block:
            return
        connection.set_schema_to_public()
        template = self._template()
        rows = dict(SpareSchema.objects.filter(schema_name__startswith=PREFIX)
                    .values_list("schema_name", "migrations_digest"))
        with connection.cursor() as cursor:
            cursor.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE %s", [PREFIX.replace("_", "\\_") + "%"])
            schemas = {name for (name,) in cursor.fetchall()}
        if len(rows) == len(schemas) == self.size and set(rows.values()) == {template.migrations_digest}:
            return  # the usual case: nothing changed
        with transaction.atomic():
            SpareSchema.objects.filter(schema_name__in=set(rows) - schemas).delete()
            stale = {name for name, digest in rows.items() if digest != template.migrations_digest}
            SpareSchema.objects.filter(schema_name__in=stale).delete()
            with connection.cursor() as cursor:
                for name in stale:
                    cursor.execute(f"DROP SCHEMA IF EXISTS {quote_schema_name(name)} CASCADE")
            live = (schemas - stale)
            SpareSchema.objects.bulk_create(
                [SpareSchema(schema_name=name, migrations_digest=template.migrations_digest)
                 for name in sorted(live - set(rows))])
        for _ in range(self.size - len(live)):
            spare_create(template, prefix=PREFIX)
            if not initial:
                self.cloned += 1

    def hide(self) -> None:
        """Unregister the pool's spares until the next refresh (their schemas stay)."""
        from tenants.models import SpareSchema

        SpareSchema.objects.filter(schema_name__startswith=PREFIX).delete()
