from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import NotFound
from lifecycle.citus import Node, company_move, company_node, worker_nodes
from lifecycle.services import client_get


class Command(BaseCommand):
    help = ("Move one company's schema to another Citus worker node, online (docs/scaling.md): "
            "its readers and editors go on while it is copied.")

    def add_arguments(self, parser):
        parser.add_argument("subdomain")
        parser.add_argument("node", nargs="?", help="the target worker, host:port (without it: list the workers)")
        parser.add_argument("--mode", default="auto", choices=["auto", "force_logical", "block_writes"],
                            help="Citus's shard transfer mode (auto and force_logical keep writes going)")

    def handle(self, *args, **options):
        try:
            client = client_get(options["subdomain"])
        except NotFound as exc:
            raise CommandError(exc.message) from exc
        source = company_node(client.schema_name)
        if source is None:
            raise CommandError(f"{client.subdomain}: its schema is not a distributed schema (no Citus here?)")
        if not options["node"]:
            workers = ", ".join(str(node) for node in worker_nodes())
            self.stdout.write(f"{client.subdomain} ({client.schema_name}) is on {source}; workers: {workers}")
            return
        host, _, port = options["node"].rpartition(":")
        if not host or not port.isdigit():
            raise CommandError("node must be host:port")
        try:
            seconds = company_move(client.schema_name, Node(host, int(port)), mode=options["mode"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(
            f"{client.subdomain}: on {company_node(client.schema_name)} (from {source}, {seconds:.1f} s)"))
