from __future__ import annotations

from datetime import date, datetime

from apps.core.schemas import OutSchema, SuccessOut


class PlanLimitOut(OutSchema):
    limit: str  # staff_seats, posts, media_bytes, webhook_endpoints
    used: int
    allowed: int | None  # null: no limit


class UsageDayOut(OutSchema):
    day: date
    apiRequests: int
    aiJobs: int
    emails: int
    webhookDeliveries: int
    posts: int
    staffSeats: int
    mediaBytes: int
    webhookEndpoints: int


class UsageOut(SuccessOut):
    plan: str
    subscriptionStatus: str  # trialing, expired, active, suspended
    trialEndsAt: datetime | None
    readOnly: bool  # the trial ended: the dashboard is read-only until the plan changes
    limits: list[PlanLimitOut]
    publicApiRequestsPerMinute: int
    aiJobsPerDay: int
    days: list[UsageDayOut]  # oldest first; folded every few minutes
