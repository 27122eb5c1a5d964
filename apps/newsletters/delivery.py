"""Sending a newsletter: the work is the send's Delivery rows, claimed by senders (docs/newsletters.md#sending).

`send_run(send_id)` is the body of the send's task (sent through the outbox):

1. A queued send is prepared once, in one transaction: the month's emails are taken from the plan
   (refused: the send fails before any email, saying why), the email is rendered (once), one
   Delivery row is written per recipient (INSERT ... SELECT), and the send is `sending`.
2. NEWSLETTER_SEND_CONNECTIONS threads, shared out over NEWSLETTER_SEND_PROCESSES worker processes
   (the task keeps the first share and asks for the others with a help task each, sent to the
   worker's queue: best effort, since the task itself sends whatever is left; it waits for the
   helpers' rows before it finishes the send), each claim NEWSLETTER_BATCH pending rows at a time
   (UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) with a lease of
   NEWSLETTER_BATCH_LEASE_SECONDS, in the sender's name), keep one connection to the provider, and
   send row by row. A batch's lease is renewed while it is being sent. Each email begins with one
   statement that marks its row sent only if the row is still this sender's (claimed in its name,
   pending): a row another sender claimed once this one's lease ran out is left to it, not sent.
   That mark locks the row in a transaction that lasts through the exchange with the provider (a
   claim skips it however long the provider takes) and is committed right after the provider's
   acceptance; a refusal rolls it back, and the row is then marked failed (or due again later) in
   the sender's name. Every mark names the sender: a row another sender holds is never written
   over (counted and logged).
3. Each batch tells the outbox the task is alive (its row's lease moves on). A worker that dies
   leaves its claimed rows to be claimed again when their lease ends, and the outbox sends the task
   again when it stops reporting: nothing is lost.
4. When no row is pending the send is `sent`; rows waiting for a retry (the provider asked to try
   later) make the task come back then (outbox.Later).

Exactly once, at the provider: a row's mark is committed after the provider accepted its email; a
worker killed between the acceptance and the COMMIT reaching PostgreSQL (or whose connection to
PostgreSQL is lost then) sends that email again when the row is claimed again, with the same
Message-ID (and idempotency key). At most one email per sender thread can be in that window at each
kill. docs/newsletters.md says it in full.
"""
from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from datetime import timedelta

import psycopg
from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.backends.postgresql.base import ServerBindingCursor
from django.db.models import Q
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core import outbox
from apps.core.models import OutboxMessage
from apps.core.outbox import record_sent
from apps.newsletters import rendering, sending, tracking
from apps.newsletters.names import HELP_TASK, SEND_TASK, outbox_key  # noqa: F401 - the tasks' names, here too
from apps.newsletters.models import Delivery, Send
from apps.plans.rules import PlanExpired, PlanLimitReached, current_company, plan_spend
from apps.site.selectors import site_view

logger = logging.getLogger(__name__)

# --- 1. prepare ----------------------------------------------------------------------------------------
_RECIPIENTS = """
INSERT INTO newsletters_delivery (send_id, member_id, email, status, attempts, claimed_by, error)
SELECT %(send)s, m.id, m.email, 'pending', 0, '', ''
FROM members_member m
JOIN members_member_newsletters mn ON mn.member_id = m.id AND mn.newsletter_id = %(newsletter)s
WHERE NOT m.email_disabled {label}
ORDER BY m.id
ON CONFLICT (send_id, member_id) DO NOTHING"""
_LABEL = "AND EXISTS (SELECT 1 FROM members_member_labels ml WHERE ml.member_id = m.id AND ml.label_id = %(label)s)"


def send_prepare(send: Send) -> Send:
    """A queued send made ready (see the module's docstring); a no-op for any other status."""
    with transaction.atomic():
        send = Send.objects.select_for_update(of=("self",)).select_related("post", "newsletter").get(pk=send.pk)
        if send.status != Send.Status.QUEUED:
            return send
        if send.post is None:
            return _fail(send, "The post was deleted before the send started")
        company = current_company()
        with connection.cursor() as cursor:
            cursor.execute(_RECIPIENTS.format(label=_LABEL if send.label_id else ""),
                           {"send": send.pk, "newsletter": send.newsletter_id, "label": send.label_id})
            recipients = cursor.rowcount
        try:
            with transaction.atomic():
                plan_spend("emails_per_month", recipients, company=company)
        except (PlanLimitReached, PlanExpired) as refused:
            Delivery.objects.filter(send=send).delete()
            return _fail(send, refused.message)
        rendered = rendering.render(post=send.post, newsletter=send.newsletter, client=company,
                                    markers=rendering.Markers.of(send.pk), subject=send.subject)
        rendered = tracking.send_tracking_prepare(send=send, client=company, rendered=rendered)  # opens, clicks
        send.subject, send.html, send.text = rendered.subject, rendered.html, rendered.text
        send.recipients, send.status, send.started_at = recipients, Send.Status.SENDING, timezone.now()
        send.save(update_fields=["subject", "html", "text", "recipients", "status", "started_at"])
    return send


