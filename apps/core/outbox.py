"""The transactional outbox: whatever must leave the system after a commit (an email, a webhook
delivery, an edge-cache purge, a company's deletion, renditions...) is a row of core_outbox
(apps.core.models.OutboxMessage) written in the same transaction as the change it follows, and
handed to a Celery task from there:

- after the commit, one immediate attempt on a broker connection with timeouts
  (apps.core.task_queue.bounded_connection). A broker that is down costs the request at most a few
  seconds and is logged, never an error: the row stays due and the relay sends it;
- the relay (`core.outbox_relay`, beat, every OUTBOX_RELAY_SECONDS) sends what is due, in batches
  locked with SELECT ... FOR UPDATE SKIP LOCKED: rows whose immediate attempt failed, retries
  whose time has come, and messages whose lease ran out (sent, but the task did not finish in
  OUTBOX_LEASE_SECONDS: a worker killed while it held the message, a broker restarted without
  persistence). Each further sending of the same row doubles its lease (at most 16 times);
  after OUTBOX_MAX_DISPATCHES sendings without an answer the relay stops and the row is stuck
  (`manage.py outbox`);
- the task finishing removes its row (apps.core.tasks_base.CMSTask reads the row's key from the
  message's header). A task that must try again later raises `Later(at)`: the row is due then. A
  short wait (OUTBOX_COUNTDOWN_MAX_SECONDS) is also sent at once with a countdown; long ones never
  are (with Redis, a countdown longer than the visibility timeout is delivered again and again).

The work is idempotent by its own key (an email's Message-ID and `sent_at`, a webhook delivery's
id and status): a message delivered twice does the work once.
"""
from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from apps.core.models import OutboxMessage
from apps.core.task_queue import SEND_RETRY_POLICY, bounded_connection, broker_errors, send_by_name

logger = logging.getLogger(__name__)

HEADER = "outbox_key"  # the message header naming the row a task works for
LEASE_GROWTH_MAX = 4  # a row sent again gets lease x 2**dispatches, at most x 2**4


class Later(Exception):  # noqa: N818 - an answer of a task, not an error
    """Raised by a task: the work is not done; try it again at `at` (with other `args` or
    `kwargs` when given, e.g. only what is left to do)."""

    def __init__(self, at: datetime, error: str = "", *, args: list | None = None, kwargs: dict | None = None):
        super().__init__(error or f"again at {at.isoformat()}")
        self.at, self.error, self.args_, self.kwargs_ = at, error, args, kwargs

    @classmethod
    def after(cls, seconds: float, error: str = "", **kw) -> "Later":
        return cls(timezone.now() + timedelta(seconds=seconds), error, **kw)


class Busy(Exception):  # noqa: N818
    """Raised by a task: another run holds this work right now, or its next try is not due yet;
    the row is left as it is (that run finishes it or sets its next time)."""


@dataclass(frozen=True)
class _Message:
    id: int
    key: str
    task: str
    args: list
    kwargs: dict
    schema_name: str
    countdown: float | None = None


_INSERT = """
INSERT INTO core_outbox (key, task, args, kwargs, schema_name, due_at, lease_seconds, dispatches, created_at,
                         dispatched_at, last_error)
VALUES (%(key)s, %(task)s, %(args)s::jsonb, %(kwargs)s::jsonb, %(schema)s, %(due)s, %(lease)s, %(dispatches)s,
        %(now)s, %(dispatched)s, %(error)s)
ON CONFLICT (key) DO {conflict}
RETURNING id"""
# A retry: its time, and whether it was sent at once with a countdown (leased until then + lease).
_RESCHEDULE = _INSERT.format(conflict="""UPDATE SET
    due_at = CASE WHEN EXCLUDED.dispatches > 0
                  THEN %(at)s + make_interval(secs => core_outbox.lease_seconds) ELSE %(at)s END,
    dispatches = EXCLUDED.dispatches, dispatched_at = EXCLUDED.dispatched_at, last_error = EXCLUDED.last_error,
    args = EXCLUDED.args, kwargs = EXCLUDED.kwargs""")
