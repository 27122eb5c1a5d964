import importlib

from django.db import migrations, models

from apps.core.sharding import sql_statements

# Posts and pages: one content model, a `kind` column (apps.content.kinds). Every row written before
# is a post (the column's default), so no count and no listing row changes here.
#
# - Every list is of one kind: the kind leads the lists' indexes (the posts table's and the listing's),
#   so a posts list walks the same index range it walked before, past no page.
# - The trigger-kept counts (0003, 0004, 0008) keep one row per kind and status: a post's key is its
#   status as before, a page's `page:<status>` (apps.content.kinds.Kind.count_key), so every count a
#   posts list reads stays the posts' alone.
# - The listing (0014) keeps each row's kind, and is rewritten when a row's kind changes (the
#   pages_from_category command turns posts into pages).
KEY = "CASE WHEN {0}kind = 'post' THEN {0}status ELSE {0}kind || ':' || {0}status END"

SQL = r"""
CREATE OR REPLACE FUNCTION content_term_count_links() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  upsert text := 'INSERT INTO %1$I.%2$I AS c (%3$I, status, total) '
                 'SELECT r.term, KEY_P, %4$s count(*) FROM unnest($1, $2) AS r(post_id, term) '
                 'JOIN %1$I.content_post p ON p.id = r.post_id '
                 'GROUP BY r.term, KEY_P ORDER BY 1, 2 '
                 'ON CONFLICT (%3$I, status) DO UPDATE SET total = c.total + EXCLUDED.total';
  locking text := 'SELECT 1 FROM %1$I.content_post p WHERE p.id = ANY($1) ORDER BY p.id FOR NO KEY UPDATE';
  post_ids uuid[];
  term_ids uuid[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.%I', TG_TABLE_SCHEMA, TG_ARGV[0]);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    EXECUTE format('SELECT array_agg(post_id), array_agg(%I) FROM old_rows', TG_ARGV[1]) INTO post_ids, term_ids;
    IF post_ids IS NOT NULL THEN
      EXECUTE format(locking, TG_TABLE_SCHEMA) USING post_ids;
      EXECUTE format(upsert, TG_TABLE_SCHEMA, TG_ARGV[0], TG_ARGV[1], '-') USING post_ids, term_ids;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE format('SELECT array_agg(post_id), array_agg(%I) FROM new_rows', TG_ARGV[1]) INTO post_ids, term_ids;
    IF post_ids IS NOT NULL THEN
      EXECUTE format(locking, TG_TABLE_SCHEMA) USING post_ids;
      EXECUTE format(upsert, TG_TABLE_SCHEMA, TG_ARGV[0], TG_ARGV[1], '') USING post_ids, term_ids;
    END IF;
  END IF;
  RETURN NULL;
END
$body$;

CREATE OR REPLACE FUNCTION content_post_count_apply() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  statuses text := 'INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, sum(d) FROM unnest($1, $2) AS x(status, d) GROUP BY status HAVING sum(d) <> 0 '
                   'ORDER BY status ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total';
  terms text := 'INSERT INTO %1$I.%2$I AS c (%3$I, status, total) '
                'SELECT l.%3$I, x.status, sum(x.d) FROM unnest($1, $2, $3) AS x(id, status, d) '
                'JOIN %1$I.%4$I l ON l.post_id = x.id '
                'GROUP BY l.%3$I, x.status HAVING sum(x.d) <> 0 ORDER BY 1, 2 '
                'ON CONFLICT (%3$I, status) DO UPDATE SET total = c.total + EXCLUDED.total';
  status_of text[];   -- every row: +1 for its new count key, -1 for its old one
  delta_of integer[];
  changed_ids uuid[]; -- rows whose count key changed (all of them on INSERT and DELETE)
  changed_status text[];
  changed_delta integer[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.content_post_count', TG_TABLE_SCHEMA);
    RETURN NULL;  -- the link tables are truncated with it (CASCADE), and clear their own counts
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(id), array_agg(KEY_BARE), array_agg(1) INTO changed_ids, changed_status, changed_delta
      FROM new_rows;
    status_of := changed_status;
    delta_of := changed_delta;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id), array_agg(KEY_BARE), array_agg(-1) INTO changed_ids, changed_status, changed_delta
      FROM old_rows;
    status_of := changed_status;
    delta_of := changed_delta;
  ELSE
    SELECT array_agg(status), array_agg(d) INTO status_of, delta_of
      FROM (SELECT KEY_BARE AS status, 1 AS d FROM new_rows UNION ALL SELECT KEY_BARE, -1 FROM old_rows) x;
    SELECT array_agg(id), array_agg(status), array_agg(d) INTO changed_ids, changed_status, changed_delta
      FROM (SELECT n.id, KEY_N AS status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE KEY_O IS DISTINCT FROM KEY_N
            UNION ALL
            SELECT o.id, KEY_O, -1 FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE KEY_O IS DISTINCT FROM KEY_N) x;
  END IF;
  IF status_of IS NOT NULL THEN
    EXECUTE format(statuses, TG_TABLE_SCHEMA) USING status_of, delta_of;
  END IF;
  IF changed_ids IS NOT NULL THEN
    EXECUTE format(terms, TG_TABLE_SCHEMA, 'content_category_count', 'category_id', 'content_post_categories')
      USING changed_ids, changed_status, changed_delta;
    EXECUTE format(terms, TG_TABLE_SCHEMA, 'content_tag_count', 'tag_id', 'content_post_tags')
      USING changed_ids, changed_status, changed_delta;
  END IF;
  RETURN NULL;
END
$body$;

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
             OR o.created_at IS DISTINCT FROM n.created_at OR o.slug IS DISTINCT FROM n.slug
             OR o.kind IS DISTINCT FROM n.kind)) x;
  END IF;
  IF groups IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('INSERT INTO %I.content_post_group AS g (id) SELECT x.id FROM unnest($1) AS x(id) ORDER BY x.id '
                 'ON CONFLICT (id) DO UPDATE SET id = g.id', TG_TABLE_SCHEMA) USING groups;
  EXECUTE format('DELETE FROM %I.content_post_listing WHERE translation_group = ANY($1)', TG_TABLE_SCHEMA)
    USING groups;
  EXECUTE format('INSERT INTO %1$I.content_post_listing '
                 '(post_id, kind, created_at, language, translation_group, group_published, group_slugs) '
                 'SELECT p.id, p.kind, p.created_at, p.language, p.translation_group, '
                 'array_agg(p.language) OVER w, array_agg(p.slug) OVER w '
                 'FROM %1$I.content_post p WHERE p.translation_group = ANY($1) AND p.status = ''published'' '
                 'WINDOW w AS (PARTITION BY p.translation_group ORDER BY p.language '
                 'ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
                 TG_TABLE_SCHEMA) USING groups;
  RETURN NULL;
END
$body$;
""".replace("KEY_BARE", KEY.format("")).replace("KEY_P", KEY.format("p.").replace("'", "''")).replace(
    "KEY_N", KEY.format("n.")).replace("KEY_O", KEY.format("o."))


