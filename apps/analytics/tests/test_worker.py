"""A burst of tracking calls, flushed and rolled up by a real Celery worker (beat's
dispatcher task included), with every event counted and no IP address stored anywhere."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.conf import settings
from django.db import connection, connections
from django_tenants.utils import schema_context

from apps.analytics import buffer, tasks
from apps.analytics.models import DailyPostViews, DailyReferrerViews, DailyTotal, PageView
from apps.content.tests.factories import make_post
from apps.core.testing import Api, tenant_admin
from tenants.models import Client

THREADS = 8
PER_THREAD = 60
UA = "BurstBrowser/1.0 (unique-agent-marker)"


def address(thread: int, n: int) -> str:
    return f"192.0.2.{thread * 10 + n % 5}"  # 5 visitors per thread


def burst(tenant, admin, thread: int) -> list[int]:
    api = Api(tenant, user=admin)
    statuses = []
    try:
        for n in range(PER_THREAD):
            body = {
                "pageUrl": f"https://site.example/blog/{n}",
                "referrer": "https://www.google.com/" if n % 2 else "",
                "postSlug": "burst" if n % 3 == 0 else "",
                "ipAddress": address(thread, n),
                "userAgent": UA,
            }
            response = api.post("/api/analytics/track", body)
            statuses.append(response.status_code)
    finally:
        connections.close_all()
    return statuses


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def rolled_up_views(tenant) -> int:
    with schema_context(tenant.schema_name):
        total = sum(DailyTotal.objects.values_list("views", flat=True))
    connection.set_schema_to_public()
    return total


def stored_text_containing(needle: str) -> list[str]:
    """Tables (any schema) with a row whose text form contains `needle`."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')"
        )
        for schema, table in cursor.fetchall():
            cursor.execute(f'SELECT 1 FROM "{schema}"."{table}" t WHERE t::text LIKE %s LIMIT 1', [f"%{needle}%"])
            if cursor.fetchone():
                found.append(f"{schema}.{table}")
    return found


@pytest.mark.django_db(transaction=True)
def test_burst_is_counted_in_full_by_the_worker(make_tenant, celery_worker_process):
    tenant, other = make_tenant(), make_tenant()
    admin = tenant_admin(tenant)
    post = make_post(tenant, "Burst", slug="burst", status="published")
    total = THREADS * PER_THREAD

    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(burst, tenant, admin, thread) for thread in range(THREADS)]
        # Beat's dispatcher runs while the burst is still going on.
        for _ in range(3):
            tasks.dispatch_flush.delay()
            time.sleep(0.3)
        statuses = [status for future in futures for status in future.result()]
    assert statuses == [200] * total

    tasks.dispatch_flush.delay()
    assert wait_for(lambda: rolled_up_views(tenant) == total), f"rolled up {rolled_up_views(tenant)} of {total}"

    with schema_context(tenant.schema_name):
        assert PageView.objects.count() == total
        assert PageView.objects.filter(rolled_up=False).count() == 0
        ((views, uniques),) = DailyTotal.objects.values_list("views", "unique_visitors")
        assert (views, uniques) == (total, THREADS * 5)
        assert list(DailyPostViews.objects.values_list("post_id", "views")) == [(post.id, THREADS * 20)]
        assert dict(DailyReferrerViews.objects.values_list("source", "views")) == {
            "google.com": total // 2, "direct": total // 2}
    connection.set_schema_to_public()
    assert buffer.read(tenant.schema_name, 10) == []
    assert rolled_up_views(other) == 0

    # No IP address or user agent anywhere: not in PostgreSQL, not in Redis.
    for thread in range(THREADS):
        for n in range(5):
            assert stored_text_containing(address(thread, n)) == []
    assert stored_text_containing("unique-agent-marker") == []
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter():
        dumped = client.dump(key) or b""
        assert b"192.0.2." not in dumped and b"unique-agent-marker" not in dumped


@pytest.mark.django_db(transaction=True)
def test_beat_dispatchers_skip_suspended_companies_and_roll_up_direct_writes(make_tenant, celery_worker_process):
    active, suspended = make_tenant(), make_tenant()
    Client.objects.filter(pk=suspended.pk).update(status=Client.Status.SUSPENDED)
    for tenant in (active, suspended):
        with schema_context(tenant.schema_name):
            from apps.analytics import services

            services.pageview_track(page_url="https://site.example/")  # buffered
            PageView.objects.create(event_id=f"d:{tenant.schema_name}", occurred_at=services.timezone.now(),
                                    day=services.utc_today(), page_url="https://site.example/", source="direct",
                                    visitor_hash="x" * 32)  # written directly (Redis was down)
    connection.set_schema_to_public()
    assert [tenant.schema_name for tenant in tasks.active_tenants()] == [active.schema_name]

    tasks.dispatch_rollup.delay()
    tasks.dispatch_flush.delay()
    assert wait_for(lambda: rolled_up_views(active) == 2)
    time.sleep(1.0)
    assert rolled_up_views(suspended) == 0
    assert len(buffer.read(suspended.schema_name, 10)) == 1
