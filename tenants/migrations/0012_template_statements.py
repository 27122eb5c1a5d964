from django.db import migrations, models


class Migration(migrations.Migration):
    """The template's DDL kept as a list of statements (lifecycle/provisioning.py). A template built
    before has none: the next migrate_schemas or sign-up rebuilds it."""

    dependencies = [
        ('tenants', '0011_client_ghost_content_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='provisioningtemplate',
            name='statements',
            field=models.JSONField(default=list),
        ),
    ]
