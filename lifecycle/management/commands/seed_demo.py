"""Create the demo company (`demo`) with a known admin login, then run the seed hooks of
settings.DEMO_SEED_HOOKS (dotted paths of callables taking the Client) inside its schema."""
from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string
from django_tenants.utils import tenant_context

from tenants.models import Client
from tenants.addresses import tenant_base_url
from lifecycle.services import client_register

DEMO = {
    "subdomain": "demo",
    "company_name": "Demo Company",
    "contact_name": "Demo Admin",
    "contact_email": "admin@example.com",
    "admin_username": "admin",
    "admin_email": "admin@example.com",
    "admin_password": "admin12345",
}


class Command(BaseCommand):
    help = "Create (or keep) the demo tenant and its sample content."

    def handle(self, *args, **options):
        client = Client.objects.filter(subdomain=DEMO["subdomain"]).first()
        if client is None:
            client = client_register(**DEMO, plan="business", verified=True)
            # A website to link feeds and the sitemap to (editable in Settings).
            client.website_url, client.post_url_template = "https://demo.example.com", "https://demo.example.com/blog/{slug}"
            client.save(update_fields=["website_url", "post_url_template"])
            self.stdout.write(self.style.SUCCESS("Created the demo company"))
        with tenant_context(client):
            for hook in settings.DEMO_SEED_HOOKS:
                import_string(hook)(client)
        self.stdout.write(
            f"Dashboard: {tenant_base_url(client.subdomain)}  login: {DEMO['admin_email']} / {DEMO['admin_password']}"
        )
