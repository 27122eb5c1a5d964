"""Input of the analytics endpoints (API.md: analytics/track, analytics/page-views)."""
from __future__ import annotations

from pydantic import field_validator

from apps.core.errors import ValidationFailed
from apps.core.schemas import InSchema
from apps.core.validation import clean_required, text

PAGE_URL_REQUIRED = "Page URL is required"
DAYS_RANGE = "Days must be between 1 and 365"
GROUP_BY_CHOICES = ("day", "week", "month")
GROUP_BY_INVALID = "Group by must be one of day, week, month"
MAX_DAYS = 365


class TrackIn(InSchema):
    """A page view: pageUrl (required), referrer, postSlug, userAgent, ipAddress (optional;
    the request's own address and User-Agent are used when absent). Long values are cut, not
    refused: a well-formed body is never answered with an error status."""

    pageUrl: str | None = None
    referrer: str | None = None
    postSlug: str | None = None
    userAgent: str | None = None
    ipAddress: str | None = None

    @field_validator("pageUrl", mode="before")
    @classmethod
    def _page_url(cls, value):
        return clean_required(value, PAGE_URL_REQUIRED)

    @field_validator("referrer", "postSlug", "userAgent", "ipAddress", mode="before")
    @classmethod
    def _text(cls, value, info):
        label = {"referrer": "Referrer", "postSlug": "Post slug", "userAgent": "User agent",
                 "ipAddress": "IP address"}[info.field_name]
        return text(value, f"{label} must be text").strip()


def clean_days(value: int | None) -> int:
    days = 30 if value is None else value
    if not 1 <= days <= MAX_DAYS:
        raise ValidationFailed(DAYS_RANGE, field="days")
    return days


def clean_group_by(value: str | None) -> str:
    group_by = (value or "day").strip().lower()
    if group_by not in GROUP_BY_CHOICES:
        raise ValidationFailed(GROUP_BY_INVALID, field="groupBy")
    return group_by
