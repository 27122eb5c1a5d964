import getpass

from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import ValidationFailed
from lifecycle.operator.services import operator_create, provisioning_uri


class Command(BaseCommand):
    help = ("Create an account of the operator console (/operator/ on the root domain) and print the "
            "authenticator key to add to its owner's app (signing in always asks for a code).")

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--name", default="")
        parser.add_argument("--password", help="(default: asked for)")

    def handle(self, *args, **options):
        password = options["password"] or getpass.getpass("Password (12 characters or more): ")
        try:
            account, secret = operator_create(email=options["email"], password=password, name=options["name"])
        except ValidationFailed as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"Operator {account.email} created."))
        self.stdout.write(f"Authenticator key: {secret}")
        self.stdout.write(f"Or scan this address as a QR code: {provisioning_uri(account, secret)}")
