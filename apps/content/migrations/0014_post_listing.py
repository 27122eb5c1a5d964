import django.contrib.postgres.fields
from django.db import migrations, models

from apps.core.sharding import sql_statements

# The published posts as a list along a fallback chain reads them (apps.content.models.PostListing),
# kept by statement-level triggers on the posts table in the writer's own transaction.
#
# A statement that publishes, unpublishes, inserts or deletes a published post, or moves one to
# another language, group, date or slug, rewrites the listing rows of the groups it touched from
# the posts table: which posts of each group are published, in which languages, with which slugs.
# Before that it locks the groups' rows of content_post_group, in order (an upsert creates a
# group's row the first time): two writers of one group take turns, and the second, a statement
# later, reads what the first committed (each statement of the function sees the latest commits).
# The lock never waits on a post's row, so a writer of one post and a writer of another post of
# its group cannot wait for each other in a circle. Row locks, not advisory locks: an import's one
# statement may touch ten thousand groups, past PostgreSQL's lock table.
#
# As the counters of 0008, the transition tables are read into an array first and the statements
# that name the schema's tables take it as a parameter (a trigger on a Citus table cannot join a
# transition table with them).
SQL = r"""
CREATE OR REPLACE FUNCTION content_post_listing_apply() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  groups uuid[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.content_post_listing', TG_TABLE_SCHEMA);
    EXECUTE format('DELETE FROM %I.content_post_group', TG_TABLE_SCHEMA);
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT translation_group) INTO groups FROM new_rows WHERE status = 'published';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT translation_group) INTO groups FROM old_rows WHERE status = 'published';
  ELSE
    SELECT array_agg(DISTINCT g) INTO groups FROM (
      SELECT unnest(ARRAY[o.translation_group, n.translation_group]) AS g
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.status = 'published' OR n.status = 'published')
        AND (o.status IS DISTINCT FROM n.status OR o.language IS DISTINCT FROM n.language
             OR o.translation_group IS DISTINCT FROM n.translation_group
             OR o.created_at IS DISTINCT FROM n.created_at OR o.slug IS DISTINCT FROM n.slug)) x;
  END IF;
  IF groups IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('INSERT INTO %I.content_post_group AS g (id) SELECT x.id FROM unnest($1) AS x(id) ORDER BY x.id '
                 'ON CONFLICT (id) DO UPDATE SET id = g.id', TG_TABLE_SCHEMA) USING groups;
  EXECUTE format('DELETE FROM %I.content_post_listing WHERE translation_group = ANY($1)', TG_TABLE_SCHEMA)
    USING groups;
  EXECUTE format('INSERT INTO %1$I.content_post_listing '
                 '(post_id, created_at, language, translation_group, group_published, group_slugs) '
                 'SELECT p.id, p.created_at, p.language, p.translation_group, '
                 'array_agg(p.language) OVER w, array_agg(p.slug) OVER w '
                 'FROM %1$I.content_post p WHERE p.translation_group = ANY($1) AND p.status = ''published'' '
                 'WINDOW w AS (PARTITION BY p.translation_group ORDER BY p.language '
                 'ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
                 TG_TABLE_SCHEMA) USING groups;
  RETURN NULL;
END
$body$;
CREATE TRIGGER content_post_listing_insert AFTER INSERT ON content_post
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_post_listing_apply();
CREATE TRIGGER content_post_listing_update AFTER UPDATE ON content_post
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_post_listing_apply();
CREATE TRIGGER content_post_listing_delete AFTER DELETE ON content_post
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION content_post_listing_apply();
CREATE TRIGGER content_post_listing_truncate AFTER TRUNCATE ON content_post
  FOR EACH STATEMENT EXECUTE FUNCTION content_post_listing_apply();
INSERT INTO content_post_listing (post_id, created_at, language, translation_group, group_published, group_slugs)
  SELECT p.id, p.created_at, p.language, p.translation_group, array_agg(p.language) OVER w, array_agg(p.slug) OVER w
  FROM content_post p WHERE p.status = 'published'
  WINDOW w AS (PARTITION BY p.translation_group ORDER BY p.language ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING);
ANALYZE content_post_listing;
"""

REVERSE = r"""
DROP TRIGGER content_post_listing_insert ON content_post;
DROP TRIGGER content_post_listing_update ON content_post;
DROP TRIGGER content_post_listing_delete ON content_post;
DROP TRIGGER content_post_listing_truncate ON content_post;
DROP FUNCTION content_post_listing_apply();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0013_search_vector_inline'),
    ]

    operations = [
        migrations.CreateModel(
            name='PostGroup',
            fields=[
                ('id', models.UUIDField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'content_post_group',
            },
        ),
        migrations.CreateModel(
            name='PostListing',
            fields=[
                ('post_id', models.UUIDField(primary_key=True, serialize=False)),
                ('created_at', models.DateTimeField()),
                ('language', models.CharField(max_length=35)),
                ('translation_group', models.UUIDField()),
                ('group_published', django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=35), size=None)),
                ('group_slugs', django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=255), size=None)),
            ],
            options={
                'db_table': 'content_post_listing',
                'indexes': [models.Index(fields=['-created_at', '-post_id'], include=('language', 'group_published'), name='content_post_listing_order_idx'), models.Index(fields=['translation_group'], name='content_post_listing_group_idx')],
            },
        ),
        migrations.RunSQL(sql_statements(SQL), sql_statements(REVERSE)),
    ]
