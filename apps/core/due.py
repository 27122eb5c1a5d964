"""When each company next has periodic work due: one row per company and kind of work in the public
schema (apps.core.models.CompanyDue), so that beat finds the due companies with one indexed query
and enters only their schemas, instead of entering every company's schema every minute.

The row is a lower bound, never later than the company's next due work:

- a write that makes work due at `at` (a post scheduled) lowers the row to `at` in its own
  transaction (`due_lower`: an upsert keeping the earlier time), so it commits with the write;
- the work, once done in the company's schema, reads the row (`due_read`), finds its next due
  time there, and settles the row to it (`due_settle`) only if no write changed the row since the
  read (its `version`): a write that committed meanwhile, or is still open and holds the row, wins,
  and the row stays at the earlier time (an extra visit later, never a missed one);
- a row lost or never written (a restore, a write that bypassed the services) is repaired by a
  slow sweep that enters every company (the kind's own periodic task, e.g. hourly).

Every statement names public tables only (one statement reads the company's schema, another writes
here: Citus runs the first on the company's worker, the second on the coordinator)."""
from __future__ import annotations

from datetime import datetime

from django.db import connection

from apps.core.models import CompanyDue
from tenants.models import Client

_TABLE = CompanyDue._meta.db_table

_LOWER = f"""
INSERT INTO {_TABLE} AS due (client_id, kind, due_at, version) VALUES (%s, %s, %s, 1)
ON CONFLICT (client_id, kind) DO UPDATE
SET due_at = LEAST(due.due_at, EXCLUDED.due_at), version = due.version + 1"""


def due_lower(*, company_id: int, kind: str, at: datetime) -> None:
    """Work of `kind` is due at `at` in the company: the row is moved to `at` unless it is earlier
    already. Call it in the transaction of the write that made the work due."""
    with connection.cursor() as cursor:
        cursor.execute(_LOWER, [company_id, kind, at])


def due_read(*, company_id: int, kind: str) -> tuple[datetime | None, int] | None:
    """The row as it is now: (due_at, version), None without a row. Read it before finding the next
    due time in the company's schema, and hand the version to due_settle."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT due_at, version FROM {_TABLE} WHERE client_id = %s AND kind = %s", [company_id, kind])
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


def due_settle(*, company_id: int, kind: str, read: tuple[datetime | None, int] | None,
               next_at: datetime | None) -> bool:
    """Set the row to `next_at` (None: nothing due), found after `read` (due_read). Only when the
    row is still the one read; True when it was settled."""
    with connection.cursor() as cursor:
        if read is None:
            if next_at is None:
                return True
            cursor.execute(f"INSERT INTO {_TABLE} (client_id, kind, due_at, version) VALUES (%s, %s, %s, 1) "
                           "ON CONFLICT (client_id, kind) DO NOTHING", [company_id, kind, next_at])
        else:
            cursor.execute(f"UPDATE {_TABLE} SET due_at = %s, version = version + 1 "
                           "WHERE client_id = %s AND kind = %s AND version = %s", [next_at, company_id, kind, read[1]])
        return cursor.rowcount == 1


def due_companies(*, kind: str, now: datetime) -> list[Client]:
    """The serving companies (not suspended, not being deleted) with work of `kind` due at `now`:
    one query on the index (kind, due_at), whatever the number of companies."""
    due = CompanyDue.objects.filter(kind=kind, due_at__lte=now).values("client_id")
    return list(Client.objects.serving().filter(pk__in=due).order_by("pk"))
