"""django-tenants' migrate_schemas, plus the provisioning template.

Order: the public schema, then the template schema (migrated, then its DDL captured), then
every tenant schema. A run limited to one schema (-s) behaves exactly like django-tenants'.
"""
from django_tenants.management.commands.migrate_schemas import MigrateSchemasCommand

from tenants.provisioning import template_rebuild


class Command(MigrateSchemasCommand):
    def handle(self, *args, **options):
        if options.get("schema_name") or options.get("migration_name") or options.get("plan") \
                or options.get("check_unapplied") or options.get("fake"):
            return super().handle(*args, **options)
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
        return super().handle(*args, **{**options, "shared": False, "tenant": True})
