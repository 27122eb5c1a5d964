"""Reads of the analytics app: page-view analytics and dashboard statistics.

Page views come from the daily rollup tables plus the events not rolled up yet (normally the
last few seconds; more while Redis was down), found through a partial index. Events still in
the Redis stream (at most one flush interval old) are not counted until flushed.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.utils import timezone

from apps.accounts.models import User
from apps.analytics.models import DailyPostViews, DailyReferrerViews, DailyTotal, DailyVisitor, PageView
from apps.analytics.services import company_today
from apps.content import kinds
from apps.content.models import Category, Post, Tag
from apps.media.models import Media

TOP_POSTS = 5
TOP_CATEGORIES = 5
RECENT_POSTS = 5


def _bucket(day: date, group_by: str) -> date:
    if group_by == "week":
        return day - timedelta(days=day.weekday())  # Monday
    if group_by == "month":
        return day.replace(day=1)
    return day


def page_views(*, days: int, group_by: str = "day", today: date | None = None) -> dict:
    """The last `days` days, today included: the company's calendar days (its time zone, as
    every event's day). `totalViews` counts page views of any page; `topContent` and
    `viewedPosts` only those of posts; the timeline adds up to `totalViews`."""
    today = today or company_today()
    start = today - timedelta(days=days - 1)
    pending = PageView.objects.filter(rolled_up=False, day__gte=start, day__lte=today)

    # Daily totals: rollups + pending events (their visitors not counted yet that day).
    per_day: dict[date, list[int]] = defaultdict(lambda: [0, 0])
    for day, views, visitors in DailyTotal.objects.filter(day__gte=start, day__lte=today).values_list(
        "day", "views", "unique_visitors"
    ):
        per_day[day][0] += views
        per_day[day][1] += visitors
    already_counted = DailyVisitor.objects.filter(day=OuterRef("day"), visitor_hash=OuterRef("visitor_hash"))
    for day, views, visitors in (
        pending.values("day")
        .annotate(views=Count("id"), visitors=Count("visitor_hash", distinct=True, filter=~Exists(already_counted)))
        .values_list("day", "views", "visitors")
    ):
        per_day[day][0] += views
        per_day[day][1] += visitors

    # Views per post.
    posts: dict = {}
    for post_id, title, slug, views in (
        DailyPostViews.objects.filter(day__gte=start, day__lte=today)
        .values("post_id", "post__title", "post__slug")
        .annotate(total=Sum("views"))
        .values_list("post_id", "post__title", "post__slug", "total")
    ):
        posts[post_id] = {"title": title, "slug": slug, "views": views}
    pending_slugs = dict(
        pending.exclude(post_slug="").values("post_slug").annotate(views=Count("id")).values_list("post_slug", "views")
    )
    if pending_slugs:
        for post_id, title, slug in Post.objects.filter(slug__in=pending_slugs).values_list("id", "title", "slug"):
            entry = posts.setdefault(post_id, {"title": title, "slug": slug, "views": 0})
            entry["views"] += pending_slugs[slug]

    # Views per referring site.
    sources: Counter = Counter()
    for source, views in (
        DailyReferrerViews.objects.filter(day__gte=start, day__lte=today)
        .values("source").annotate(total=Sum("views")).values_list("source", "total")
    ):
        sources[source] += views
    for source, views in pending.values("source").annotate(views=Count("id")).values_list("source", "views"):
        sources[source] += views

    buckets: dict[date, list[int]] = {}
    day = start
    while day <= today:
        bucket = buckets.setdefault(_bucket(day, group_by), [0, 0])
        bucket[0] += per_day[day][0] if day in per_day else 0
        bucket[1] += per_day[day][1] if day in per_day else 0
        day += timedelta(days=1)

    viewed = [entry for entry in posts.values() if entry["views"] > 0]
    top = sorted(viewed, key=lambda entry: (-entry["views"], entry["title"], entry["slug"]))[:TOP_POSTS]
    referrers = sorted(sources.items(), key=lambda item: (-item[1], item[0]))[: settings.ANALYTICS_TOP_REFERRERS]
    return {
        "summary": {
            "totalViews": sum(views for views, _ in per_day.values()),
            "uniqueVisitors": sum(visitors for _, visitors in per_day.values()),
            "viewedPosts": len(viewed),
        },
        "timeline": [
            {"date": bucket.isoformat(), "views": views, "uniqueVisitors": visitors}
            for bucket, (views, visitors) in buckets.items()
        ],
        "topContent": {"posts": top},
        "trafficSources": {"referrers": [{"source": source, "views": views} for source, views in referrers]},
    }


def _month_start(day: date) -> date:
    return day.replace(day=1)


def dashboard_stats(*, now=None) -> dict:
    """Counts for the dashboard home (no raw events are read). Months are UTC calendar months
    of the posts' creation dates; growth is (this - last) / last in percent, one decimal
    (100.0 when last month had none and this month has some, 0.0 when both are empty)."""
    now = (now or timezone.now()).astimezone(dt_timezone.utc)
    this_month = _month_start(now.date())
    last_month = _month_start(this_month - timedelta(days=1))
    this_start = datetime(this_month.year, this_month.month, 1, tzinfo=dt_timezone.utc)
    last_start = datetime(last_month.year, last_month.month, 1, tzinfo=dt_timezone.utc)

    posts = Post.objects.of_kind(kinds.POST).aggregate(  # posts, not pages (apps.content.kinds)
        total=Count("id"),
        published=Count("id", filter=Q(status=Post.Status.PUBLISHED)),
        draft=Count("id", filter=Q(status=Post.Status.DRAFT)),
        this_month=Count("id", filter=Q(created_at__gte=this_start)),
        last_month=Count("id", filter=Q(created_at__gte=last_start, created_at__lt=this_start)),
    )
    if posts["last_month"]:
        growth = round((posts["this_month"] - posts["last_month"]) * 100.0 / posts["last_month"], 1)
    else:
        growth = 100.0 if posts["this_month"] else 0.0
    top_categories = (
        Category.objects.annotate(post_count=Count("posts"))
        .filter(post_count__gt=0)
        .order_by("-post_count", "name")
        .values("name", "slug", "post_count")[:TOP_CATEGORIES]
    )
    recent = Post.objects.of_kind(kinds.POST).order_by("-created_at", "-id").values("id", "title", "status", "published_at")[:RECENT_POSTS]
    return {
        "overview": {
            "totalPosts": posts["total"],
            "publishedPosts": posts["published"],
            "draftPosts": posts["draft"],
            "totalCategories": Category.objects.count(),
            "totalTags": Tag.objects.count(),
            "totalUsers": User.objects.count(),
            "totalMedia": Media.objects.count(),
        },
        "analytics": {
            "postsThisMonth": posts["this_month"],
            "postsLastMonth": posts["last_month"],
            "growthPercentage": growth,
            "topCategories": [
                {"name": row["name"], "slug": row["slug"], "postCount": row["post_count"]} for row in top_categories
            ],
        },
        "recentActivity": {
            "recentPosts": [
                {"id": str(row["id"]), "title": row["title"], "status": row["status"],
                 "publishedAt": row["published_at"]}
                for row in recent
            ],
        },
    }
