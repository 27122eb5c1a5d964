"""Writes of the analytics app: tracking, flushing the buffer, rolling up, purging.

All of these run in the tenant's schema (a request on its host, or a task that carries it).
"""
from __future__ import annotations

import logging
import uuid
from collections import Counter
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import redis
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from apps.analytics import buffer
from apps.analytics.models import DailyPostViews, DailyReferrerViews, DailyTotal, DailyVisitor, PageView
from apps.analytics.privacy import referrer_source, visitor_hash
from apps.content.models import Post
from apps.core import redis_conn
from tenants.models import Client

logger = logging.getLogger(__name__)

PAGE_URL_MAX = 2000
SLUG_MAX = 255


def utc_today() -> date:
    return timezone.now().astimezone(dt_timezone.utc).date()


def company_zone() -> ZoneInfo:
    """The time zone of the company whose schema the connection is on (UTC when unknown): an
    event's day, and "today" in the statistics, are the company's calendar days."""
    tenant = getattr(connection, "tenant", None)
    name = getattr(tenant, "time_zone", None)
    if name is None and connection.schema_name:
        name = Client.objects.filter(schema_name=connection.schema_name).values_list("time_zone", flat=True).first()
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def company_today(now: datetime | None = None) -> date:
    return (now or timezone.now()).astimezone(company_zone()).date()


def pageview_event(*, page_url: str, referrer: str, post_slug: str, user_agent: str, ip: str, now: datetime,
                   schema: str | None = None) -> dict[str, str]:
    """The stored form of one page view (no IP, no user agent) of `schema` (default: the
    connection's)."""
    now = now.astimezone(dt_timezone.utc)
    page_url = (page_url or "")[:PAGE_URL_MAX]
    return {
        "t": now.isoformat(),
        "u": page_url,
        "p": (post_slug or "").strip()[:SLUG_MAX],
        "r": referrer_source(referrer, page_url),
        "v": visitor_hash(schema=schema or connection.schema_name, ip=ip or "", user_agent=user_agent or "",
                          day=now.date()),
    }


def _row(event_id: str, fields: dict[str, str], zone: ZoneInfo | None = None) -> PageView:
    occurred_at = datetime.fromisoformat(fields["t"])
    zone = zone or company_zone()
    return PageView(
        event_id=event_id,
        occurred_at=occurred_at,
        day=occurred_at.astimezone(zone).date(),
        page_url=fields.get("u", "")[:PAGE_URL_MAX],
        post_slug=fields.get("p", "")[:SLUG_MAX],
        source=fields.get("r", "") or "direct",
        visitor_hash=fields["v"][:64],
    )


def pageview_track(*, page_url: str, referrer: str = "", post_slug: str = "", user_agent: str = "", ip: str = "",
                   now: datetime | None = None) -> bool:
    """Record one page view: appended to the tenant's Redis stream, or written straight to
    PostgreSQL when Redis does not answer. False only when both failed (logged)."""
    fields = pageview_event(page_url=page_url, referrer=referrer, post_slug=post_slug, user_agent=user_agent, ip=ip,
                    now=now or timezone.now())
    if redis_conn.available():
        try:
            buffer.append(connection.schema_name, fields)
            return True
        except redis.RedisError as exc:
            redis_conn.failed(exc, "page views are written straight to PostgreSQL")
    try:
        _row(f"d:{uuid.uuid4().hex}", fields, company_zone()).save(force_insert=True)
        return True
    except DatabaseError:
        logger.exception("page view lost: neither Redis nor PostgreSQL accepted it")
        return False


def pageview_flush(*, batch_size: int | None = None, max_batches: int | None = None) -> int:
    """Move buffered events of this tenant from Redis to PostgreSQL, oldest first, in batches.
    Returns how many stream entries were handled. Raises redis.RedisError."""
    schema = connection.schema_name
    batch_size = batch_size or settings.ANALYTICS_FLUSH_BATCH
    max_batches = max_batches or settings.ANALYTICS_FLUSH_MAX_BATCHES
    handled = 0
    zone = company_zone()
    for _ in range(max_batches):
        entries = buffer.read(schema, batch_size)
        if not entries:
            break
        rows = []
        for entry_id, fields in entries:
            try:
                rows.append(_row(f"r:{entry_id}", fields, zone))
            except (KeyError, ValueError):
                logger.warning("dropping malformed analytics event %s in %s", entry_id, schema)
        PageView.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)
        buffer.delete(schema, [entry_id for entry_id, _ in entries])
        handled += len(entries)
        if len(entries) < batch_size:
            break
    return handled


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _claim_sql() -> str:
    table = _table(PageView)
    return (
        f"UPDATE {table} SET rolled_up = TRUE WHERE id IN ("
        f"SELECT id FROM {table} WHERE NOT rolled_up ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED) "
        "RETURNING day, post_slug, source, visitor_hash"
    )