def _earlier(module: str) -> str:
    return importlib.import_module(f"apps.content.migrations.{module}").SQL


def _reverse_sql() -> list[str]:
    """The functions as 0008 and 0014 wrote them (the listing's own statements only: its function)."""
    listing = [s for s in sql_statements(_earlier("0014_post_listing")) if "CREATE OR REPLACE FUNCTION content_post_listing_apply" in s]
    return [*sql_statements(_earlier("0008_counts_from_arrays")), *listing]


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0015_canonical_url_rule'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_created_idx',
        ),
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_published_idx',
        ),
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_status_idx',
        ),
        migrations.RemoveIndex(
            model_name='post',
            name='content_post_language_idx',
        ),
        migrations.RemoveIndex(
            model_name='postlisting',
            name='content_post_listing_order_idx',
        ),
        migrations.AddField(
            model_name='post',
            name='kind',
            field=models.CharField(choices=[('post', 'Post'), ('page', 'Page')], db_default='post', default='post',
                                   max_length=8),
        ),
        migrations.AddField(
            model_name='postlisting',
            name='kind',
            field=models.CharField(default='post', max_length=8),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['kind', '-created_at'], name='content_post_created_idx'),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['kind', 'status', '-created_at', '-id'],
                               include=('language', 'translation_group'), name='content_post_status_idx'),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['kind', 'status', '-published_at', '-id'], name='content_post_published_idx'),
        ),
        migrations.AddIndex(
            model_name='post',
            index=models.Index(fields=['kind', 'language', 'status', '-created_at', '-id'],
                               name='content_post_language_idx'),
        ),
        migrations.AddIndex(
            model_name='postlisting',
            index=models.Index(fields=['kind', '-created_at', '-post_id'], include=('language', 'group_published'),
                               name='content_post_listing_order_idx'),
        ),
        migrations.RunSQL(sql_statements(SQL), _reverse_sql()),
    ]
