"""A flush that never runs must not hold a company's page views back for long.

The dispatcher sends one flush per company at a time. When that flush is lost (its worker died
while holding it, Redis restarted without persistence, the database refused it before its body
ran), the company's events wait until the dispatcher sends another: within three flush
intervals, never a minute or more (then a Redis restart in that time would lose all of them).
"""
from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection
from django_tenants.utils import schema_context

from apps.analytics import buffer, services, tasks
from apps.analytics.models import PageView
from config.celery import app


def _lose_queued_messages() -> int:
    """Drop the messages waiting in the test's queue (as a Redis restart without persistence
    would); returns how many there were."""
    with app.connection_for_write() as conn:
        return conn.default_channel.queue_purge(settings.CELERY_TASK_DEFAULT_QUEUE) or 0


@pytest.mark.django_db
def test_a_lost_flush_is_sent_again_within_three_flush_intervals(tenant, settings):
    settings.ANALYTICS_FLUSH_SECONDS = 1  # the beat interval this deployment runs with
    with schema_context(tenant.schema_name):
        services.pageview_track(page_url="https://site.example/lost-flush")
    connection.set_schema_to_public()
    assert buffer.pending_counts([tenant.schema_name]) == {tenant.schema_name: 1}

    assert tasks.dispatch_flush() == 1
    assert tasks.dispatch_flush() == 0  # one flush in the queue per company at a time
    assert _lose_queued_messages() >= 1  # ... and it is lost before any worker takes it

    started = time.monotonic()
    resent_after = None
    while time.monotonic() - started < 10:  # beat, every interval
        if tasks.dispatch_flush() == 1:
            resent_after = time.monotonic() - started
            break
        time.sleep(0.25)
    assert resent_after is not None and resent_after <= 3 * settings.ANALYTICS_FLUSH_SECONDS + 0.5, resent_after
    _lose_queued_messages()

    # The flush that was sent again moves the event to PostgreSQL.
    with schema_context(tenant.schema_name):
        assert tasks.flush_events() == 1
        assert PageView.objects.filter(page_url="https://site.example/lost-flush").count() == 1
    connection.set_schema_to_public()
    assert buffer.pending_counts([tenant.schema_name]) == {tenant.schema_name: 0}