def _fold(rows: list[tuple]) -> None:
    """Add one batch of claimed events to the daily tables (inside the claiming transaction)."""
    views = Counter(day for day, _slug, _source, _visitor in rows)
    sources = Counter((day, source) for day, _slug, source, _visitor in rows)
    slug_views = Counter((day, slug) for day, slug, _source, _visitor in rows if slug)
    pairs = sorted({(day, visitor) for day, _slug, _source, visitor in rows})

    with connection.cursor() as cursor:
        # Visitors not yet seen that day (the unique constraint decides, even across
        # concurrent rollups): they are the day's new unique visitors.
        cursor.execute(
            f"INSERT INTO {_table(DailyVisitor)} (day, visitor_hash) "
            "SELECT * FROM unnest(%s::date[], %s::text[]) ON CONFLICT (day, visitor_hash) DO NOTHING RETURNING day",
            [[day for day, _ in pairs], [visitor for _, visitor in pairs]],
        )
        new_visitors = Counter(day for (day,) in cursor.fetchall())

        days = sorted(views)
        table = _table(DailyTotal)
        cursor.execute(
            f"INSERT INTO {table} (day, views, unique_visitors) "
            "SELECT * FROM unnest(%s::date[], %s::int[], %s::int[]) "
            f"ON CONFLICT (day) DO UPDATE SET views = {table}.views + EXCLUDED.views, "
            f"unique_visitors = {table}.unique_visitors + EXCLUDED.unique_visitors",
            [days, [views[day] for day in days], [new_visitors.get(day, 0) for day in days]],
        )

        keys = sorted(sources)
        table = _table(DailyReferrerViews)
        cursor.execute(
            f"INSERT INTO {table} (day, source, views) SELECT * FROM unnest(%s::date[], %s::text[], %s::int[]) "
            f"ON CONFLICT (day, source) DO UPDATE SET views = {table}.views + EXCLUDED.views",
            [[day for day, _ in keys], [source for _, source in keys], [sources[key] for key in keys]],
        )

        if slug_views:
            post_ids = dict(Post.objects.filter(slug__in={slug for _, slug in slug_views}).values_list("slug", "id"))
            post_views: Counter = Counter()
            for (day, slug), count in slug_views.items():
                if slug in post_ids:  # views of unknown slugs count in the totals only
                    post_views[(day, post_ids[slug])] += count
            if post_views:
                keys = sorted(post_views, key=lambda key: (key[0], str(key[1])))
                table = _table(DailyPostViews)
                cursor.execute(
                    f"INSERT INTO {table} (day, post_id, views) "
                    "SELECT * FROM unnest(%s::date[], %s::uuid[], %s::int[]) "
                    f"ON CONFLICT (day, post_id) DO UPDATE SET views = {table}.views + EXCLUDED.views",
                    [[day for day, _ in keys], [post for _, post in keys], [post_views[key] for key in keys]],
                )


def pageview_rollup(*, batch_size: int | None = None) -> int:
    """Fold every event not rolled up yet into the daily tables. Each batch is claimed and
    counted in one transaction (FOR UPDATE SKIP LOCKED), so concurrent rollups never count an
    event twice and a crash loses nothing. Returns the number of events rolled up."""
    batch_size = batch_size or settings.ANALYTICS_ROLLUP_BATCH
    rolled = 0
    while True:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(_claim_sql(), [batch_size])
                rows = cursor.fetchall()
            if rows:
                _fold(rows)
        rolled += len(rows)
        if len(rows) < batch_size:
            return rolled


def pageview_purge(*, today: date | None = None) -> dict[str, int]:
    """Delete raw events (and the day's visitor hashes) older than the retention period.
    Events not rolled up yet are rolled up first: nothing is deleted uncounted."""
    pageview_rollup()
    cutoff = (today or utc_today()) - timedelta(days=settings.ANALYTICS_RAW_RETENTION_DAYS)
    events, _ = PageView.objects.filter(day__lt=cutoff, rolled_up=True).delete()
    visitors, _ = DailyVisitor.objects.filter(day__lt=cutoff).delete()
    return {"events": events, "visitors": visitors}
