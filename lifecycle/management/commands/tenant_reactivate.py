from lifecycle.management.commands.tenant_suspend import Command as SuspendCommand
from tenants.models import Client


class Command(SuspendCommand):
    help = "Reactivate a suspended company."
    status = Client.Status.ACTIVE