_ADD = _INSERT.format(conflict="NOTHING")


def _row(*, key: str, task: str, args, kwargs, schema: str, due: datetime, lease: int, dispatches: int,
         now: datetime, error: str = "", at: datetime | None = None) -> dict:
    return {"key": key, "task": task, "args": json.dumps(list(args or [])), "kwargs": json.dumps(dict(kwargs or {})),
            "schema": schema, "due": due, "lease": lease, "dispatches": dispatches, "now": now,
            "dispatched": now if dispatches else None, "error": error[:500], "at": at}


def outbox_add(*, task: str, args: list | None = None, kwargs: dict | None = None, key: str | None = None,
               schema_name: str | None = None, due_at: datetime | None = None, lease: int | None = None) -> bool:
    """Store work for the Celery task `task` in the current transaction (outside one: at once).
    `key`: the work's idempotency key (a row with this key still waiting makes this a no-op: False);
    `schema_name`: where the task runs (default: the connection's schema); `due_at`: not before
    then (default: now, sent right after the commit); `lease`: seconds the task may take before it
    is sent again (default OUTBOX_LEASE_SECONDS; longer for work with retries of its own)."""
    now = timezone.now()
    lease = int(lease or settings.OUTBOX_LEASE_SECONDS)
    immediate = due_at is None or due_at <= now
    schema = schema_name or connection.schema_name or "public"
    row = _row(key=key or f"{task}:{uuid.uuid4().hex}", task=task, args=args, kwargs=kwargs, schema=schema,
               due=now + timedelta(seconds=lease) if immediate else due_at, lease=lease,
               dispatches=1 if immediate else 0, now=now)
    with connection.cursor() as cursor:
        cursor.execute(_ADD, row)
        found = cursor.fetchone()
    if found is None:
        return False
    if immediate:
        _send_after_commit(found[0])
    return True


def _send_after_commit(row_id: int) -> None:
    """One broker connection for every row a transaction added: the first row of a transaction
    registers the callback, the others join its list (a list whose callback was dropped with a
    rolled-back savepoint is not joined; rows rolled back are not found when it runs)."""
    batch = getattr(connection, "_outbox_batch", None)
    if (batch is not None and connection.in_atomic_block
            and any(callback is batch[0] for _sids, callback, _robust in connection.run_on_commit)):
        batch[1].append(row_id)
        return
    ids = [row_id]

    def send_added_rows() -> None:
        if getattr(connection, "_outbox_batch", None) is batch_:
            connection._outbox_batch = None
        _send_now(ids)

    batch_ = (send_added_rows, ids)
    connection._outbox_batch = batch_
    transaction.on_commit(send_added_rows, robust=True)  # outside a transaction: runs now


def _loaded(row) -> _Message:
    """A row of (id, key, task, args, kwargs, schema_name): Django's driver setup reads jsonb as text."""
    row_id, key, task, args, kwargs, schema = row
    return _Message(row_id, key, task, json.loads(args) if isinstance(args, str) else args,
                    json.loads(kwargs) if isinstance(kwargs, str) else kwargs, schema)


def _messages(ids: list[int]) -> list[_Message]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, key, task, args, kwargs, schema_name FROM core_outbox WHERE id = ANY(%s) "
                       "ORDER BY id", [ids])
        return [_loaded(row) for row in cursor.fetchall()]


def _send_now(ids: list[int]) -> None:
    """The attempt right after the commit: rows the broker did not take are due again at once."""
    messages = _messages(ids)
    sent, error = _publish(messages)
    unsent = [message.id for message in messages if message.id not in sent]
    if unsent:
        with connection.cursor() as cursor:
            cursor.execute("UPDATE core_outbox SET due_at = %s, dispatches = GREATEST(dispatches - 1, 0), "
                           "last_error = %s WHERE id = ANY(%s)", [timezone.now(), error[:500], unsent])


