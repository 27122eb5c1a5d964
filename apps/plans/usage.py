"""Usage per company per day (apps.plans.models.UsageDay; docs/plans-and-usage.md: Usage).

Nothing here writes to the database per request:

- events (public API requests, AI jobs, webhook deliveries) are added to a Redis hash per UTC day
  (`usage_count`, after the commit of the work they count). Public API requests are first added up
  in each web process (`count_api_request`, from the WSGI layer) and sent to Redis at most every
  USAGE_FLUSH_SECONDS;
- `usage_fold` (beat, every USAGE_FOLD_SECONDS) renames each day's hash (new counts go to a fresh
  one), adds its fields to the day's rows in one transaction, then deletes it; a hash left by a
  fold that failed is folded by the next run;
- levels are copied from the public tables at each fold: posts, staff seats, media bytes and
  webhook endpoints from the public copy of the plans' counters (first brought up to date for the
  companies whose counters changed: apps.plans.rules.counters_mirror); emails sent from the
  outgoing email log;
- `usage_purge` (beat, daily) removes days older than USAGE_RETENTION_DAYS (13 months).
"""
from __future__ import annotations

import logging
import uuid
from collections import Counter
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from apps.core import redis_conn
from apps.plans.metering import EVENTS, HOST, SEPARATOR, key as _key
from apps.plans.models import UsageDay
from apps.plans.rules import counters_mirror
from tenants.models import Client, Domain

logger = logging.getLogger(__name__)

LEVELS = ("posts", "staff_seats", "media_bytes", "webhook_endpoints")
METRICS = (*EVENTS, "emails", *LEVELS)


# --- the fold ----------------------------------------------------------------------------------------
_UPSERT_ADD = """INSERT INTO plans_usageday (client_id, day, metric, value) VALUES {rows}
ON CONFLICT (client_id, day, metric) DO UPDATE SET value = plans_usageday.value + EXCLUDED.value"""
_LEVELS = """INSERT INTO plans_usageday (client_id, day, metric, value)
SELECT client_id, %s, resource, used FROM plans_plancounter WHERE resource = ANY(%s)
ON CONFLICT (client_id, day, metric) DO UPDATE SET value = EXCLUDED.value"""
_EMAILS = """INSERT INTO plans_usageday (client_id, day, metric, value)
SELECT c.id, %s, 'emails', count(*) FROM tenants_outgoingemail e JOIN tenants_client c ON c.schema_name = e.schema_name
WHERE e.sent_at >= %s AND e.sent_at < %s GROUP BY c.id
ON CONFLICT (client_id, day, metric) DO UPDATE SET value = EXCLUDED.value"""


def _companies_of(schemas: set[str], hosts: set[str]) -> tuple[dict, dict]:
    by_schema = dict(Client.objects.filter(schema_name__in=schemas).values_list("schema_name", "id"))
    by_host = dict(Domain.objects.filter(domain__in=hosts).values_list("domain", "tenant_id"))
    return by_schema, by_host


def usage_fold(*, now: datetime | None = None) -> int:
    """Fold the counts waiting in Redis into the days' rows, and copy today's levels; returns how
    many fields were folded."""
    now = now or timezone.now()
    client = redis_conn.client()
    prefix = _key("")
    folded = 0
    # what a failed fold left, then each day's hash (renamed: counts arriving now go to a new one)
    keys = sorted(k.decode() for k in client.scan_iter(match=f"{prefix}*", count=500))
    for key in keys:
        rest = key[len(prefix):]
        if ":fold:" not in rest:
            claimed = f"{key}:fold:{uuid.uuid4().hex}"
            try:
                client.rename(key, claimed)
            except Exception:  # noqa: BLE001 - gone since the scan (another fold took it)
                continue
            key, rest = claimed, claimed[len(prefix):]
        day = date.fromisoformat(rest.split(":fold:")[0])
        fields = client.hgetall(key)
        parsed = []
        for field, value in fields.items():
            who, _, metric = field.decode().partition(SEPARATOR)
            if metric in EVENTS:
                parsed.append((who, metric, int(value)))
        by_schema, by_host = _companies_of({w for w, _m, _v in parsed if not w.startswith(HOST)},
                                           {w[len(HOST):] for w, _m, _v in parsed if w.startswith(HOST)})
        totals: Counter = Counter()
        for who, metric, value in parsed:
            client_id = by_host.get(who[len(HOST):]) if who.startswith(HOST) else by_schema.get(who)
            if client_id is not None:
                totals[(client_id, metric)] += value
        rows = [(client_id, day, metric, value) for (client_id, metric), value in totals.items()]
        with transaction.atomic():
            if rows:
                with connection.cursor() as cursor:
                    cursor.execute(_UPSERT_ADD.format(rows=", ".join(["(%s, %s, %s, %s)"] * len(rows))),
                                   [part for row in rows for part in row])
        client.delete(key)
        folded += len(fields)
    today = now.date()
    counters_mirror()  # the counters changed since the last fold, copied from the companies' schemas
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_LEVELS, [today, list(LEVELS)])
        for day in (today - timedelta(days=1), today):  # yesterday's last emails, after its last fold
            start = datetime.combine(day, datetime.min.time(), tzinfo=now.tzinfo)
            cursor.execute(_EMAILS, [day, start, start + timedelta(days=1)])
    return folded


def usage_purge(*, now: datetime | None = None) -> int:
    cutoff = (now or timezone.now()).date() - timedelta(days=settings.USAGE_RETENTION_DAYS)
    deleted, _ = UsageDay.objects.filter(day__lt=cutoff).delete()
    return deleted


# --- reads -------------------------------------------------------------------------------------------
def usage_today():
    """Usage days are UTC days."""
    return timezone.now().date()


def usage_days(company, *, days: int) -> list[dict]:
    """The company's last `days` days, oldest first, every metric present (0 when nothing)."""
    today = usage_today()
    first = today - timedelta(days=days - 1)
    found: dict = {}
    for day, metric, value in UsageDay.objects.filter(client_id=company.pk, day__gte=first, day__lte=today) \
            .values_list("day", "metric", "value"):
        found.setdefault(day, {})[metric] = value
    return [{"day": first + timedelta(days=n), **{metric: found.get(first + timedelta(days=n), {}).get(metric, 0)
                                                  for metric in METRICS}} for n in range(days)]
