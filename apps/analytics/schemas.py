"""Input and replies of the analytics endpoints (docs/analytics.md: analytics/track, analytics/page-views,
dashboard/stats). The tracking call's body and reply are apps.analytics.tracking's (re-exported here)."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from apps.analytics.tracking import PAGE_URL_REQUIRED, TrackIn, TrackOut  # noqa: F401 - re-exported
from apps.core.errors import ValidationFailed
from apps.core.schemas import OutSchema, SuccessOut

DAYS_RANGE = "Days must be between 1 and 365"
GROUP_BY_CHOICES = ("day", "week", "month")
GROUP_BY_INVALID = "Group by must be one of day, week, month"
MAX_DAYS = 365


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


# --- replies (keys in the order they are sent) ---------------------------------------------------
class PageViewsSummaryOut(OutSchema):
    totalViews: int
    uniqueVisitors: int
    viewedPosts: int


class TimelinePointOut(OutSchema):
    date: str = Field(json_schema_extra={"format": "date"})  # the first day of the bucket (UTC)
    views: int
    uniqueVisitors: int


class PostViewsOut(OutSchema):
    title: str
    slug: str
    views: int


class TopContentOut(OutSchema):
    posts: list[PostViewsOut]


class ReferrerViewsOut(OutSchema):
    source: str  # the referring host, or "direct"
    views: int


class TrafficSourcesOut(OutSchema):
    referrers: list[ReferrerViewsOut]


class PageViewsDataOut(OutSchema):
    summary: PageViewsSummaryOut
    timeline: list[TimelinePointOut]  # (+)
    topContent: TopContentOut
    trafficSources: TrafficSourcesOut


class PageViewsOut(SuccessOut):
    message: str
    data: PageViewsDataOut


class StatsOverviewOut(OutSchema):
    totalPosts: int
    publishedPosts: int
    draftPosts: int
    totalCategories: int
    totalTags: int
    totalUsers: int
    totalMedia: int


class CategoryPostsOut(OutSchema):
    name: str
    slug: str
    postCount: int


class StatsAnalyticsOut(OutSchema):
    postsThisMonth: int
    postsLastMonth: int
    growthPercentage: float  # one decimal
    topCategories: list[CategoryPostsOut]


class RecentPostOut(OutSchema):
    id: str
    title: str
    status: Literal["draft", "published", "archived"]
    publishedAt: datetime | None


class RecentActivityOut(OutSchema):
    recentPosts: list[RecentPostOut]


class DashboardStatsDataOut(OutSchema):
    overview: StatsOverviewOut
    analytics: StatsAnalyticsOut
    recentActivity: RecentActivityOut


class DashboardStatsOut(SuccessOut):
    message: str
    data: DashboardStatsDataOut
