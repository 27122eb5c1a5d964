from django.core.management.base import BaseCommand, CommandError

from apps.core.errors import ApplicationError
from lifecycle.schemas import RegisterClientIn
from tenants.addresses import tenant_base_url
from lifecycle.services import client_register


class Command(BaseCommand):
    help = "Create a company (tenant) with its first admin, as sign-up does."

    def add_arguments(self, parser):
        parser.add_argument("--subdomain", required=True)
        parser.add_argument("--name", required=True, help="company name")
        parser.add_argument("--contact-name", required=True)
        parser.add_argument("--contact-email", required=True)
        parser.add_argument("--admin-username", required=True)
        parser.add_argument("--admin-email", required=True)
        parser.add_argument("--admin-password", required=True)
        parser.add_argument("--plan", default=None)

    def handle(self, *args, **o):
        try:
            data = RegisterClientIn(
                companyName=o["name"], contactName=o["contact_name"], contactEmail=o["contact_email"],
                subdomain=o["subdomain"], adminUsername=o["admin_username"], adminEmail=o["admin_email"],
                adminPassword=o["admin_password"],
            )
        except Exception as exc:  # pydantic.ValidationError
            raise CommandError(str(exc)) from exc
        try:
            client = client_register(
                company_name=data.companyName, contact_name=data.contactName, contact_email=data.contactEmail,
                subdomain=data.subdomain, admin_username=data.adminUsername, admin_email=data.adminEmail,
                admin_password=data.adminPassword, plan=o["plan"], verified=True,
            )
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"Created {client.name}: {tenant_base_url(client.subdomain)}"))