def _fail(send: Send, error: str) -> Send:
    send.status, send.error, send.finished_at = Send.Status.FAILED, error[:2000], timezone.now()
    send.save(update_fields=["status", "error", "finished_at"])
    return send


# --- 2. claim and send ---------------------------------------------------------------------------------
_CLAIM = """
UPDATE newsletters_delivery d SET lease_until = clock_timestamp() + make_interval(secs => %(lease)s),
                                  claimed_by = %(worker)s
WHERE d.id IN (SELECT id FROM newsletters_delivery
               WHERE send_id = %(send)s AND status = 'pending'
                 AND (lease_until IS NULL OR lease_until < clock_timestamp())
               ORDER BY id LIMIT %(batch)s FOR UPDATE SKIP LOCKED)
RETURNING d.id, d.member_id, d.email, d.attempts"""
_RENEW = """UPDATE newsletters_delivery SET lease_until = clock_timestamp() + make_interval(secs => %(lease)s)
WHERE send_id = %(send)s AND claimed_by = %(worker)s AND status = 'pending'"""
# Before each email: the row is still this sender's (a claim by another sender wrote its own name,
# a mark emptied it), and locked until the transaction of its exchange ends (claims skip it).
_SENT = """UPDATE newsletters_delivery SET status = 'sent', sent_at = clock_timestamp(), attempts = attempts + 1,
error = '', claimed_by = '' WHERE id = %s AND claimed_by = %s AND status = 'pending'"""


def claim(send_id, worker: str, batch: int, lease: int) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM, {"send": send_id, "worker": worker, "batch": batch, "lease": lease})
        return sorted(cursor.fetchall())


def _row_cursor() -> ServerBindingCursor:
    """The thread's cursor for the statement of every email (its mark): made once per database
    connection and kept on it, on the search_path the connection's last Django cursor set (each
    batch's claim, made in the send's company, comes before its emails). Its statement is prepared
    (psycopg prepares a statement at its first run on the connection: PostgreSQL plans it once).
    Django's cursor wrapper, made for each statement of every email, cost more of the sender's CPU
    than the statements themselves (docs/benchmarks.md)."""
    raw = connection.connection
    cursor = getattr(raw, "_cms_row_cursor", None)
    if cursor is None or cursor.closed:
        connection.cursor().close()  # connected, on the company's search_path (django-tenants)
        raw = connection.connection
        cursor = raw._cms_row_cursor = ServerBindingCursor(raw)
    return cursor


@contextmanager
def _row_transaction():
    """One email's transaction on the thread's connection: BEGIN, then COMMIT (ROLLBACK when something
    raises), without Django's atomic bookkeeping (nothing in it uses savepoints or on_commit). An
    error of the database is Django's DatabaseError, as in an atomic block."""
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.transaction():
        yield


def _mark_sent(delivery_id: int, worker: str) -> bool:
    """The row marked sent, if this sender still holds it (False: another sender does; nothing
    changed). Run first in the email's transaction, before the exchange with the provider: the
    UPDATE locks the row (a claim skips it however long the provider takes) and is committed only
    once the provider accepted the email; a refusal or a lost provider connection rolls it back.
    A worker killed before the acceptance leaves the row pending (its transaction goes with its
    connection); the only window for a second copy is from the acceptance to the COMMIT reaching
    PostgreSQL (docs/newsletters.md#exactly-once). An error (a lost connection) is a DatabaseError.

    The mark is the one statement of every email besides BEGIN and COMMIT: prepared (PostgreSQL
    plans it once per connection), on the connection's kept cursor. Sending the BEGIN with it, or
    the mark with the COMMIT, in one round trip (psycopg's pipeline mode) was measured: the
    sender's own CPU per email rose more than the round trip saved (docs/benchmarks.md)."""
    cursor = _row_cursor()
    with connection.wrap_database_errors:
        cursor.execute(_SENT, [delivery_id, worker])
        return cursor.rowcount == 1


