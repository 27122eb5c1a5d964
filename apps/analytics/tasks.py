"""Analytics background work.

Per tenant (sent from the tenant's context, so tenant-schemas-celery runs them in its schema):
- analytics.flush_events: Redis stream -> PostgreSQL in batches, then the rollup;
- analytics.rollup: fold events not rolled up yet (e.g. written directly while Redis was down);
- analytics.purge: drop raw events older than ANALYTICS_RAW_RETENTION_DAYS.
Dispatchers (celery beat, public schema): the flush is sent to each company whose stream has
events; the rollup and the purge run for every company that is not suspended, in chunks of
companies across the workers (apps.core.tenancy.fan_out). All tasks are idempotent.
"""
from __future__ import annotations

import logging

import redis
from celery import shared_task
from django.conf import settings
from django.db import connection

from apps.analytics import buffer, services
from apps.core import redis_conn, tenancy

logger = logging.getLogger(__name__)


def _queued_key(schema: str) -> str:
    return redis_conn.tenant_key("analytics:flush-queued", schema)


def queued_ttl() -> int:
    """Seconds a company's flush counts as queued. A flush that never runs (its worker died while
    holding it, its message was lost with a Redis restart, it failed before its body ran) holds the
    company's next flush back by this much at most: a few flush intervals, never minutes."""
    return settings.ANALYTICS_FLUSH_QUEUED_TTL or 3 * settings.ANALYTICS_FLUSH_SECONDS


@shared_task(name="analytics.flush_events", acks_late=True, ignore_result=True)
def flush_events() -> int:
    schema = connection.schema_name
    handled = 0
    try:
        redis_conn.client().delete(_queued_key(schema))
        handled = services.pageview_flush()
    except redis.RedisError as exc:
        redis_conn.failed(exc, "analytics flush skipped")
    services.pageview_rollup()
    return handled


@shared_task(name="analytics.rollup", acks_late=True, ignore_result=True)
def rollup() -> int:
    return services.pageview_rollup()


@shared_task(name="analytics.purge", acks_late=True, ignore_result=True)
def purge() -> dict:
    return services.pageview_purge()


def active_tenants() -> list:
    return list(tenancy.active_tenants())


def _send_each(task, tenants) -> int:
    """The task sent in each tenant's context (tenant-schemas-celery carries the schema)."""
    return len(tenancy.for_each_active_tenant(lambda tenant: task.delay(), tenants=tenants, what=task.name))


@shared_task(name="analytics.dispatch_flush", ignore_result=True)
def dispatch_flush() -> int:
    """Send a flush for every active tenant whose stream holds events (one flush in the queue
    per tenant at a time)."""
    tenants = active_tenants()
    try:
        pending = buffer.pending_counts([tenant.schema_name for tenant in tenants])
        client = redis_conn.client()
        due = [
            tenant for tenant in tenants
            if pending.get(tenant.schema_name)
            and client.set(_queued_key(tenant.schema_name), "1", nx=True, ex=queued_ttl())
        ]
    except redis.RedisError as exc:
        redis_conn.failed(exc, "analytics flush dispatch skipped")
        return 0
    return _send_each(flush_events, due)


@tenancy.per_company("analytics.rollup", what="rolling up page views")
def _rollup(tenant) -> int:
    return services.pageview_rollup()


@tenancy.per_company("analytics.purge", what="purging raw page views")
def _purge(tenant) -> dict:
    return services.pageview_purge()


@shared_task(name="analytics.dispatch_rollup", ignore_result=True)
def dispatch_rollup() -> int:
    """Every company's rollup, in chunks of companies across the workers (apps.core.tenancy.fan_out),
    not a task per company; returns how many companies it ran itself."""
    return len(tenancy.fan_out("analytics.rollup"))


@shared_task(name="analytics.dispatch_purge", ignore_result=True)
def dispatch_purge() -> int:
    return len(tenancy.fan_out("analytics.purge"))
