"""POST /api/analytics/track: buffered in Redis, flushed to PostgreSQL, rolled up per day."""
from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
import redis
from django.conf import settings
from django.db import connection
from django_tenants.utils import schema_context

from apps.analytics import buffer, privacy, services
from apps.analytics.models import DailyPostViews, DailyReferrerViews, DailyTotal, DailyVisitor, PageView
from apps.content.tests.factories import make_post
from apps.core.testing import Api

IP = "203.0.113.77"
UA = "Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0"


def track(api, **payload):
    body = {"pageUrl": "https://site.example/blog/x", "referrer": "", **payload}
    return api.post("/api/analytics/track", body)


def stream(tenant) -> list:
    return buffer.read(tenant.schema_name, 10_000)


def flush_and_roll(tenant) -> int:
    with schema_context(tenant.schema_name):
        handled = services.pageview_flush()
        services.pageview_rollup()
    connection.set_schema_to_public()
    return handled


def totals(tenant) -> dict:
    with schema_context(tenant.schema_name):
        return {row.day: (row.views, row.unique_visitors) for row in DailyTotal.objects.all()}


def test_track_answers_success_and_buffers_the_event_without_ip_or_user_agent(api, tenant):
    response = track(api, postSlug="hello", referrer="https://www.google.com/search?q=cms", ipAddress=IP,
                     userAgent=UA)
    assert response.status_code == 200
    assert response.json() == {"success": True}
    entries = stream(tenant)
    assert len(entries) == 1
    fields = entries[0][1]
    assert fields["p"] == "hello" and fields["r"] == "google.com" and fields["u"] == "https://site.example/blog/x"
    assert IP not in str(fields) and UA not in str(fields)
    with schema_context(tenant.schema_name):
        assert PageView.objects.count() == 0  # nothing written to PostgreSQL by the request


def test_flush_moves_events_to_postgres_and_rolls_them_up(api, tenant):
    post = make_post(tenant, slug="hello", status="published")
    for n in range(5):
        assert track(api, postSlug="hello", ipAddress=f"198.51.100.{n % 2}", userAgent=UA).status_code == 200
    track(api, referrer="https://news.ycombinator.com/item?id=1", ipAddress="198.51.100.9", userAgent=UA)

    assert flush_and_roll(tenant) == 6
    assert stream(tenant) == []
    today = services.utc_today()
    assert totals(tenant) == {today: (6, 3)}
    with schema_context(tenant.schema_name):
        assert PageView.objects.filter(rolled_up=True).count() == 6
        assert list(DailyPostViews.objects.values_list("post_id", "views")) == [(post.id, 5)]
        assert dict(DailyReferrerViews.objects.values_list("source", "views")) == {"direct": 5,
                                                                                  "news.ycombinator.com": 1}
    # Running them again changes nothing.
    assert flush_and_roll(tenant) == 0
    assert totals(tenant) == {today: (6, 3)}


def test_unique_visitors_are_distinct_ip_and_user_agent_pairs_per_day(tenant):
    day1 = datetime(2026, 3, 2, 10, tzinfo=dt_timezone.utc)
    day2 = day1 + timedelta(days=1)
    visits = [
        (IP, UA, day1), (IP, UA, day1 + timedelta(hours=5)),  # same visitor twice: 1
        (IP, "Other/2.0", day1),  # same address, another browser: a second visitor
        ("198.51.100.1", UA, day1),  # another address: a third
        (IP, UA, day2),  # the first visitor again the next day: counted on that day
    ]
    with schema_context(tenant.schema_name):
        for ip, ua, when in visits:
            services.pageview_track(page_url="https://site.example/", ip=ip, user_agent=ua, now=when)
    flush_and_roll(tenant)
    assert totals(tenant) == {day1.date(): (4, 3), day2.date(): (1, 1)}


def test_visitor_hash_changes_every_day_and_between_companies():
    day = datetime(2026, 3, 2).date()
    one = privacy.visitor_hash(schema="t_a", ip=IP, user_agent=UA, day=day)
    assert one == privacy.visitor_hash(schema="t_a", ip=IP, user_agent=UA, day=day)
    assert one != privacy.visitor_hash(schema="t_a", ip=IP, user_agent=UA, day=day + timedelta(days=1))
    assert one != privacy.visitor_hash(schema="t_b", ip=IP, user_agent=UA, day=day)
    assert IP not in one and len(one) == 32


@pytest.mark.parametrize(("referrer", "page", "source"), [
    ("", "https://site.example/a", "direct"),
    ("https://www.Google.com/search?q=x", "https://site.example/a", "google.com"),
    ("https://site.example/other", "https://site.example/a", "direct"),  # same site
    ("t.co", "https://site.example/a", "t.co"),
    ("not a url at all", "https://site.example/a", "direct"),
])
def test_referrer_source(referrer, page, source):
    assert privacy.referrer_source(referrer, page) == source


