"""GET /api/analytics/page-views against a hand-computed fixture."""
from __future__ import annotations

from datetime import datetime, time, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.db import connection
from django_tenants.utils import schema_context

from apps.core import redis_conn
from apps.analytics import services
from apps.content.tests.factories import make_post
from apps.core.testing import Api

V1, V2, V3, V4 = ("198.51.100.1", "UA-1"), ("198.51.100.2", "UA-2"), ("198.51.100.3", "UA-3"), ("198.51.100.4", "UA-4")
GOOGLE = "https://www.google.com/search?q=x"
TWITTER = "https://twitter.com/someone"
PAGE = "https://site.example/blog"


def at(day, hour=12):
    return datetime.combine(day, time(hour), tzinfo=dt_timezone.utc)


def view(visitor, when, slug="", referrer=""):
    ip, ua = visitor
    services.pageview_track(page_url=f"{PAGE}/{slug}", referrer=referrer, post_slug=slug, ip=ip, user_agent=ua,
                            now=when)


@pytest.fixture
def fixture(tenant, settings, dead_redis_url):
    """Views (day: visitor -> post, referrer), today = T:

    T-40: V1 -> alpha x5 (outside a 30-day window)
    T-2:  V1 -> alpha x3 (google), V2 -> beta (direct)
    T-1:  V1 -> beta (twitter), V3 -> beta (twitter), V3 -> home page (direct)
    T:    V1 -> alpha (google)                       -- rolled up
    T:    V1 -> alpha (google), V4 -> gamma (direct) -- still waiting for the rollup
    Expected over 30 days: 10 views; uniques 2 + 2 + 2 = 6; alpha 5, beta 3, gamma 1;
    google 5, direct 3, twitter 2.
    """
    today = services.utc_today()
    alpha = make_post(tenant, "Alpha", slug="alpha", status="published")
    beta = make_post(tenant, "Beta", slug="beta", status="published")
    gamma = make_post(tenant, "Gamma", slug="gamma", status="published")
    make_post(tenant, "Never viewed", slug="quiet", status="published")
    with schema_context(tenant.schema_name):
        for _ in range(5):
            view(V1, at(today - timedelta(days=40)), "alpha", GOOGLE)
        for hour in (8, 9, 10):
            view(V1, at(today - timedelta(days=2), hour), "alpha", GOOGLE)
        view(V2, at(today - timedelta(days=2)), "beta")
        view(V1, at(today - timedelta(days=1)), "beta", TWITTER)
        view(V3, at(today - timedelta(days=1)), "beta", TWITTER)
        view(V3, at(today - timedelta(days=1)), "", "")
        view(V1, at(today, 0), "alpha", GOOGLE)
        services.pageview_flush()
        services.pageview_rollup()
        # Written straight to the database (Redis down) and not rolled up yet.
        original = settings.REDIS_URL
        settings.REDIS_URL = dead_redis_url
        view(V1, at(today, 0), "alpha", GOOGLE)
        view(V4, at(today, 0), "gamma")
        settings.REDIS_URL = original
        redis_conn.reset()
    connection.set_schema_to_public()
    return {"today": today, "alpha": alpha, "beta": beta, "gamma": gamma}


def test_page_views_summary_top_posts_and_referrers(api, fixture):
    response = api.get("/api/analytics/page-views", {"days": 30, "groupBy": "day"})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["success"] is True
    data = body["data"]
    assert data["summary"] == {"totalViews": 10, "uniqueVisitors": 6, "viewedPosts": 3}
    assert data["topContent"]["posts"] == [
        {"title": "Alpha", "slug": "alpha", "views": 5},
        {"title": "Beta", "slug": "beta", "views": 3},
        {"title": "Gamma", "slug": "gamma", "views": 1},
    ]
    assert data["trafficSources"]["referrers"] == [
        {"source": "google.com", "views": 5}, {"source": "direct", "views": 3}, {"source": "twitter.com", "views": 2},
    ]


def test_timeline_has_every_day_of_the_window(api, fixture):
    today = fixture["today"]
    data = api.get("/api/analytics/page-views").json()["data"]  # defaults: 30 days by day
    timeline = data["timeline"]
    assert len(timeline) == 30
    assert timeline[0]["date"] == (today - timedelta(days=29)).isoformat()
    assert timeline[-1] == {"date": today.isoformat(), "views": 3, "uniqueVisitors": 2}
    assert timeline[-2] == {"date": (today - timedelta(days=1)).isoformat(), "views": 3, "uniqueVisitors": 2}
    assert timeline[-3] == {"date": (today - timedelta(days=2)).isoformat(), "views": 4, "uniqueVisitors": 2}
    assert sum(entry["views"] for entry in timeline) == 10


