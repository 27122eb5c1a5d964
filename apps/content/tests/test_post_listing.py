"""The published posts' listing kept by triggers (apps.content.models.PostListing, migration 0014):
after every kind of write, in every company's schema, also when writers of one translation group
commit at once, it holds each published post with the languages its group is published in, which
`?locale=` lists read (docs/translations.md)."""
from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import psycopg
import pytest
from django.db import connection, transaction
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_post


def listed(tenant) -> dict[str, tuple]:
    """post id -> (language, group, created_at, the group's published languages, their slugs), as
    kept."""
    with schema_context(tenant.schema_name), connection.cursor() as cursor:
        cursor.execute("SELECT post_id, language, translation_group, created_at, group_published, group_slugs "
                       "FROM content_post_listing")
        return {str(row[0]): (row[1], str(row[2]), row[3], row[4], row[5]) for row in cursor.fetchall()}


def actual(tenant) -> dict[str, tuple]:
    """The same, worked out from the posts (each group's languages in PostgreSQL's order, as the
    translations of the public API's replies are)."""
    with schema_context(tenant.schema_name):
        published = list(Post.objects.filter(status=Post.Status.PUBLISHED).order_by("translation_group", "language")
                         .values_list("id", "language", "translation_group", "created_at", "slug"))
    members: dict[str, list[tuple[str, str]]] = {}
    for _, language, group, _, slug in published:
        members.setdefault(str(group), []).append((language, slug))
    return {str(pk): (language, str(group), created_at, [m[0] for m in members[str(group)]],
                      [m[1] for m in members[str(group)]])
            for pk, language, group, created_at, _ in published}


def _translation(tenant, source: Post, language: str, **fields) -> Post:
    post = make_post(tenant, slug=f"{source.slug}-{language.lower()}", language=language, **fields)
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post.pk).update(translation_group=source.translation_group)
    post.translation_group = source.translation_group
    return post


def test_the_listing_follows_every_kind_of_write(tenant):
    assert listed(tenant) == {}
    launch = make_post(tenant, slug="launch", status="published")
    french = _translation(tenant, launch, "fr", status="draft")
    german = _translation(tenant, launch, "de", status="published")
    make_post(tenant, slug="alone", status="draft")
    assert listed(tenant) == actual(tenant)
    assert {row[0]: (row[3], row[4]) for row in listed(tenant).values()} == {
        "en": (["de", "en"], ["launch-de", "launch"]), "de": (["de", "en"], ["launch-de", "launch"])}
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=french.pk).update(status="published")  # the group gains French
        assert listed(tenant) == actual(tenant)
        assert listed(tenant)[str(launch.pk)][3] == ["de", "en", "fr"]
        Post.objects.filter(pk=launch.pk).update(title="Only the title")  # nothing the listing holds
        Post.objects.filter(pk=french.pk).update(slug="lancement")  # its translations' slugs
        assert listed(tenant) == actual(tenant)
        assert listed(tenant)[str(german.pk)][4] == ["launch-de", "launch", "lancement"]
        Post.objects.filter(pk=german.pk).update(language="pt-BR")  # another language
        assert listed(tenant) == actual(tenant)
        Post.objects.filter(pk=german.pk).update(translation_group=uuid.uuid4())  # leaves the group
        assert listed(tenant) == actual(tenant)
        assert listed(tenant)[str(launch.pk)][3] == ["en", "fr"]
        Post.objects.filter(pk=launch.pk).update(created_at=timezone.now() - timedelta(days=3))  # an import's date
        assert listed(tenant) == actual(tenant)
        Post.objects.bulk_create([Post(title=f"Bulk {n}", slug=f"bulk-{n}", status="archived") for n in range(5)])
        Post.objects.filter(status="archived").update(status="published")  # one statement, five groups
        assert len(listed(tenant)) == 8 and listed(tenant) == actual(tenant)
        Post.objects.filter(pk=french.pk).update(status="draft")
        Post.objects.filter(slug__startswith="bulk-").delete()
        assert listed(tenant) == actual(tenant)
        with connection.cursor() as cursor:  # whatever the caller's search_path, the company's own tables
            cursor.execute("SET search_path = public")
            cursor.execute(f'UPDATE "{tenant.schema_name}"."content_post" SET status = %s', ["published"])
            cursor.execute(f'SET search_path = "{tenant.schema_name}", public')
        assert len(listed(tenant)) == 4 and listed(tenant) == actual(tenant)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # fire the deferred checks before TRUNCATE
            cursor.execute(f'TRUNCATE "{tenant.schema_name}"."content_post" CASCADE')
        assert listed(tenant) == actual(tenant) == {}