def _record_sent(delivery_id: int, worker: str) -> bool:
    """_mark_sent on new connections until the database answers: the provider has the email, its
    record must outlive a database restart (else it is sent again)."""
    marked = []
    connection.close()
    record_sent(lambda: marked.append(Delivery.objects.filter(
        pk=delivery_id, claimed_by=worker, status=Delivery.Status.PENDING).update(
        status=Delivery.Status.SENT, sent_at=timezone.now(), error="", claimed_by="")), what=f"delivery {delivery_id}")
    return marked[-1] == 1


def _mark_failed(delivery_id: int, worker: str, attempts: int, outcome: sending.Outcome) -> bool:
    """Failed for good, or due again later; False when another sender holds the row (left as it is)."""
    mine = Delivery.objects.filter(pk=delivery_id, claimed_by=worker, status=Delivery.Status.PENDING)
    if outcome.permanent or attempts + 1 >= settings.NEWSLETTER_MAX_ATTEMPTS:
        return mine.update(status=Delivery.Status.FAILED, attempts=attempts + 1, error=outcome.reason,
                           claimed_by="") == 1
    wait = settings.NEWSLETTER_RETRY_SECONDS * (2 ** attempts)
    return mine.update(attempts=attempts + 1, error=outcome.reason, claimed_by="",
                       lease_until=timezone.now() + timedelta(seconds=wait)) == 1


_STILL_SUBSCRIBED = """SELECT m.id FROM members_member m
JOIN members_member_newsletters mn ON mn.member_id = m.id AND mn.newsletter_id = %s
WHERE m.id = ANY(%s) AND NOT m.email_disabled"""


def _skip_gone(rows: list[tuple], newsletter_id, worker: str) -> list[tuple]:
    """The claimed rows whose member is still subscribed (and whose email is not disabled); the
    others are marked skipped: members deleted, unsubscribed or bounced since the send started."""
    with connection.cursor() as cursor:
        cursor.execute(_STILL_SUBSCRIBED, [newsletter_id, [row[1] for row in rows if row[1] is not None]])
        kept = {row[0] for row in cursor.fetchall()}
    gone = [row[0] for row in rows if row[1] not in kept]
    if gone:
        Delivery.objects.filter(pk__in=gone, claimed_by=worker, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.SKIPPED, claimed_by="", error="Unsubscribed, disabled or deleted before the email")
    return [row for row in rows if row[1] in kept]


def _heartbeat(send_id) -> None:
    """The task is alive: the outbox sends it again only NEWSLETTER_SEND_LEASE_SECONDS after this."""
    OutboxMessage.objects.filter(key=outbox_key(send_id)).update(
        due_at=timezone.now() + timedelta(seconds=settings.NEWSLETTER_SEND_LEASE_SECONDS), dispatches=1)


