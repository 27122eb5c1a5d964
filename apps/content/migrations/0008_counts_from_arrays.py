from django.db import migrations

from apps.core.sharding import sql_statements

# The counter triggers of 0003/0004, the same counts, with the transition tables read into arrays
# first. On Citus (a company's schema a distributed schema, docs/scaling.md) a trigger fires on
# the worker holding the company's tables, and a statement that joins a transition table with a
# table of the schema is planned by Citus, which cannot see the transition table ("executor could
# not find named tuplestore"). The rows are read into arrays by statements that name only the
# transition tables (plain PostgreSQL), then the counts are written from those arrays, passed as
# parameters. On one PostgreSQL the same functions give the same counts.
SQL = r"""
CREATE OR REPLACE FUNCTION content_term_count_links() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  upsert text := 'INSERT INTO %1$I.%2$I AS c (%3$I, status, total) '
                 'SELECT r.term, p.status, %4$s count(*) FROM unnest($1, $2) AS r(post_id, term) '
                 'JOIN %1$I.content_post p ON p.id = r.post_id '
                 'GROUP BY r.term, p.status ORDER BY 1, 2 '
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
  status_of text[];   -- every row: +1 for its new status, -1 for its old one
  delta_of integer[];
  changed_ids uuid[]; -- posts whose status changed (all of them on INSERT and DELETE)
  changed_status text[];
  changed_delta integer[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.content_post_count', TG_TABLE_SCHEMA);
    RETURN NULL;  -- the link tables are truncated with it (CASCADE), and clear their own counts
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(id), array_agg(status), array_agg(1) INTO changed_ids, changed_status, changed_delta
      FROM new_rows;
    status_of := changed_status;
    delta_of := changed_delta;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id), array_agg(status), array_agg(-1) INTO changed_ids, changed_status, changed_delta
      FROM old_rows;
    status_of := changed_status;
    delta_of := changed_delta;
  ELSE
    SELECT array_agg(status), array_agg(d) INTO status_of, delta_of
      FROM (SELECT status, 1 AS d FROM new_rows UNION ALL SELECT status, -1 FROM old_rows) x;
    SELECT array_agg(id), array_agg(status), array_agg(d) INTO changed_ids, changed_status, changed_delta
      FROM (SELECT n.id, n.status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE o.status IS DISTINCT FROM n.status
            UNION ALL
            SELECT o.id, o.status, -1 FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE o.status IS DISTINCT FROM n.status) x;
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
"""


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0007_editorial_autosave_preview_links'),
    ]

    # Going back leaves these functions in place: they count the same as those they replaced.
    operations = [
        migrations.RunSQL(sql_statements(SQL), migrations.RunSQL.noop),
    ]
