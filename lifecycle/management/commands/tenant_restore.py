from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import ApplicationError
from lifecycle.backup import tenant_restore


class Command(BaseCommand):
    help = ("Restore a company backup into a new company (--subdomain NEW) or back into the same one "
            "(--replace overwrites its rows and files).")

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--subdomain", help="restore under this subdomain (default: the backed-up one)")
        parser.add_argument("--replace", action="store_true", help="overwrite an existing company")

    def handle(self, *args, **options):
        try:
            client = tenant_restore(path=Path(options["file"]), subdomain=options["subdomain"],
                                    replace=options["replace"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored into {client.subdomain} ({client.schema_name})"))