def _publish(messages: list[_Message]) -> tuple[set[int], str]:
    """Send each message (the company's schema and the row's key in its headers) on one bounded
    connection; stops at the first broker error. Returns the ids sent and that error ("")."""
    if not messages:
        return set(), ""

    sent: set[int] = set()
    try:
        with bounded_connection() as broker:
            for message in messages:
                options = {"countdown": message.countdown} if message.countdown else {}
                send_by_name(message.task, args=list(message.args), kwargs=dict(message.kwargs),
                             headers={"_schema_name": message.schema_name, HEADER: message.key},
                             connection=broker, retry=True, retry_policy=SEND_RETRY_POLICY, **options)
                sent.add(message.id)
    except broker_errors() as exc:
        error = f"broker unavailable: {exc.__class__.__name__}: {exc}"
        logger.warning("outbox: %d message(s) not sent now, the relay sends them later (%s)",
                       len(messages) - len(sent), error)
        return sent, error
    return sent, ""


# --- the relay -------------------------------------------------------------------------------------
_LEASED = f"""UPDATE core_outbox SET dispatches = dispatches + 1, dispatched_at = %(now)s,
    due_at = %(now)s + make_interval(secs => lease_seconds * power(2, LEAST(dispatches, {LEASE_GROWTH_MAX})))
    WHERE id = ANY(%(ids)s)"""


def outbox_relay(*, batch_size: int | None = None, max_batches: int = 20) -> int:
    """Send every row that is due (module docstring); returns how many messages were sent. Stops
    at the first broker error (the rows stay due, with the error, for the next run)."""
    batch_size = batch_size or settings.OUTBOX_BATCH
    total = 0
    for _ in range(max_batches):
        now = timezone.now()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT id, key, task, args, kwargs, schema_name FROM core_outbox "
                    "WHERE due_at <= %s AND dispatches < %s ORDER BY due_at LIMIT %s FOR UPDATE SKIP LOCKED",
                    [now, settings.OUTBOX_MAX_DISPATCHES, batch_size])
                messages = [_loaded(row) for row in cursor.fetchall()]
            if not messages:
                break
            sent, error = _publish(messages)
            with connection.cursor() as cursor:
                if sent:
                    cursor.execute(_LEASED, {"now": now, "ids": list(sent)})
                unsent = [message.id for message in messages if message.id not in sent]
                if unsent:
                    cursor.execute("UPDATE core_outbox SET last_error = %s WHERE id = ANY(%s)", [error[:500], unsent])
        total += len(sent)
        if error or len(messages) < batch_size:
            break
    if total:
        logger.info("outbox relay: %d message(s) sent", total)
    return total


# --- what a task reports (apps.core.tasks_base.CMSTask) -------------------------------------------
def key_of(request) -> str | None:
    """The outbox key a task's message carries (custom headers are merged into the request by
    the Redis transport, kept under `headers` by others and by eager runs)."""
    headers = getattr(request, "headers", None) or {}
    return headers.get(HEADER) or request.get(HEADER)