class _Sender:
    """One thread: its own connection to PostgreSQL (the company's schema) and to the provider."""

    def __init__(self, template: sending.Template, send_id, stop: threading.Event):
        self.template, self.send_id, self.stop = template, send_id, stop
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.sent = 0
        self.lost = 0  # rows of its batches another sender claimed before this one sent them: not sent
        self.overtaken = 0  # answers of the provider recorded by nobody: another sender held the row by then
        self.provider = None  # its connection to the provider, opened at its first email
        self.error: BaseException | None = None

    def run(self) -> None:
        """In a thread of its own: its own connection to PostgreSQL, closed at the end."""
        _yield_cpu()
        try:
            with schema_context(self.template.schema):
                with connection.cursor() as cursor:
                    # A sent mark commits without waiting for the disk: a database crash (not a worker's)
                    # may forget the last ones, and those emails go again with their Message-ID.
                    cursor.execute("SET synchronous_commit TO off")
                self._loop()
        except BaseException as exc:  # noqa: BLE001 - reported by send_run
            self.error = exc
            logger.exception("newsletter sender %s stopped", self.worker)
        finally:
            connection.close()

    def run_here(self) -> None:
        """In the calling thread, on its connection (one sender: nothing to run beside it)."""
        self._loop()

    def _loop(self) -> None:
        lease, batch = settings.NEWSLETTER_BATCH_LEASE_SECONDS, settings.NEWSLETTER_BATCH
        self.provider = None
        try:
            while not self.stop.is_set():
                rows = claim(self.send_id, self.worker, batch, lease)
                if not rows:
                    return
                _heartbeat(self.send_id)
                rows = _skip_gone(rows, self.template.newsletter_id, self.worker)
                renewed = time.monotonic()
                for row in rows:
                    if time.monotonic() - renewed > lease / 3:
                        with connection.cursor() as cursor:
                            cursor.execute(_RENEW, {"send": self.send_id, "worker": self.worker, "lease": lease})
                        renewed = time.monotonic()
                    self._send_one(*row)
        finally:
            if self.provider is not None:
                _close(self.provider)
            if self.lost or self.overtaken:
                logger.warning("newsletter sender %s of send %s: %d rows left to another sender, %d answers "
                               "not recorded (another sender held the row)", self.worker, self.send_id, self.lost,
                               self.overtaken)

    def _send_one(self, delivery_id, member_id, email, attempts) -> None:
        """One email, if the row is still this sender's: marked sent and locked before the exchange,
        committed after the provider's acceptance, rolled back on its refusal (then marked failed or
        due again, in the sender's name)."""
        accepted, refused = False, None
        try:
            with _row_transaction():
                if not _mark_sent(delivery_id, self.worker):
                    self.lost += 1  # this sender's lease ran out and another sender claimed the row
                    return
                if self.provider is None:
                    self.provider = sending.open_connection()
                message = self.template.message(member_id=member_id, email=email, connection=self.provider)
                try:
                    sending.send(self.provider, message)
                except Exception as exc:  # noqa: BLE001 - each answer decides the row's fate
                    refused = sending.outcome_of(exc)
                    if refused.reconnect:
                        _close(self.provider)
                        self.provider = None
                    raise psycopg.Rollback from exc  # the mark undone: the row is pending, still this sender's
                accepted = True
            marked = accepted  # committed
        except DatabaseError:
            if not accepted:
                raise
            marked = _record_sent(delivery_id, self.worker)  # the COMMIT failed: the connection went
        if refused is not None:
            if not _mark_failed(delivery_id, self.worker, attempts, refused):
                self._overtaken(delivery_id)
            return
        if marked:
            self.sent += 1
        else:
            self._overtaken(delivery_id)

    def _overtaken(self, delivery_id) -> None:
        self.overtaken += 1
        logger.warning("newsletter delivery %s: the provider answered sender %s after another sender had claimed the "
                       "row; its record is left to that sender (the member may get the email twice, with one "
                       "Message-ID)", delivery_id, self.worker)


def _yield_cpu() -> None:
    """The calling sender thread gives way to the web and the rest of its machine: its nice value is
    raised by NEWSLETTER_SEND_NICE (Linux sets it per thread; it ends with the thread). A send uses
    the CPU nobody else wants; a request arriving during it is run first."""
    nice = settings.NEWSLETTER_SEND_NICE
    if nice <= 0 or not sys.platform.startswith("linux"):
        return
    thread = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + nice))
    except OSError:  # not allowed here: the thread runs as it was
        logger.debug("could not lower the priority of sender thread %s", thread, exc_info=True)


def _close(provider) -> None:
    try:
        provider.close()
    except Exception:  # noqa: BLE001 - the emails' fates are recorded already
        logger.debug("closing the provider connection failed", exc_info=True)


