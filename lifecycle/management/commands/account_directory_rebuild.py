"""Rewrite the public directory of accounts (tenants.AccountDirectory) from every company's users."""
from django.core.management.base import BaseCommand

from tenants.directory import directory_rebuild


class Command(BaseCommand):
    help = "Rewrite the directory of accounts (root-domain sign-in by email) from each company's users."

    def add_arguments(self, parser):
        parser.add_argument("subdomains", nargs="*", help="only these companies (default: every company)")

    def handle(self, *args, subdomains=None, **options):
        written = directory_rebuild(subdomains=subdomains or None)
        self.stdout.write(f"{written} account(s) written to the directory")
