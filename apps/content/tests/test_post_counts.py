"""The per-status post counts kept by the posts table's triggers (PostCount, migration 0003):
after every kind of write, in every company's schema, they equal a count of the posts."""
from __future__ import annotations

import pytest
from django.db import connection, transaction
from django_tenants.utils import schema_context

from apps.analytics.tests.factories import make_post
from apps.content.models import Post, PostCount


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
    first = make_post(tenant, slug="a")
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
    make_post(tenant, slug="kept")
    with pytest.raises(RuntimeError), transaction.atomic():
        make_post(tenant, slug="gone")
        assert counted(tenant) == {"published": 2}
        raise RuntimeError("roll back")
    assert counted(tenant) == actual(tenant) == {"published": 1}


def test_each_company_has_its_own_counts(tenant, other_tenant):
    make_post(tenant, slug="mine")
    for n in range(3):
        make_post(other_tenant, slug=f"theirs-{n}", status="draft")
    assert counted(tenant) == {"published": 1}
    assert counted(other_tenant) == {"draft": 3}
