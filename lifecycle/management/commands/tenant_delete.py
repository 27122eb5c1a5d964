from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import NotFound
from lifecycle.deletion import client_delete
from lifecycle.services import client_get


class Command(BaseCommand):
    help = ("Delete one company for good: its schema, domains, media files, cache and Redis keys "
            "(queued tasks for it are dropped). --backup PATH writes a backup first.")

    def add_arguments(self, parser):
        parser.add_argument("subdomain")
        parser.add_argument("--backup", type=Path, help="write a backup (.tar.gz) here before deleting")
        parser.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    def handle(self, *args, **options):
        try:
            client = client_get(options["subdomain"])
        except NotFound as exc:
            raise CommandError(exc.message) from exc
        if not options["yes"]:
            answer = input(f"Delete {client.name} ({client.subdomain}) and all its data? Type the subdomain: ")
            if answer.strip() != client.subdomain:
                raise CommandError("Not confirmed: nothing was deleted")
        summary = client_delete(client=client, backup_path=options["backup"])
        backup = f", backup in {summary['backup']}" if "backup" in summary else ""
        self.stdout.write(self.style.SUCCESS(
            f"{client.subdomain}: deleted (schema {summary['schema']}, {summary['files']} files, "
            f"{summary['redis_keys']} Redis keys{backup})"))
