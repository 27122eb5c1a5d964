"""django-tenants' migrate_schemas, plus the provisioning template, and only the schemas
that need it.

Order: the public schema, then the template schema (migrated, then its DDL captured), then
the company schemas whose applied migrations differ from the code's (the companies'
`migrations_digest` column says which may be behind; only those are checked in their schema).
Those recording the same migrations get the same SQL, collected once and run in each
(lifecycle/batch_migrate.py); what is not plain SQL goes through django-tenants' executor, in
parallel with its multiprocessing executor. --no-batch sends every schema to the executor. A run
limited to one schema (-s), or with --plan/--check/--fake or a target migration, behaves exactly
like django-tenants' command (then the schema's digest is recorded again). --all-schemas visits
every company schema, as django-tenants does.
"""
from django.conf import settings
from django_tenants.management.commands import SyncCommon
from django_tenants.management.commands.migrate_schemas import GET_EXECUTOR_FUNCTION, MigrateSchemasCommand
from django_tenants.utils import get_public_schema_name

from lifecycle.batch_migrate import batch_migrate
from tenants.models import Client
from lifecycle.provisioning import companies_behind, digests_record, schema_digests, template_rebuild


class Command(MigrateSchemasCommand):
    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--all-schemas", action="store_true",
                            help="Run migrate on every company schema, even those already up to date.")
        parser.add_argument("--no-batch", action="store_true",
                            help="Migrate every schema through the executor, one migration plan per schema.")

    def handle(self, *args, **options):
        if options.get("schema_name") or options.get("migration_name") or options.get("plan") \
                or options.get("check_unapplied") or options.get("fake"):
            result = super().handle(*args, **options)
            if options.get("schema_name") and not options.get("plan") and not options.get("check_unapplied"):
                digests_record(schema_digests([options["schema_name"]]))
            return result
        only_tenants = options.get("tenant") and not options.get("shared")
        only_public = options.get("shared") and not options.get("tenant")
        if not only_tenants:
            super().handle(*args, **{**options, "shared": True, "tenant": False})
        if only_public:
            return None
        verbosity = int(options.get("verbosity", 1))
        if verbosity:
            self.stdout.write(self.style.NOTICE("=== Rebuilding the tenant provisioning template"))
        template_rebuild(verbosity=max(0, verbosity - 1))

        options = {**options, "shared": False, "tenant": True}
        options["executor"] = options.get("executor") or settings.TENANT_MIGRATION_EXECUTOR
        SyncCommon.handle(self, *args, **options)
        companies = Client.objects.exclude(schema_name=get_public_schema_name())
        if options.get("all_schemas"):
            todo, digests = list(companies.order_by("created_at").values_list("schema_name", flat=True)), None
        else:
            todo, digests = companies_behind()
        if verbosity:
            total = companies.count()
            self.stdout.write(self.style.NOTICE(
                f"=== {total - len(todo)} of {total} company schemas up to date; migrating {len(todo)}"
            ))
        if todo and settings.TENANT_MIGRATION_BATCH and not options.get("no_batch") \
                and not options.get("all_schemas"):
            todo = batch_migrate(todo, digests=digests, log=(self.stdout.write if verbosity else None))
        if not todo:
            return None
        executor = GET_EXECUTOR_FUNCTION(codename=self.executor)(self.args, self.options)
        executor.run_migrations(tenants=todo)
        digests_record(schema_digests(todo))
        return None
