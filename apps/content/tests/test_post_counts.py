"""The post counts kept by triggers: per status (PostCount, migration 0003) and per category and
tag (migration 0004). After every kind of write, in every company's schema, they equal a count
of the posts."""
from __future__ import annotations

import pytest
from django.db import connection, transaction
from django_tenants.utils import schema_context

from apps.content.tests.factories import make_post
from apps.content.models import Post, PostCount
from apps.core.pagination import page_params


def counted(tenant) -> dict[str, int]:
    with schema_context(tenant.schema_name):
        return {row.status: row.total for row in PostCount.objects.all() if row.total}


def actual(tenant) -> dict[str, int]:
    with schema_context(tenant.schema_name):
        totals: dict[str, int] = {}
        for status in Post.objects.values_list("status", flat=True):
            totals[status] = totals.get(status, 0) + 1
        return totals


def test_counts_follow_every_kind_of_write(tenant):
    assert counted(tenant) == {}
    first = make_post(tenant, slug="a", status="published")
    make_post(tenant, slug="b", status="draft")
    assert counted(tenant) == actual(tenant) == {"published": 1, "draft": 1}
    with schema_context(tenant.schema_name):
        Post.objects.bulk_create([Post(title=f"Bulk {n}", slug=f"bulk-{n}", status="archived") for n in range(5)])
        assert counted(tenant) == {"published": 1, "draft": 1, "archived": 5}
        Post.objects.filter(status="archived").update(status="published")  # one statement, five rows
        assert counted(tenant) == {"published": 6, "draft": 1}
        Post.objects.filter(pk=first.pk).update(title="Only the title")  # no status change: no count change
        assert counted(tenant) == {"published": 6, "draft": 1}
        Post.objects.filter(slug__startswith="bulk-").delete()
        assert counted(tenant) == actual(tenant) == {"published": 1, "draft": 1}
        with connection.cursor() as cursor:  # whatever the caller's search_path, the company's own table
            cursor.execute("SET search_path = public")
            cursor.execute(f'UPDATE "{tenant.schema_name}"."content_post" SET status = %s', ["archived"])
            cursor.execute(f'SET search_path = "{tenant.schema_name}", public')
        assert counted(tenant) == actual(tenant) == {"archived": 2}
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # fire the deferred checks before TRUNCATE
            cursor.execute(f'TRUNCATE "{tenant.schema_name}"."content_post" CASCADE')
        assert counted(tenant) == actual(tenant) == {}


def test_a_rolled_back_write_leaves_the_counts_as_they_were(tenant):
    make_post(tenant, slug="kept", status="published")
    with pytest.raises(RuntimeError), transaction.atomic():
        make_post(tenant, slug="gone", status="published")
        assert counted(tenant) == {"published": 2}
        raise RuntimeError("roll back")
    assert counted(tenant) == actual(tenant) == {"published": 1}


def test_each_company_has_its_own_counts(tenant, other_tenant):
    make_post(tenant, slug="mine", status="published")
    for n in range(3):
        make_post(other_tenant, slug=f"theirs-{n}", status="draft")
    assert counted(tenant) == {"published": 1}
    assert counted(other_tenant) == {"draft": 3}


# --- per category and per tag (migration 0004) ----------------------------------------------------
def term_counted(tenant) -> dict[tuple[str, str], int]:
    """(term slug, status) -> total, from the trigger-kept counts of categories and tags."""
    with schema_context(tenant.schema_name), connection.cursor() as cursor:
        cursor.execute("SELECT t.slug, c.status, c.total FROM content_category_count c "
                       "JOIN content_category t ON t.id = c.category_id WHERE c.total <> 0 UNION ALL "
                       "SELECT t.slug, c.status, c.total FROM content_tag_count c "
                       "JOIN content_tag t ON t.id = c.tag_id WHERE c.total <> 0")
        return {(slug, status): total for slug, status, total in cursor.fetchall()}


def term_actual(tenant) -> dict[tuple[str, str], int]:
    totals: dict[tuple[str, str], int] = {}
    with schema_context(tenant.schema_name):
        for post in Post.objects.prefetch_related("categories", "tags"):
            for term in [*post.categories.all(), *post.tags.all()]:
                totals[(term.slug, post.status)] = totals.get((term.slug, post.status), 0) + 1
    return totals


