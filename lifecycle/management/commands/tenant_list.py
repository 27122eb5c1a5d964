from django.core.management.base import BaseCommand

from tenants.models import Client


class Command(BaseCommand):
    help = "List companies (tenants): subdomain, schema, status, plan, created."

    def handle(self, *args, **options):
        rows = Client.objects.order_by("created_at").values_list(
            "subdomain", "schema_name", "status", "subscription_plan", "created_at", "name"
        )
        self.stdout.write(f"{'SUBDOMAIN':<24} {'SCHEMA':<26} {'STATUS':<10} {'PLAN':<11} {'CREATED':<20} NAME")
        for subdomain, schema, status, plan, created, name in rows:
            self.stdout.write(
                f"{subdomain:<24} {schema:<26} {status:<10} {plan:<11} {created:%Y-%m-%d %H:%M:%S}  {name}"
            )
