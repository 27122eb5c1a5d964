"""Every company starts with one newsletter (its readers subscribe to it by default); a company
renames it, or adds others, from Newsletters. Plain SQL: the batched migration runs it in each
company schema (lifecycle/batch_migrate.py)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("newsletters", "0001_initial"),
    ]

    operations = [
        migrations.RunSQL(
            "INSERT INTO newsletters_newsletter (id, name, slug, description, sender_name, reply_to, header_image, "
            "footer, default_on_signup, status, sort_order, created_at, updated_at) "
            "SELECT gen_random_uuid(), 'Newsletter', 'newsletter', '', '', '', '', '', true, 'active', 0, now(), now() "
            "WHERE NOT EXISTS (SELECT 1 FROM newsletters_newsletter)",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