def test_term_counts_follow_links_and_status_changes(tenant):
    from apps.content.tests.factories import make_category, make_tag

    news, howto, python = (make_category(tenant, slug="news"), make_category(tenant, slug="how-to"),
                           make_tag(tenant, slug="python"))
    first = make_post(tenant, slug="a", categories=[news], tags=[python], status="published")
    second = make_post(tenant, slug="b", status="draft", categories=[news, howto])
    assert term_counted(tenant) == term_actual(tenant) == {
        ("news", "published"): 1, ("python", "published"): 1, ("news", "draft"): 1, ("how-to", "draft"): 1}
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=second.pk).update(status="published")  # a status change moves its terms
        assert term_counted(tenant) == term_actual(tenant)
        first.categories.set([howto])  # links removed and added
        first.tags.clear()
        assert term_counted(tenant) == term_actual(tenant) == {("news", "published"): 1, ("how-to", "published"): 2}
        Post.objects.filter(pk=first.pk).delete()  # Django removes the links, then the post
        assert term_counted(tenant) == term_actual(tenant) == {("news", "published"): 1, ("how-to", "published"): 1}
        with connection.cursor() as cursor:  # raw SQL: the post first, then its links, in one transaction
            cursor.execute("DELETE FROM content_post WHERE id = %s", [second.id])
            cursor.execute("DELETE FROM content_post_categories WHERE post_id = %s", [second.id])
        assert term_counted(tenant) == term_actual(tenant) == {}
        bulk = Post.objects.bulk_create([Post(title=f"Bulk {n}", slug=f"bulk-{n}", status="archived") for n in range(4)])
        Post.categories.through.objects.bulk_create([Post.categories.through(post_id=p.id, category_id=news.id)
                                                     for p in bulk])
        assert term_counted(tenant) == term_actual(tenant) == {("news", "archived"): 4}
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f'TRUNCATE "{tenant.schema_name}"."content_post" CASCADE')
        assert term_counted(tenant) == term_actual(tenant) == {}


def test_term_counts_of_links_written_before_their_post(tenant):
    """Foreign keys are checked at commit: links may come first; the post's insert counts them."""
    import uuid

    from apps.content.tests.factories import make_category

    news = make_category(tenant, slug="news")
    post_id = uuid.uuid4()
    with schema_context(tenant.schema_name), connection.cursor() as cursor:
        cursor.execute("INSERT INTO content_post_categories (post_id, category_id) VALUES (%s, %s)", [post_id, news.id])
        Post.objects.create(id=post_id, title="Late", slug="late", status="published")
    assert term_counted(tenant) == term_actual(tenant) == {("news", "published"): 1}


def test_the_public_list_total_of_a_term_is_read_from_its_counts(tenant):
    from apps.content.tests.factories import make_category
    from apps.public_api import selectors

    news = make_category(tenant, slug="news")
    for n in range(3):
        make_post(tenant, slug=f"p{n}", categories=[news], status="draft" if n == 2 else "published")
    for filters, expected in (({"category_slug": "news"}, 2), ({"category_id": news.id}, 2),
                              ({"category_slug": "nothing"}, 0)):
        found = selectors.posts_filter(schema=tenant.schema_name, status="published", **filters)
        assert "content_category_count" in found.count_sql and "count(*)" not in found.count_sql
        # A page past the end: the total comes from the count statement alone.
        assert selectors.posts_page_rows(found, page_params(5, 1), with_total=True)[1] == expected


def test_a_term_page_reads_the_same_posts_whichever_way_it_is_read(tenant):
    """A large term's first pages walk the date index; a small term, or a deep page, reads the
    term's posts and sorts them. Both give the content app's posts, in its order."""
    from django.db import connection as db_connection
    from django.test.utils import CaptureQueriesContext

    from apps.content.tests.factories import make_category
    from apps.content import selectors as content_selectors
    from apps.public_api import selectors

    everywhere, rare = make_category(tenant, slug="everywhere"), make_category(tenant, slug="rare")
    for n in range(30):
        make_post(tenant, slug=f"p{n}", categories=[everywhere, rare] if n in (3, 17) else [everywhere], status="published")
    with schema_context(tenant.schema_name):
        expected = {slug: [str(post.id) for post in content_selectors.post_list(status="published", category=slug)]
                    for slug in ("everywhere", "rare")}
    for slug, page, walked in (("everywhere", page_params(1, 5), True), ("everywhere", page_params(6, 5), False),
                               ("rare", page_params(1, 5), False)):
        found = selectors.posts_filter(schema=tenant.schema_name, status="published", category_slug=slug)
        with CaptureQueriesContext(db_connection) as queries:
            rows, total = selectors.posts_page_rows(found, page, with_total=True)
        assert [str(row[0]) for row in rows] == expected[slug][page.offset:page.offset + page.limit]
        assert total == len(expected[slug])
        assert ("OFFSET 0) ORDER BY" in queries[-1]["sql"]) is walked, (slug, page)  # the fenced check
