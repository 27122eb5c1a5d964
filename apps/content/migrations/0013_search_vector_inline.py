# A post's search_vector is kept in its row: a search that walks the newest posts and tests each
# one (apps.public_api.selectors._walks) reads one heap page per post instead of three (heap, TOAST
# index, TOAST), and a search that reads every match rechecks each without TOAST.
# - toast_tuple_target 3 KB (PostgreSQL's default is 2 KB): a short post's row keeps its body
#   (compressed) and its search_vector, which the default moved out of the row (a 2 KB body and its
#   1 KB vector), so the Ghost browse, which reads each post's body, reads no TOAST either.
# - search_vector storage MAIN: when a long post does not fit, its body leaves the row first.
#   Citus does not pass ALTER ... SET STORAGE to its tables (feature_not_supported): there the
#   column keeps PostgreSQL's default (searches are the same, a long post's only slower to walk).
# Rows take both when next written.

from django.db import migrations

STORAGE = """DO $$
BEGIN
  ALTER TABLE content_post ALTER COLUMN search_vector SET STORAGE {storage};
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$"""


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0012_post_list_indexes'),
    ]

    operations = [
        migrations.RunSQL("ALTER TABLE content_post SET (toast_tuple_target = 3072)",
                          reverse_sql="ALTER TABLE content_post RESET (toast_tuple_target)"),
        migrations.RunSQL(STORAGE.format(storage="MAIN"), reverse_sql=STORAGE.format(storage="EXTENDED")),
    ]
