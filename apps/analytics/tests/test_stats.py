"""GET /api/dashboard/stats against a hand-computed fixture."""
from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.analytics import selectors
from apps.content.tests.factories import make_category, make_media, make_post, make_tag
from apps.core.testing import Api, tenant_admin


def month_starts(now):
    this_start = datetime(now.year, now.month, 1, tzinfo=dt_timezone.utc)
    last = this_start - timedelta(days=1)
    return this_start, datetime(last.year, last.month, 1, tzinfo=dt_timezone.utc)


@pytest.fixture
def content(tenant, make_user):
    """6 posts: this month p1 (published), p2 (published), p3 (draft); last month p4
    (published), p5 (archived); before that p6 (draft). Categories: News p1-p4, Tips p1-p3,
    Guides p1-p2, Alpha p1, Beta p2, Empty none. 2 tags, 3 users, 1 media."""
    now = timezone.now()
    this_start, last_start = month_starts(now)
    cats = {name: make_category(tenant, name, slug=name.lower()) for name in ("News", "Tips", "Guides", "Alpha",
                                                                              "Beta", "Empty")}
    member = {1: ["News", "Tips", "Guides", "Alpha"], 2: ["News", "Tips", "Guides", "Beta"], 3: ["News", "Tips"],
              4: ["News"], 5: [], 6: []}
    plan = {
        1: ("published", now - timedelta(seconds=3)),
        2: ("published", now - timedelta(seconds=2)),
        3: ("draft", now - timedelta(seconds=1)),
        4: ("published", last_start + timedelta(days=1)),
        5: ("archived", last_start + timedelta(days=2)),
        6: ("draft", last_start - timedelta(days=10)),
    }
    posts = {
        n: make_post(tenant, f"Post {n}", slug=f"p{n}", status=status, created_at=created,
                     categories=[cats[name] for name in member[n]])
        for n, (status, created) in plan.items()
    }
    make_tag(tenant)
    make_tag(tenant)
    make_user(tenant, "editor")
    make_user(tenant, "viewer")
    make_media(tenant)
    return posts


def test_stats_numbers(api, content):
    response = api.get("/api/dashboard/stats")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["success"] is True
    data = body["data"]
    assert data["overview"] == {"totalPosts": 6, "publishedPosts": 3, "draftPosts": 2, "totalCategories": 6,
                                "totalTags": 2, "totalUsers": 3, "totalMedia": 1}
    assert data["analytics"]["postsThisMonth"] == 3
    assert data["analytics"]["postsLastMonth"] == 2
    assert data["analytics"]["growthPercentage"] == 50.0
    assert data["analytics"]["topCategories"] == [
        {"name": "News", "slug": "news", "postCount": 4},
        {"name": "Tips", "slug": "tips", "postCount": 3},
        {"name": "Guides", "slug": "guides", "postCount": 2},
        {"name": "Alpha", "slug": "alpha", "postCount": 1},
        {"name": "Beta", "slug": "beta", "postCount": 1},
    ]
    recent = data["recentActivity"]["recentPosts"]
    assert [post["title"] for post in recent] == ["Post 3", "Post 2", "Post 1", "Post 5", "Post 4"]
    assert recent[0] == {"id": str(content[3].id), "title": "Post 3", "status": "draft", "publishedAt": None}
    assert recent[1]["status"] == "published" and recent[1]["publishedAt"]


@pytest.mark.parametrize(("this_month", "last_month", "growth"), [(0, 0, 0.0), (2, 0, 100.0), (1, 4, -75.0),
                                                                   (2, 3, -33.3)])
def test_growth_percentage(tenant, this_month, last_month, growth):
    now = datetime(2026, 5, 20, 12, tzinfo=dt_timezone.utc)
    for _ in range(this_month):
        make_post(tenant, created_at=datetime(2026, 5, 1, tzinfo=dt_timezone.utc), status="published")
    for _ in range(last_month):
        make_post(tenant, created_at=datetime(2026, 4, 30, 23, 59, tzinfo=dt_timezone.utc), status="published")
    make_post(tenant, created_at=datetime(2026, 3, 31, 23, 59, tzinfo=dt_timezone.utc), status="published")  # neither
    with schema_context(tenant.schema_name):
        stats = selectors.dashboard_stats(now=now)["analytics"]
    assert (stats["postsThisMonth"], stats["postsLastMonth"], stats["growthPercentage"]) == (this_month, last_month,
                                                                                           growth)


def test_january_compares_with_the_previous_december(tenant):
    make_post(tenant, created_at=datetime(2025, 12, 15, tzinfo=dt_timezone.utc), status="published")
    with schema_context(tenant.schema_name):
        stats = selectors.dashboard_stats(now=datetime(2026, 1, 3, tzinfo=dt_timezone.utc))["analytics"]
    assert (stats["postsThisMonth"], stats["postsLastMonth"]) == (0, 1)


def test_every_role_reads_stats_and_anonymous_does_not(role_api, anon):
    assert role_api("viewer").get("/api/dashboard/stats").status_code == 200
    assert anon.get("/api/dashboard/stats").status_code == 401


def test_another_company_sees_its_own_counts(content, other_tenant):
    data = Api(other_tenant, user=tenant_admin(other_tenant)).get("/api/dashboard/stats").json()["data"]
    assert data["overview"] == {"totalPosts": 0, "publishedPosts": 0, "draftPosts": 0, "totalCategories": 0,
                                "totalTags": 0, "totalUsers": 1, "totalMedia": 0}
    assert data["analytics"]["topCategories"] == [] and data["recentActivity"]["recentPosts"] == []


def test_query_count_is_constant(api, tenant, django_assert_max_num_queries):
    # 9 queries (tenant, user, 7 reads), each after django-tenants' SET search_path.
    make_post(tenant, categories=[make_category(tenant)], status="published")
    with django_assert_max_num_queries(18):
        assert api.get("/api/dashboard/stats").status_code == 200
    for _ in range(30):
        make_post(tenant, categories=[make_category(tenant)], tags=[make_tag(tenant)], status="published")
    with django_assert_max_num_queries(18):
        assert api.get("/api/dashboard/stats").status_code == 200