def test_request_address_and_user_agent_are_used_when_the_body_has_none(tenant, admin):
    api = Api(tenant, user=admin, headers={"User-Agent": UA})
    track(api)
    track(api, ipAddress="not-an-ip")  # ignored: the request's address is used
    flush_and_roll(tenant)
    assert totals(tenant) == {services.utc_today(): (2, 1)}


@pytest.mark.parametrize(("body", "message"), [
    ({"referrer": ""}, "Page URL is required"),
    ({"pageUrl": "   "}, "Page URL is required"),
    ({"pageUrl": 42}, "Page URL is required"),
    ({"pageUrl": "https://x.example", "referrer": ["a"]}, "Referrer must be text"),
])
def test_malformed_bodies_get_400_and_record_nothing(api, tenant, body, message):
    response = api.post("/api/analytics/track", body)
    assert response.status_code == 400
    assert response.json()["message"] == message and response.json()["error"] == "validation_error"
    assert stream(tenant) == []


def test_not_json_gets_400(api, tenant):
    response = api.post("/api/analytics/track", "{nope", content_type="application/json")
    assert response.status_code == 400
    assert stream(tenant) == []


def test_long_values_are_cut_not_refused(api, tenant):
    response = track(api, pageUrl="https://site.example/" + "a" * 5000, postSlug="s" * 400)
    assert response.status_code == 200
    flush_and_roll(tenant)
    with schema_context(tenant.schema_name):
        view = PageView.objects.get()
        assert len(view.page_url) == 2000 and len(view.post_slug) == 255


def test_dashboard_tracking_needs_a_token(anon, tenant):
    response = track(anon)
    assert response.status_code == 401
    assert stream(tenant) == []


def test_events_go_to_their_own_tenant(api, tenant, other_tenant):
    track(api, postSlug="mine")
    track(Api(other_tenant, user=None, token=None), postSlug="theirs")  # no token: refused
    assert len(stream(tenant)) == 1 and stream(other_tenant) == []
    flush_and_roll(other_tenant)
    assert totals(other_tenant) == {}


def test_redis_down_events_are_written_straight_to_postgres(api, tenant, settings, dead_redis_url, caplog):
    settings.REDIS_URL = dead_redis_url
    for _ in range(3):
        response = track(api, ipAddress=IP, userAgent=UA)
        assert response.status_code == 200 and response.json() == {"success": True}
    assert "Redis unavailable" in caplog.text
    with schema_context(tenant.schema_name):
        assert PageView.objects.filter(rolled_up=False).count() == 3
        assert services.pageview_rollup() == 3
    assert totals(tenant) == {services.utc_today(): (3, 1)}


def test_a_flush_repeated_after_a_crash_counts_nothing_twice(api, tenant):
    for _ in range(4):
        track(api)
    # A worker inserted the batch, then died before deleting it from the stream.
    with schema_context(tenant.schema_name):
        entries = buffer.read(tenant.schema_name, 100)
        PageView.objects.bulk_create([services._row(f"r:{entry_id}", fields) for entry_id, fields in entries])
        services.pageview_rollup()
    flush_and_roll(tenant)
    assert stream(tenant) == []
    assert totals(tenant) == {services.utc_today(): (4, 1)}


def test_purge_keeps_rollups_and_recent_events_and_rolls_up_first(tenant, settings):
    settings.ANALYTICS_RAW_RETENTION_DAYS = 90
    today = services.utc_today()
    old = datetime.combine(today - timedelta(days=91), datetime.min.time(), tzinfo=dt_timezone.utc)
    recent = datetime.combine(today - timedelta(days=89), datetime.min.time(), tzinfo=dt_timezone.utc)
    with schema_context(tenant.schema_name):
        for when in (old, old, recent):
            services.pageview_track(page_url="https://site.example/", ip=IP, user_agent=UA, now=when)
        services.pageview_flush()  # flushed, not rolled up yet
        assert services.pageview_purge(today=today) == {"events": 2, "visitors": 1}
        assert list(PageView.objects.values_list("day", flat=True)) == [recent.date()]
        assert dict(DailyTotal.objects.values_list("day", "views")) == {old.date(): 2, recent.date(): 1}
        assert DailyVisitor.objects.count() == 1


def test_stream_is_capped(api, tenant, settings):
    settings.ANALYTICS_STREAM_MAXLEN = 10
    client = redis.Redis.from_url(settings.REDIS_URL)
    for _ in range(300):
        with schema_context(tenant.schema_name):
            services.pageview_track(page_url="https://site.example/")
    assert client.xlen(buffer.stream_key(tenant.schema_name)) < 300
