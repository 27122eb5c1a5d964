# A post's search_vector is kept in its row (storage MAIN): a search that walks the newest posts
# and tests each one (apps.public_api.selectors._walks) reads one heap page per post instead of
# three (heap, TOAST index, TOAST), and a search that reads every match rechecks each without
# TOAST. The body (`content`, read only by the post itself) is moved out of the row first.
# Rows take it when next written. Citus does not pass ALTER ... SET STORAGE to its tables
# (feature_not_supported): there the column keeps PostgreSQL's default, searches are the same,
# only slower to walk.

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
        migrations.RunSQL(STORAGE.format(storage="MAIN"), reverse_sql=STORAGE.format(storage="EXTENDED")),
    ]