def outbox_finish(*, key: str) -> None:
    """The work is done (or there is nothing left to do): its row goes."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM core_outbox WHERE key = %s", [key])


def outbox_reschedule(*, key: str | None, task: str, args, kwargs, schema_name: str, at: datetime,
                      error: str = "") -> None:
    """The task asked to be tried again at `at` (Later): the row is due then. A wait of at most
    OUTBOX_COUNTDOWN_MAX_SECONDS is sent now with a countdown (the row leased past it)."""
    now = timezone.now()
    wait = max(0.0, (at - now).total_seconds())
    soon = wait <= settings.OUTBOX_COUNTDOWN_MAX_SECONDS
    lease = settings.OUTBOX_LEASE_SECONDS
    key = key or f"{task}:{uuid.uuid4().hex}"
    row = _row(key=key, task=task, args=args, kwargs=kwargs, schema=schema_name,
               due=at + timedelta(seconds=lease) if soon else at, lease=lease, dispatches=1 if soon else 0,
               now=now, error=error, at=at)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(_RESCHEDULE, row)
            [row_id] = cursor.fetchone()
    if not soon:
        return
    sent, failed = _publish([_Message(row_id, key, task, list(args or []), dict(kwargs or {}), schema_name,
                                      countdown=wait or None)])
    if not sent:
        with connection.cursor() as cursor:
            cursor.execute("UPDATE core_outbox SET due_at = %s, dispatches = 0, last_error = %s WHERE id = %s",
                           [at, (failed or error)[:500], row_id])


# --- recording what went out -----------------------------------------------------------------------
RECORD_SECONDS = 60  # how long a record of work that went out is retried through a database outage


def record_sent(write, *, what: str, seconds: float = RECORD_SECONDS) -> None:
    """Run `write` (a short write in a transaction of its own) until it succeeds, for up to
    `seconds`: the record of work that went out and cannot be undone (an email the SMTP server
    accepted, a webhook its receiver answered) must outlive a database restart, or the work would be
    sent again. Each try after a failure opens a new connection."""
    import time

    from django.db import DatabaseError

    deadline = time.monotonic() + seconds
    pause = 0.1
    while True:
        try:
            with transaction.atomic():
                write()
            return
        except DatabaseError:
            if time.monotonic() >= deadline:
                logger.exception("%s went out but could not be recorded", what)
                raise
            connection.close()
            time.sleep(pause)
            pause = min(pause * 2, 2.0)


# --- reads: the operator command, the dashboard -----------------------------------------------------
STATES = ("waiting", "in_flight", "due", "stuck")


def state_filters(now: datetime | None = None) -> dict:
    """What each state of a row means (one place for the command, the dashboard and the docs):
    waiting: a retry later; in_flight: sent, within its lease; due: the relay sends it on its next
    run; stuck: sent OUTBOX_MAX_DISPATCHES times without an answer, or due for OUTBOX_STUCK_SECONDS
    and still not sent (the relay or the broker is down)."""
    from django.db.models import Q

    now = now or timezone.now()
    stuck = Q(dispatches__gte=settings.OUTBOX_MAX_DISPATCHES) | Q(
        due_at__lt=now - timedelta(seconds=settings.OUTBOX_STUCK_SECONDS))
    return {"waiting": Q(due_at__gt=now, dispatches=0), "in_flight": Q(due_at__gt=now, dispatches__gt=0) & ~stuck,
            "due": Q(due_at__lte=now) & ~stuck, "stuck": stuck}


def outbox_rows(*, schema_name: str | None = None, task: str | None = None, key: str | None = None):
    rows = OutboxMessage.objects.all()
    if schema_name:
        rows = rows.filter(schema_name=schema_name)
    if task:
        rows = rows.filter(task=task)
    if key:
        rows = rows.filter(key=key)
    return rows


def outbox_counts(*, schema_name: str | None = None, task: str | None = None) -> list[dict]:
    """Per task and schema: how many rows are in each state, and when the oldest was written."""
    from django.db.models import Count, Min

    filters = state_filters()
    return list(outbox_rows(schema_name=schema_name, task=task).values("task", "schema_name")
                .annotate(total=Count("id"), oldest=Min("created_at"),
                          **{state: Count("id", filter=filters[state]) for state in STATES})
                .order_by("schema_name", "task"))


def outbox_stuck(*, schema_name: str | None = None, task: str | None = None):
    return outbox_rows(schema_name=schema_name, task=task).filter(state_filters()["stuck"]).order_by("created_at")


def outbox_retry(*, schema_name: str | None = None, task: str | None = None, key: str | None = None) -> int:
    """Stuck and due rows (or the row `key`) become due now with their count of sendings reset;
    returns how many. The relay sends them on its next run."""
    filters = state_filters()
    rows = outbox_rows(schema_name=schema_name, task=task, key=key)
    if not key:
        rows = rows.filter(filters["stuck"] | filters["due"])
    return rows.update(due_at=timezone.now(), dispatches=0)
