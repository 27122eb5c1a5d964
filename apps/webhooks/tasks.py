"""Celery tasks of the webhooks app. Deliveries are sent from the company's context, so
tenant-schemas-celery runs them in that company's schema."""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from apps.core.tenancy import for_each_active_tenant
from apps.webhooks import services

logger = logging.getLogger(__name__)


@shared_task(bind=True, name=services.DELIVER_TASK, acks_late=True, ignore_result=True)
def deliver(self, delivery_id: str) -> None:
    """One try; a retryable failure schedules the next one (the same task, later)."""
    delay = services.webhook_delivery_attempt(delivery_id=delivery_id)
    if delay is not None:
        self.apply_async(args=[delivery_id], countdown=delay)


@shared_task(name="webhooks.prune_deliveries", ignore_result=True)
def prune_deliveries() -> int:
    """Periodic (beat): drop delivery logs older than WEBHOOK_LOG_DAYS in every company."""
    removed = for_each_active_tenant(
        lambda tenant: services.webhook_deliveries_prune(days=settings.WEBHOOK_LOG_DAYS),
        include_suspended=True, what="pruning webhook deliveries")
    return sum(removed.values())
