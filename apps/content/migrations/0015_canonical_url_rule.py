from django.db import migrations

# Posts written before every writer applied the editor's rules (apps.content.rules) may hold a
# canonical URL the editor refuses (an import kept `javascript:...`): a value that is not an
# http(s) address with a host is cleared. Plain SQL, so a batch migration runs it with the rest
# (lifecycle/batch_migrate.py).
SQL = r"""UPDATE content_post SET canonical_url = ''
WHERE canonical_url <> '' AND canonical_url !~* '^https?://[^\s/?#@:]+'"""


class Migration(migrations.Migration):
    dependencies = [("content", "0014_post_listing")]

    operations = [migrations.RunSQL(SQL, migrations.RunSQL.noop)]
