"""What the console reads: companies with their plan's counters and recent usage, in a few
statements over the public schema (no company's schema is visited)."""
from __future__ import annotations

from datetime import timedelta

from django.db.models import IntegerField, Max, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django_tenants.utils import schema_context

from lifecycle.operator.models import OperatorAction
from apps.plans import rules
from apps.plans.models import PlanCounter, UsageDay
from apps.plans.usage import usage_days
from tenants.models import Client

USAGE_DAYS = 30


def _counter(resource: str):
    return Coalesce(Subquery(PlanCounter.objects.filter(client_id=OuterRef("pk"), resource=resource)
                             .values("used")[:1]), 0, output_field=IntegerField())


def companies(*, search: str = "", status: str = "", plan: str = ""):
    since = timezone.now().date() - timedelta(days=USAGE_DAYS - 1)
    rows = Client.objects.exclude(schema_name="public")
    if search:
        rows = rows.filter(Q(name__icontains=search) | Q(subdomain__icontains=search)
                           | Q(contact_email__icontains=search))
    if status:
        rows = rows.filter(status=status)
    if plan:
        rows = rows.filter(subscription_plan=plan)
    requests = UsageDay.objects.filter(client_id=OuterRef("pk"), metric="api_requests", day__gte=since) \
        .values("client_id").annotate(total=Sum("value")).values("total")[:1]
    active = UsageDay.objects.filter(client_id=OuterRef("pk"), value__gt=0, metric__in=(
        "api_requests", "ai_jobs", "emails", "webhook_deliveries")).values("client_id") \
        .annotate(last=Max("day")).values("last")[:1]
    return rows.annotate(
        seats=_counter("staff_seats"), posts=_counter("posts"), media_bytes=_counter("media_bytes"),
        api_requests=Coalesce(Subquery(requests), 0, output_field=IntegerField()),
        last_activity=Subquery(active),
    ).order_by("-created_at")


def company_limits(client: Client) -> list:
    """Each counted limit with the company's use (a counter not counted yet is counted in its schema)."""
    with schema_context(client.schema_name):
        return rules.plan_usage(client)


def company_usage(client: Client, *, days: int = USAGE_DAYS) -> list[dict]:
    return usage_days(client, days=days)


def actions(*, company: str = ""):
    rows = OperatorAction.objects.all()
    return rows.filter(company=company) if company else rows
