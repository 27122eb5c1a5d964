from django.db import migrations

from apps.core.sharding import sql_statements

# Published (and other) posts per category and per tag, kept by triggers as post_count is
# (0003): on the link tables (a post gains or loses a category or tag) and on the posts table
# (a post with links changes status, or is inserted or deleted while its links exist). Either
# order of a post and its links in a transaction counts once: the side written first finds
# nothing on the other side, the side written second counts.
#
# A link trigger locks the posts it counts (FOR NO KEY UPDATE, as an UPDATE of a post does), so
# a concurrent change of one of those posts' status is counted after it, never beside it.
SQL = r"""
LOCK TABLE content_post, content_post_categories, content_post_tags IN SHARE ROW EXCLUSIVE MODE;
CREATE TABLE content_category_count (
  category_id uuid NOT NULL, status varchar(16) NOT NULL, total bigint NOT NULL,
  CONSTRAINT content_category_count_pkey PRIMARY KEY (category_id, status));
CREATE TABLE content_tag_count (
  tag_id uuid NOT NULL, status varchar(16) NOT NULL, total bigint NOT NULL,
  CONSTRAINT content_tag_count_pkey PRIMARY KEY (tag_id, status));

-- TG_ARGV[0]: the count table, TG_ARGV[1]: the term column of the link table.
CREATE FUNCTION content_term_count_links() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  upsert text := 'INSERT INTO %1$I.%2$I AS c (%3$I, status, total) '
                 'SELECT r.%3$I, p.status, %4$s count(*) FROM %5$I r JOIN %1$I.content_post p ON p.id = r.post_id '
                 'GROUP BY r.%3$I, p.status ORDER BY 1, 2 '
                 'ON CONFLICT (%3$I, status) DO UPDATE SET total = c.total + EXCLUDED.total';
  locking text := 'SELECT 1 FROM %1$I.content_post p WHERE p.id IN (SELECT post_id FROM %2$I) '
                  'ORDER BY p.id FOR NO KEY UPDATE';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.%I', TG_TABLE_SCHEMA, TG_ARGV[0]);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    EXECUTE format(locking, TG_TABLE_SCHEMA, 'old_rows');
    EXECUTE format(upsert, TG_TABLE_SCHEMA, TG_ARGV[0], TG_ARGV[1], '-', 'old_rows');
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE format(locking, TG_TABLE_SCHEMA, 'new_rows');
    EXECUTE format(upsert, TG_TABLE_SCHEMA, TG_ARGV[0], TG_ARGV[1], '', 'new_rows');
  END IF;
  RETURN NULL;
END
$body$;

-- Posts: the per-status counts (0003), and now the per-term counts of posts that have links.
CREATE OR REPLACE FUNCTION content_post_count_apply() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  terms text := 'INSERT INTO %1$I.%2$I AS c (%3$I, status, total) '
                'SELECT l.%3$I, x.status, sum(x.d) FROM (%4$s) x JOIN %1$I.%5$I l ON l.post_id = x.id '
                'GROUP BY l.%3$I, x.status HAVING sum(x.d) <> 0 ORDER BY 1, 2 '
                'ON CONFLICT (%3$I, status) DO UPDATE SET total = c.total + EXCLUDED.total';
  changed text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('DELETE FROM %I.content_post_count', TG_TABLE_SCHEMA);
    RETURN NULL;  -- the link tables are truncated with it (CASCADE), and clear their own counts
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE format('INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, count(*) FROM new_rows GROUP BY status ORDER BY status '
                   'ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total', TG_TABLE_SCHEMA);
    changed := 'SELECT id, status, 1 AS d FROM new_rows';
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, -count(*) FROM old_rows GROUP BY status ORDER BY status '
                   'ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total', TG_TABLE_SCHEMA);
    changed := 'SELECT id, status, -1 AS d FROM old_rows';
  ELSE
    EXECUTE format('INSERT INTO %I.content_post_count AS c (status, total) '
                   'SELECT status, sum(d) FROM (SELECT status, 1 AS d FROM new_rows '
                   'UNION ALL SELECT status, -1 FROM old_rows) x GROUP BY status HAVING sum(d) <> 0 ORDER BY status '
                   'ON CONFLICT (status) DO UPDATE SET total = c.total + EXCLUDED.total', TG_TABLE_SCHEMA);
    changed := 'SELECT n.id, n.status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id '
               'WHERE o.status IS DISTINCT FROM n.status UNION ALL '
               'SELECT o.id, o.status, -1 FROM old_rows o JOIN new_rows n ON n.id = o.id '
               'WHERE o.status IS DISTINCT FROM n.status';
  END IF;
  EXECUTE format(terms, TG_TABLE_SCHEMA, 'content_category_count', 'category_id', changed, 'content_post_categories');
  EXECUTE format(terms, TG_TABLE_SCHEMA, 'content_tag_count', 'tag_id', changed, 'content_post_tags');
  RETURN NULL;
END
$body$;

CREATE TRIGGER content_category_count_insert AFTER INSERT ON content_post_categories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_term_count_links('content_category_count', 'category_id');
CREATE TRIGGER content_category_count_update AFTER UPDATE ON content_post_categories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_term_count_links('content_category_count', 'category_id');
CREATE TRIGGER content_category_count_delete AFTER DELETE ON content_post_categories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_term_count_links('content_category_count', 'category_id');
CREATE TRIGGER content_category_count_truncate AFTER TRUNCATE ON content_post_categories
  FOR EACH STATEMENT EXECUTE FUNCTION content_term_count_links('content_category_count', 'category_id');
CREATE TRIGGER content_tag_count_insert AFTER INSERT ON content_post_tags
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_term_count_links('content_tag_count', 'tag_id');
CREATE TRIGGER content_tag_count_update AFTER UPDATE ON content_post_tags
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_term_count_links('content_tag_count', 'tag_id');
CREATE TRIGGER content_tag_count_delete AFTER DELETE ON content_post_tags
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION content_term_count_links('content_tag_count', 'tag_id');
CREATE TRIGGER content_tag_count_truncate AFTER TRUNCATE ON content_post_tags
  FOR EACH STATEMENT EXECUTE FUNCTION content_term_count_links('content_tag_count', 'tag_id');

INSERT INTO content_category_count (category_id, status, total)
  SELECT l.category_id, p.status, count(*) FROM content_post_categories l JOIN content_post p ON p.id = l.post_id
  GROUP BY l.category_id, p.status;
INSERT INTO content_tag_count (tag_id, status, total)
  SELECT l.tag_id, p.status, count(*) FROM content_post_tags l JOIN content_post p ON p.id = l.post_id
  GROUP BY l.tag_id, p.status;
"""

REVERSE = r"""
DROP TRIGGER content_category_count_insert ON content_post_categories;
DROP TRIGGER content_category_count_update ON content_post_categories;
DROP TRIGGER content_category_count_delete ON content_post_categories;
DROP TRIGGER content_category_count_truncate ON content_post_categories;
DROP TRIGGER content_tag_count_insert ON content_post_tags;
DROP TRIGGER content_tag_count_update ON content_post_tags;
DROP TRIGGER content_tag_count_delete ON content_post_tags;
DROP TRIGGER content_tag_count_truncate ON content_post_tags;
DROP FUNCTION content_term_count_links();
DROP TABLE content_category_count;
DROP TABLE content_tag_count;
CREATE OR REPLACE FUNCTION content_post_count_apply() RETURNS trigger LANGUAGE plpgsql AS $body$
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
"""


class Migration(migrations.Migration):

    dependencies = [
        ('content', '0003_post_count'),
    ]

    operations = [
        migrations.RunSQL(sql_statements(SQL), sql_statements(REVERSE)),
    ]
