from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import NotFound
from lifecycle.backup import tenant_backup
from lifecycle.services import client_get


class Command(BaseCommand):
    help = "Export one company (every row of its schema and its media files) to a .tar.gz file."

    def add_arguments(self, parser):
        parser.add_argument("subdomain")
        parser.add_argument("file", help="where to write the backup (.tar.gz)")

    def handle(self, *args, **options):
        try:
            client = client_get(options["subdomain"])
        except NotFound as exc:
            raise CommandError(exc.message) from exc
        summary = tenant_backup(client=client, path=Path(options["file"]))
        self.stdout.write(self.style.SUCCESS(
            f"{client.subdomain}: {summary.rows} rows in {summary.tables} tables, {summary.files} files -> {summary.path}"
        ))
