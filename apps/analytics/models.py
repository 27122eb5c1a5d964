"""Page-view analytics (tenant schema).

Raw events (`PageView`) arrive in batches from the per-tenant Redis stream (or straight from
the request when Redis is down) and are kept ANALYTICS_RAW_RETENTION_DAYS days. The rollup
task folds events that are not rolled up yet into the daily tables below, which every read
uses; only events still waiting for the rollup are read raw (a partial index finds them).

No IP address or user agent is stored: `visitor_hash` is an HMAC of (IP, user agent) under a
secret that changes every day (apps/analytics/privacy.py). Days are the company's calendar dates
(its `time_zone`) when the event was stored.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q


class PageView(models.Model):
    id = models.BigAutoField(primary_key=True)
    # The Redis stream entry id ("r:<ms>-<seq>") or "d:<uuid>" for events written directly;
    # unique, so a flush that is retried after a crash inserts nothing twice.
    event_id = models.CharField(max_length=64, unique=True)
    occurred_at = models.DateTimeField()
    day = models.DateField()
    page_url = models.CharField(max_length=2000)
    post_slug = models.CharField(max_length=255, blank=True, default="")
    source = models.CharField(max_length=255)  # referrer host, or "direct"
    visitor_hash = models.CharField(max_length=64)
    rolled_up = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["day"], name="analytics_pv_day_idx"),
            models.Index(fields=["id"], name="analytics_pv_pending_idx", condition=Q(rolled_up=False)),
        ]


class DailyVisitor(models.Model):
    """Visitor hashes already counted for a day (so a later batch does not count them again)."""

    id = models.BigAutoField(primary_key=True)
    day = models.DateField()
    visitor_hash = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "visitor_hash"], name="analytics_visitor_day_uniq")]


class DailyTotal(models.Model):
    day = models.DateField(primary_key=True)
    views = models.PositiveIntegerField(default=0)
    unique_visitors = models.PositiveIntegerField(default=0)


class DailyPostViews(models.Model):
    id = models.BigAutoField(primary_key=True)
    day = models.DateField()
    post = models.ForeignKey("content.Post", on_delete=models.CASCADE, related_name="daily_views")
    views = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "post"], name="analytics_post_day_uniq")]


class DailyReferrerViews(models.Model):
    id = models.BigAutoField(primary_key=True)
    day = models.DateField()
    source = models.CharField(max_length=255)
    views = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "source"], name="analytics_referrer_day_uniq")]
