from django.db import migrations, models

from apps.core.sharding import sql_statements

# One function for the four triggers; it names the counter table with the schema of the posts
# table that fired it (TG_TABLE_SCHEMA), so it works the same in every company's schema and
# whatever the caller's search_path. The transition tables hold every row a statement touched.
FUNCTION = r"""
CREATE FUNCTION content_post_count_apply() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.content_post_count', TG_TABLE_SCHEMA);
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE format('INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, count(*) FROM new_rows GROUP BY status ORDER BY status '
                   'ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total', TG_TABLE_SCHEMA);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, -count(*) FROM old_rows GROUP BY status ORDER BY status '
                   'ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total', TG_TABLE_SCHEMA);
  ELSE
    EXECUTE format('INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, sum(d) FROM (SELECT status, 1 AS d FROM new_rows '
                   'UNION ALL SELECT status, -1 FROM old_rows) x GROUP BY status HAVING sum(d) <> 0 ORDER BY status '
                   'ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$body$;
CREATE TRIGGER content_post_count_insert AFTER INSERT ON content_post
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_post_count_apply();
CREATE TRIGGER content_post_count_update AFTER UPDATE ON content_post
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_post_count_apply();
CREATE TRIGGER content_post_count_delete AFTER DELETE ON content_post
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION content_post_count_apply();
CREATE TRIGGER content_post_count_truncate AFTER TRUNCATE ON content_post
  FOR EACH STATEMENT EXECUTE FUNCTION content_post_count_apply();
INSERT INTO content_post_count (status, total) SELECT status, count(*) FROM content_post GROUP BY status;
"""

REVERSE = r"""
DROP TRIGGER content_post_count_insert ON content_post;
DROP TRIGGER content_post_count_update ON content_post;
DROP TRIGGER content_post_count_delete ON content_post;
DROP TRIGGER content_post_count_truncate ON content_post;
DROP FUNCTION content_post_count_apply();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0002_post_slug_pattern_index'),
    ]

    operations = [
        migrations.CreateModel(
            name='PostCount',
            fields=[
                ('status', models.CharField(max_length=16, primary_key=True, serialize=False)),
                ('total', models.BigIntegerField(default=0)),
            ],
            options={
                'db_table': 'content_post_count',
            },
        ),
        # The triggers lock the posts table until the migration commits, so no write falls
        # between the first count and the first trigger.
        migrations.RunSQL(sql_statements(FUNCTION), sql_statements(REVERSE)),
    ]
