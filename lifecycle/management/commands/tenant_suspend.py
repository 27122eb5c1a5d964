from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import NotFound
from tenants.models import Client
from lifecycle.services import client_get, client_set_status


class Command(BaseCommand):
    help = "Suspend a company: its API answers 403 until it is reactivated."
    status = Client.Status.SUSPENDED

    def add_arguments(self, parser):
        parser.add_argument("subdomain")

    def handle(self, *args, **options):
        try:
            client = client_get(options["subdomain"])
        except NotFound as exc:
            raise CommandError(exc.message) from exc
        client_set_status(client=client, status=self.status)
        self.stdout.write(self.style.SUCCESS(f"{client.subdomain}: {client.status}"))