def test_a_rolled_back_write_leaves_the_listing_as_it_was(tenant):
    launch = make_post(tenant, slug="launch", status="published")
    before = listed(tenant)
    with pytest.raises(RuntimeError), transaction.atomic():
        _translation(tenant, launch, "fr", status="published")
        assert listed(tenant)[str(launch.pk)][3] == ["en", "fr"]
        raise RuntimeError("roll back")
    assert listed(tenant) == actual(tenant) == before


def test_each_company_has_its_own_listing(tenant, other_tenant):
    mine = make_post(tenant, slug="mine", status="published")
    make_post(other_tenant, slug="theirs", status="published")
    with schema_context(other_tenant.schema_name):
        Post.objects.update(translation_group=mine.translation_group)  # the same group id, another company
    assert list(listed(tenant)) == [str(mine.pk)] and listed(tenant)[str(mine.pk)][3] == ["en"]
    assert listed(other_tenant) == actual(other_tenant) and len(listed(other_tenant)) == 1


def _dsn(tenant) -> str:
    database = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        dbname=database["NAME"], user=database["USER"], password=database["PASSWORD"] or None,
        host=database["HOST"] or None, port=database["PORT"] or None,
        options=f"-c search_path={tenant.schema_name},public")


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_writers_of_one_group_committing_at_once_leave_the_groups_languages_whole(make_tenant):
    """Four transactions each change one translation of a group and stay open a moment, released
    together: one publishes or unpublishes French, one moves German to Italian and back, two move
    dates (as an import does). Each statement's rewrite of the group waits for the others' commits
    and reads them, so no language is lost, no row is listed twice and no writer fails."""
    tenant = make_tenant()
    launch = make_post(tenant, slug="launch", status="published")
    french = _translation(tenant, launch, "fr", status="draft")
    german = _translation(tenant, launch, "de", status="published")
    portuguese = _translation(tenant, launch, "pt", status="published")
    dsn = _dsn(tenant)
    for round_ in range(6):
        forth = round_ % 2 == 0
        day = timezone.now() - timedelta(days=round_ + 1)
        writes = [
            ("UPDATE content_post SET status = %s WHERE id = %s", ["published" if forth else "draft", french.pk]),
            ("UPDATE content_post SET language = %s WHERE id = %s", ["it" if forth else "de", german.pk]),
            ("UPDATE content_post SET created_at = %s WHERE id = %s", [day, portuguese.pk]),
            ("UPDATE content_post SET created_at = %s WHERE id = %s", [day, launch.pk]),
        ]
        barrier, errors = threading.Barrier(len(writes)), []

        def write(sql, params):
            try:
                with psycopg.connect(dsn) as db:
                    barrier.wait(timeout=30)
                    db.execute(sql, params)
                    db.execute("SELECT pg_sleep(0.2)")  # the others' statements run meanwhile
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=write, args=write_) for write_ in writes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == [], round_
        assert listed(tenant) == actual(tenant), round_
        languages = ["en", "fr", "it", "pt"] if forth else ["de", "en", "pt"]
        assert all(row[3] == languages for row in listed(tenant).values()), round_


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_a_statement_over_many_groups_and_writers_of_single_posts_never_deadlock(make_tenant):
    """One statement publishing 300 posts (300 groups, locked in order) while writers publish and
    unpublish the same posts one by one, newest first: every transaction commits."""
    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        Post.objects.bulk_create([Post(title=f"Post {n}", slug=f"post-{n}", status="draft") for n in range(300)])
        ids = list(Post.objects.order_by("-id").values_list("id", flat=True))
    dsn = _dsn(tenant)
    errors = []
    barrier = threading.Barrier(3)

    def everything():
        try:
            with psycopg.connect(dsn) as db:
                barrier.wait(timeout=30)
                for status in ("published", "draft", "published"):
                    with db.transaction():
                        db.execute("UPDATE content_post SET status = %s", [status])
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    def one_by_one(order):
        try:
            with psycopg.connect(dsn) as db:
                barrier.wait(timeout=30)
                for n, post_id in enumerate(order[:120]):
                    with db.transaction():
                        db.execute("UPDATE content_post SET status = %s WHERE id = %s",
                                   ["published" if n % 2 else "draft", post_id])
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=everything), threading.Thread(target=one_by_one, args=(ids,)),
               threading.Thread(target=one_by_one, args=(ids[::-1],))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert listed(tenant) == actual(tenant)
