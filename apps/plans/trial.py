"""The trial's end (docs/plans-and-usage.md: The trial's end).

- `trial_reminders` (beat, hourly): an email to the company's contact TRIAL_REMINDER_DAYS (7 and 1)
  days before its trial ends. Each reminder is queued once, by its key (the company, the number of
  days, the end date: a trial an operator extends gets its reminders again for the new end), so a
  run that is repeated or overlaps another sends nothing twice. When runs were missed, only the
  nearest reminder is sent.
- At the end the dashboard is read-only (apps.plans.rules.dashboard_write_gate), the public API
  serves for TRIAL_PUBLIC_API_GRACE_DAYS more, then answers 402 (tenants.middleware; the rule is
  tenants.models.Client.trial_lapsed). Nothing is deleted; a change of plan restores at once.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.email import email_queue
from tenants.addresses import tenant_base_url
from tenants.models import Client


def _reminder_due(client: Client, now) -> int | None:
    """The number of days of the nearest reminder due now, or None."""
    left = client.trial_ends_at - now
    due = [days for days in settings.TRIAL_REMINDER_DAYS if left <= timedelta(days=days)]
    return min(due) if due else None


def trial_reminders(*, now=None) -> int:
    """Queue the reminders due now (each once: its key); returns how many were due."""
    now = now or timezone.now()
    horizon = now + timedelta(days=max(settings.TRIAL_REMINDER_DAYS, default=0))
    queued = 0
    companies = Client.objects.serving().filter(subscription_plan="trial", trial_ends_at__gt=now,
                                                 trial_ends_at__lte=horizon).order_by("trial_ends_at")
    for client in companies.iterator(chunk_size=500):
        days = _reminder_due(client, now)
        if days is None:
            continue
        key = f"trial-ending:{client.uuid}:{days}:{client.trial_ends_at.isoformat()}"
        base_url = tenant_base_url(client.subdomain)
        with schema_context(client.schema_name), transaction.atomic():  # the company's email (its usage)
            email_queue(kind="trial_ending", to=client.contact_email, company_name=client.name,
                                base_url=base_url, key=key, context={
                                    "contact_name": client.contact_name, "days_left": days,
                                    "ends_on": client.trial_ends_at.strftime("%B %-d, %Y"),
                                    "grace_days": settings.TRIAL_PUBLIC_API_GRACE_DAYS,
                                    "url": f"{base_url}/dashboard/settings#usage"})
            queued += 1
    return queued
