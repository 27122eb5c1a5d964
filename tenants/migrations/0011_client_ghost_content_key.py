"""The key of the Ghost-compatible Content API (apps.ghost_api): a distinct one for every company,
the existing ones included."""
import secrets

from django.db import migrations, models

import tenants.models


def give_each_company_a_key(apps, schema_editor):
    Client = apps.get_model("tenants", "Client")
    for client in Client.objects.filter(ghost_content_key__isnull=True).only("pk"):
        client.ghost_content_key = secrets.token_hex(13)
        client.save(update_fields=["ghost_content_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("tenants", "0010_fill_account_directory"),
    ]

    operations = [
        migrations.AddField(
            model_name="client",
            name="ghost_content_key",
            field=models.CharField(max_length=26, null=True),
        ),
        migrations.RunPython(give_each_company_a_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="client",
            name="ghost_content_key",
            field=models.CharField(default=tenants.models.new_ghost_content_key, max_length=26, unique=True),
        ),
    ]
