"""Periodic work of plans and usage (beat: settings.CELERY_BEAT_SCHEDULE)."""
from __future__ import annotations

from celery import shared_task
from django.db import transaction

from apps.core import tenancy
from apps.plans import rules, trial, usage


@shared_task(name="plans.usage_fold", ignore_result=True)
def usage_fold() -> int:
    return usage.usage_fold()


@shared_task(name="plans.usage_purge", ignore_result=True)
def usage_purge() -> int:
    return usage.usage_purge()


@tenancy.per_company("plans.recount", include_suspended=True, what="recounting plan counters")
def _recount(company) -> dict:
    found = {}
    for what in rules.COUNTED:
        with transaction.atomic():
            found[what] = rules.plan_recount(company, what)
    return found


@shared_task(name="plans.recount", ignore_result=True)
def recount() -> int:
    """Check every company's counters against a count (a write that bypassed the services, a
    restore): once a day, in chunks of companies across the workers (apps.core.tenancy.fan_out)."""
    return len(tenancy.fan_out("plans.recount"))


@shared_task(name="plans.trial_reminders", ignore_result=True)
def trial_reminders() -> int:
    return trial.trial_reminders()
