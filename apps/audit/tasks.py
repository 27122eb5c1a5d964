"""Celery tasks of the audit app."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings

from apps.audit import services
from apps.core.tenancy import for_each_active_tenant


@shared_task(name="audit.prune", ignore_result=True)
def prune() -> int:
    """Periodic (beat): drop audit entries older than AUDIT_LOG_DAYS in every company."""
    removed = for_each_active_tenant(lambda tenant: services.audit_prune(days=settings.AUDIT_LOG_DAYS),
                                     include_suspended=True, what="pruning the audit log")
    return sum(removed.values())
