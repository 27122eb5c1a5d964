"""The company's plan, limits and usage on the dashboard API (admins: capability usage.read)."""
from __future__ import annotations

from ninja import Query, Router, Schema
from pydantic import field_validator

from apps.core.permissions import requires
from apps.plans import rules, usage
from apps.plans.schemas import PlanLimitOut, UsageDayOut, UsageOut

router = Router(tags=["usage"])
CANNOT_READ = "Only administrators can see the company's usage"


DAYS = "Days must be a whole number from 1 to 400"


class UsageQuery(Schema):
    days: str = "30"  # 1 to 400

    @field_validator("days")
    @classmethod
    def _days(cls, value: str) -> str:
        if not value.strip().isdigit() or not 1 <= int(value) <= 400:
            raise ValueError(DAYS)
        return value.strip()


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


@router.get("", response=UsageOut)
@requires("usage.read", CANNOT_READ)
def get_usage(request, query: Query[UsageQuery]):
    """The plan's limits with the company's use, and its usage per UTC day (`days`, 1 to 400)."""
    company = request.tenant
    limits = rules.limits_of(company)
    return UsageOut(
        plan=company.subscription_plan,
        subscriptionStatus=rules.subscription_status(company),
        trialEndsAt=company.trial_ends_at,
        readOnly=rules.trial_expired(company),
        limits=[PlanLimitOut(limit=u.what, used=u.used, allowed=u.allowed) for u in rules.plan_usage(company)],
        publicApiRequestsPerMinute=int(limits["public_api_rpm"]),
        aiJobsPerDay=int(limits["ai_jobs_per_day"]),
        days=[UsageDayOut(day=row["day"], **{_camel(m): row[m] for m in usage.METRICS})
              for row in usage.usage_days(company, days=int(query.days))],
    )


ROUTES = [("/usage", router)]
