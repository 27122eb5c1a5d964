"""Fill the directory of accounts for the companies that existed before it (tenants.directory)."""
from django.db import migrations


def fill(apps, schema_editor):
    from tenants.directory import directory_rebuild

    directory_rebuild(client_model=apps.get_model("tenants", "Client"),
                      directory_model=apps.get_model("tenants", "AccountDirectory"))


class Migration(migrations.Migration):

    dependencies = [
        ("tenants", "0009_require_two_factor_account_directory"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
