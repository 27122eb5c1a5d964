"""Create the demo company (`demo`) with a known admin login, then run the seed hooks of
settings.DEMO_SEED_HOOKS (dotted paths of callables taking the Client) inside its schema."""
from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string
from django_tenants.utils import tenant_context

from apps.accounts.models import User
from apps.accounts.profiles import author_profile_fill
from apps.site.services import site_settings_fill
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


# The demo site's settings and its admin's author profile (set where still empty: a demo edited in
# the dashboard keeps its changes when the command runs again).
DEMO_SITE = {
    "description": "Notes, guides and news from the demo company.",
    "navigation": [{"label": "Home", "url": "/"}, {"label": "Blog", "url": "/blog/"}],
    "secondary_navigation": [{"label": "RSS", "url": "/feeds/rss.xml"}],
}
DEMO_PROFILE = {"display_name": "Demo Admin", "bio": "Writes the demo company's posts.", "location": "Lisbon",
                "profile_image": "https://demo.example.com/images/demo-admin.png"}


def _seed_site(client) -> None:
    site_settings_fill(client=client, values=DEMO_SITE, social={"twitter": "@demo"})
    admin = User.objects.filter(email=DEMO["admin_email"]).first()
    if admin is not None:
        author_profile_fill(user=admin, values=DEMO_PROFILE)


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
            _seed_site(client)
            for hook in settings.DEMO_SEED_HOOKS:
                import_string(hook)(client)
        self.stdout.write(
            f"Dashboard: {tenant_base_url(client.subdomain)}  login: {DEMO['admin_email']} / {DEMO['admin_password']}"
        )
