from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import NotFound
from lifecycle.services import client_get, client_rotate_keys


class Command(BaseCommand):
    help = "Rotate a company's public content API key (and with --preview, its preview key)."

    def add_arguments(self, parser):
        parser.add_argument("subdomain")
        parser.add_argument("--preview", action="store_true", help="rotate the preview key too")
        parser.add_argument("--preview-only", action="store_true", help="rotate only the preview key")

    def handle(self, *args, **options):
        try:
            client = client_get(options["subdomain"])
        except NotFound as exc:
            raise CommandError(exc.message) from exc
        client = client_rotate_keys(
            client=client,
            content=not options["preview_only"],
            preview=options["preview"] or options["preview_only"],
        )
        self.stdout.write(f"content key: {client.api_key}\npreview key: {client.preview_key}")
