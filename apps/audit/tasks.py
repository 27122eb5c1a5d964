"""Celery tasks of the audit app."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings

from apps.audit import services
from apps.core import tenancy


@tenancy.per_company("audit.prune", include_suspended=True, what="pruning the audit log")
def _prune(tenant) -> int:
    return services.audit_prune(days=settings.AUDIT_LOG_DAYS)


@shared_task(name="audit.prune", ignore_result=True)
def prune() -> int:
    """Periodic (beat): drop audit entries older than AUDIT_LOG_DAYS in every company (in chunks of
    companies across the workers: apps.core.tenancy.fan_out)."""
    return sum(tenancy.fan_out("audit.prune").values())