def test_window_length_and_grouping(api, fixture):
    today = fixture["today"]
    one_day = api.get("/api/analytics/page-views", {"days": 1}).json()["data"]
    assert one_day["summary"] == {"totalViews": 3, "uniqueVisitors": 2, "viewedPosts": 2}

    year = api.get("/api/analytics/page-views", {"days": 365, "groupBy": "month"}).json()["data"]
    assert year["summary"]["totalViews"] == 15  # the views 40 days ago are in
    assert sum(entry["views"] for entry in year["timeline"]) == 15
    assert all(entry["date"].endswith("-01") for entry in year["timeline"][1:])

    weeks = api.get("/api/analytics/page-views", {"days": 14, "groupBy": "week"}).json()["data"]["timeline"]
    monday = today - timedelta(days=today.weekday())
    assert weeks[-1]["date"] == monday.isoformat()
    assert sum(entry["views"] for entry in weeks) == 10


def test_numbers_do_not_change_when_the_pending_events_are_rolled_up(api, tenant, fixture):
    before = api.get("/api/analytics/page-views").json()["data"]
    with schema_context(tenant.schema_name):
        assert services.pageview_rollup() == 2
    assert api.get("/api/analytics/page-views").json()["data"] == before


@pytest.mark.parametrize(("query", "message"), [
    ({"days": 0}, "Days must be between 1 and 365"),
    ({"days": 366}, "Days must be between 1 and 365"),
    ({"days": "lots"}, "Days must be a whole number"),
    ({"groupBy": "year"}, "Group by must be one of day, week, month"),
])
def test_bad_parameters_get_400(api, query, message):
    response = api.get("/api/analytics/page-views", query)
    assert response.status_code == 400
    assert response.json()["message"] == message


def test_every_role_reads_and_anonymous_does_not(role_api, anon):
    assert role_api("viewer").get("/api/analytics/page-views").status_code == 200
    assert anon.get("/api/analytics/page-views").status_code == 401


def test_another_company_sees_none_of_these_views(fixture, other_tenant):
    from apps.core.testing import tenant_admin

    other = Api(other_tenant, user=tenant_admin(other_tenant))
    data = other.get("/api/analytics/page-views").json()["data"]
    assert data["summary"] == {"totalViews": 0, "uniqueVisitors": 0, "viewedPosts": 0}
    assert data["topContent"]["posts"] == [] and data["trafficSources"]["referrers"] == []


def test_query_count_does_not_grow_with_posts_or_days(api, tenant, django_assert_max_num_queries):
    def seed(n):
        today = services.utc_today()
        slugs = [make_post(tenant, slug=f"p{n}-{i}", status="published").slug for i in range(n)]
        with schema_context(tenant.schema_name):
            for i, slug in enumerate(slugs):
                view((f"10.0.{n}.{i}", "UA"), at(today - timedelta(days=i % 20)), slug, f"https://s{i}.example/")
            services.pageview_flush()
            services.pageview_rollup()
            view(("10.9.9.9", "UA"), at(today), slugs[0])
            services.pageview_flush()  # flushed, not rolled up: read raw
        connection.set_schema_to_public()

    # 9 queries (tenant, user, 7 reads), each preceded by django-tenants' SET search_path.
    seed(3)
    with django_assert_max_num_queries(18):
        assert api.get("/api/analytics/page-views").status_code == 200
    seed(40)
    with django_assert_max_num_queries(18):
        assert api.get("/api/analytics/page-views").status_code == 200


def test_days_are_the_company_s_days_and_today_is_on_the_chart(api, tenant, settings, dead_redis_url):
    """A company at UTC+14: at 12:00 UTC it is already tomorrow there. A view made now is on the
    chart's last day, which is the company's today, and the chart, the total and the top posts
    agree (the total counts any page, the top list posts only)."""
    Client = type(tenant)
    Client.objects.filter(pk=tenant.pk).update(time_zone="Pacific/Kiritimati")
    post = make_post(tenant, "Alpha", slug="alpha")
    now = datetime(2026, 3, 10, 12, 0, tzinfo=dt_timezone.utc)
    with schema_context(tenant.schema_name):
        settings.REDIS_URL = dead_redis_url  # straight to PostgreSQL, read raw (not rolled up)
        view(V1, now, "alpha")
        view(V2, now, "")  # a page that is not a post
        redis_conn.reset()
        from apps.analytics.selectors import page_views
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("django.utils.timezone.now", lambda: now)
            data = page_views(days=7)
    connection.set_schema_to_public()
    assert data["timeline"][-1] == {"date": "2026-03-11", "views": 2, "uniqueVisitors": 2}
    assert sum(point["views"] for point in data["timeline"]) == data["summary"]["totalViews"] == 2
    assert data["topContent"]["posts"] == [{"title": "Alpha", "slug": post.slug, "views": 1}]
    assert data["summary"]["viewedPosts"] == 1


def test_a_utc_company_s_today_is_the_utc_date(api, tenant, settings, dead_redis_url):
    make_post(tenant, "Alpha", slug="alpha")
    now = datetime(2026, 3, 10, 23, 30, tzinfo=dt_timezone.utc)
    with schema_context(tenant.schema_name):
        settings.REDIS_URL = dead_redis_url
        view(V1, now, "alpha")
        redis_conn.reset()
        from apps.analytics.selectors import page_views
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("django.utils.timezone.now", lambda: now)
            data = page_views(days=7)
    connection.set_schema_to_public()
    assert data["timeline"][-1] == {"date": "2026-03-10", "views": 1, "uniqueVisitors": 1}