def send_deliver(send: Send, *, threads: int | None = None, seconds: float | None = None) -> int:
    """Send the pending rows of a sending send with `threads` senders; returns how many were sent.
    `seconds`: the senders claim no batch after that long (the batch in hand is sent first)."""
    company = current_company()
    template = sending.Template.of(send=send, newsletter=send.newsletter, client=company,
                                   schema=connection.schema_name, site_title=site_view(company).title)
    stop = threading.Event()
    if seconds is not None:
        timer = threading.Timer(seconds, stop.set)
        timer.daemon = True
        timer.start()
    count = max(1, threads or settings.NEWSLETTER_SEND_CONNECTIONS)
    if count == 1:
        sender = _Sender(template, send.pk, stop)
        sender.run_here()
        return sender.sent
    senders = [_Sender(template, send.pk, stop) for _ in range(count)]
    workers = [threading.Thread(target=sender.run, name=f"newsletter-{n}", daemon=True)
               for n, sender in enumerate(senders)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    errors = [sender.error for sender in senders if sender.error is not None]
    if errors and not any(sender.sent for sender in senders):
        raise errors[0]
    return sum(sender.sent for sender in senders)


def shares(threads: int, processes: int) -> list[int]:
    """`threads` sender threads shared out over at most `processes` processes, each share at least one
    (the first share the largest): 4 over 2 -> [2, 2], 3 over 2 -> [2, 1], 1 over 2 -> [1]."""
    threads, processes = max(1, threads), max(1, min(processes, threads))
    return [threads // processes + (1 if n < threads % processes else 0) for n in range(processes)]


def _ask_help(send_id, threads: int) -> None:
    """A help task for another worker process (the company's schema goes with it). Not through the
    outbox: a help task lost, late or failed costs time only, the send's own task sends every row."""
    try:
        current_app.send_task(HELP_TASK, args=[str(send_id), threads])
    except Exception:  # noqa: BLE001 - the broker is down: the send's task sends alone
        logger.warning("newsletter send %s: no help task could be sent; its task sends alone", send_id,
                       exc_info=True)


def send_help(*, send_id, threads: int) -> int:
    """A help task: `threads` senders on the rows of a send still sending (nothing once it is sent);
    the send's own task finishes it. Returns how many were sent here.

    It sends for NEWSLETTER_HELP_SECONDS at most, then, when rows are still waiting for a sender,
    sends a help task again, which goes behind the tasks queued meanwhile: a large send keeps one
    process of the worker, not every one, and a password reset or a webhook queued during it waits
    seconds, not the send's minutes."""
    send = Send.objects.select_related("newsletter").filter(pk=send_id, status=Send.Status.SENDING).first()
    if send is None:
        return 0
    sent = send_deliver(send, threads=threads, seconds=settings.NEWSLETTER_HELP_SECONDS)
    unclaimed = Delivery.objects.filter(send=send, status=Delivery.Status.PENDING).filter(
        Q(lease_until__isnull=True) | Q(lease_until__lt=timezone.now()))
    if Send.objects.filter(pk=send_id, status=Send.Status.SENDING).exists() and unclaimed.exists():
        _ask_help(send_id, threads)
    return sent


HELPERS_POLL_SECONDS = 0.2


def _wait_for_helpers(send: Send) -> None:
    """After the task's own senders found nothing left to claim: wait while other senders (its help
    tasks) hold pending rows of the send under a live lease and keep sending them, telling the outbox
    the task is alive. It stops waiting when they have sent nothing for NEWSLETTER_TIMEOUT seconds
    (a dead helper's rows are then claimed again when their lease ends: send_run's Later)."""
    held = Delivery.objects.filter(send=send, status=Delivery.Status.PENDING).exclude(claimed_by="")
    last, moved = None, time.monotonic()
    beat = time.monotonic()
    while True:
        left = held.filter(lease_until__gt=timezone.now()).count()
        if not left:
            return
        now = time.monotonic()
        if left != last:
            last, moved = left, now
        elif now - moved > settings.NEWSLETTER_TIMEOUT:
            return
        if now - beat > settings.NEWSLETTER_SEND_LEASE_SECONDS / 3:
            _heartbeat(send.pk)
            beat = now
        time.sleep(HELPERS_POLL_SECONDS)


# --- 3. the task ------------------------------------------------------------------------------------------
def send_finish(send: Send) -> bool:
    """Mark the send sent when nothing is left to send; False while rows are pending."""
    if Delivery.objects.filter(send=send, status=Delivery.Status.PENDING).exists():
        return False
    Send.objects.filter(pk=send.pk, status=Send.Status.SENDING).update(status=Send.Status.SENT,
                                                                       finished_at=timezone.now())
    return True


def send_run(*, send_id) -> str | None:
    """The send's task (see the module's docstring)."""
    send = Send.objects.select_related("newsletter").filter(pk=send_id).first()
    if send is None:
        return None
    if send.status == Send.Status.QUEUED:
        send = send_prepare(send)
    if send.status != Send.Status.SENDING:
        return send.status
    send = Send.objects.select_related("newsletter").get(pk=send.pk)
    mine, *others = shares(settings.NEWSLETTER_SEND_CONNECTIONS, settings.NEWSLETTER_SEND_PROCESSES)
    for threads in others:
        _ask_help(send.pk, threads)
    send_deliver(send, threads=mine)
    if others:
        _wait_for_helpers(send)
    if send_finish(send):
        return Send.Status.SENT
    waiting = (Delivery.objects.filter(send=send, status=Delivery.Status.PENDING)
               .order_by("lease_until").values_list("lease_until", flat=True).first())
    at = max(waiting or timezone.now(), timezone.now()) + timedelta(seconds=1)
    raise outbox.Later(at, "deliveries waiting for a retry or for a sender's lease to end")
