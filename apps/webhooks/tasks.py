"""Celery tasks of the webhooks app. Deliveries are sent from the company's context, so
tenant-schemas-celery runs them in that company's schema."""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from apps.core import outbox
from apps.core import tenancy
from apps.webhooks import services

logger = logging.getLogger(__name__)


# Idempotent by the delivery (its row is locked while it is sent): acknowledged after it ran.
@shared_task(name=services.DELIVER_TASK, acks_late=True, ignore_result=True)
def deliver(delivery_id: str) -> None:
    """One try; a retryable failure makes the next one due at the delivery's next_attempt_at
    (through the outbox: waits of up to an hour are no Celery countdowns)."""
    delay = services.webhook_delivery_attempt(delivery_id=delivery_id)
    if delay is not None:
        raise outbox.Later.after(delay, error="retry of a failed delivery")


@tenancy.per_company("webhooks.prune_deliveries", include_suspended=True, what="pruning webhook deliveries")
def _prune_deliveries(tenant) -> int:
    return services.webhook_deliveries_prune(days=settings.WEBHOOK_LOG_DAYS)


@shared_task(name="webhooks.prune_deliveries", ignore_result=True)
def prune_deliveries() -> int:
    """Periodic (beat): drop delivery logs older than WEBHOOK_LOG_DAYS in every company (in chunks
    of companies across the workers: apps.core.tenancy.fan_out)."""
    return sum(tenancy.fan_out("webhooks.prune_deliveries").values())
