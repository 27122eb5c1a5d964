"""Members imports (docs/members.md#moving-your-list): a CSV of Ghost, Substack, Mailchimp or any
file with an email column, uploaded, dry-run, then imported in the background.

- The upload is checked (its first line must name an email column: 400 otherwise), stored in the
  private storage and analysed by a task (the dry run: what would be created, updated, left out
  and why, nothing written).
- "Import" (`member_import_start`) refuses an import that the plan's `members` cannot hold (403
  plan_limit, from the dry run's count), then a task reads the file again and writes it in batches
  of MEMBERS_IMPORT_BATCH rows, each batch one transaction with the job's progress and counts, so a
  run that dies goes on from the last batch written when the outbox sends the task again.
- Either pass reads the file as a stream: the rows in memory are one batch's; the addresses seen
  further up the file are kept in a temporary table of the task's connection (a row whose address
  came before is a duplicate).
- An address that is a member already gets the file's labels and newsletters added, and its empty
  name and note filled; nothing of a member is removed by an import.
"""
from __future__ import annotations

import logging
import secrets
import uuid
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from apps.core import outbox
from apps.core.errors import Conflict, NotFound, PayloadTooLarge, ValidationFailed
from apps.core.selectors import as_uuid
from apps.media.storage import private_storage
from apps.members import csvio
from apps.members.models import Member, MemberImport
from apps.members.services import labels_named
from apps.newsletters.services import newsletters_default
from apps.plans.rules import plan_check, plan_spend

logger = logging.getLogger(__name__)

ANALYSE_TASK = "members.import_analyse"
RUN_TASK = "members.import_run"
JOB_NOT_FOUND = "Import not found"
NO_FILE = "Choose a CSV file to import"
BUSY = "An import of members is already in progress: wait for it to finish"
NOT_READY = "This import is not waiting to be started"
PROBLEMS_KEPT = 100
COUNTS = ("rows", "created", "updated", "duplicates", "skipped", "invalid")


def _too_large() -> PayloadTooLarge:
    limit = settings.MEMBERS_IMPORT_MAX_BYTES // (1024 * 1024)
    return PayloadTooLarge(f"The file is larger than {limit} MB")


def _file_key(schema: str, job_id) -> str:
    """A private key of the storage (`{schema}/portability/...`: never served)."""
    return f"{schema}/portability/members/{job_id}-{secrets.token_urlsafe(16)}.csv"


def member_import_upload(*, actor, uploaded, labels: list[str]) -> MemberImport:
    """Store an uploaded members CSV and queue its dry run. 400 when it is not a members CSV."""
    if uploaded is None or not uploaded.size:
        raise ValidationFailed(NO_FILE, field="file")
    if uploaded.size > settings.MEMBERS_IMPORT_MAX_BYTES:
        raise _too_large()
    uploaded.seek(0)
    try:
        found = csvio.read_members(uploaded)
    except csvio.NotMembersCsv as exc:
        raise ValidationFailed(str(exc), field="file") from exc
    uploaded.seek(0)
    job = MemberImport(source=found.source, file_name=(uploaded.name or "")[:255], file_size=uploaded.size,
                       labels=labels, created_by=actor if getattr(actor, "pk", None) else None,
                       active=True, plan={"encoding": found.encoding})
    job.file_key = _file_key(connection.schema_name, job.id)
    storage = private_storage()
    storage.save(job.file_key, uploaded)
    try:
        with transaction.atomic():
            job.save(force_insert=True)
            outbox.outbox_add(task=ANALYSE_TASK, args=[str(job.id)], key=f"members-import:{job.id}",
                              lease=settings.MEMBERS_IMPORT_LEASE_SECONDS)
    except IntegrityError as exc:
        storage.delete(job.file_key)
        raise Conflict(BUSY) from exc
    except BaseException:
        storage.delete(job.file_key)
        raise
    return job


def member_import_get(job_id) -> MemberImport:
    pk = as_uuid(job_id)
    job = MemberImport.objects.filter(pk=pk).first() if pk else None
    if job is None:
        raise NotFound(JOB_NOT_FOUND)
    return job


@transaction.atomic
def member_import_start(*, job_id) -> MemberImport:
    """Queue the import of an analysed file; 403 plan_limit when the members it would add do not
    fit the plan."""
    job = member_import_get(job_id)
    job = MemberImport.objects.select_for_update().get(pk=job.pk)
    if job.status != MemberImport.Status.ANALYSED:
        raise Conflict(NOT_READY)
    plan_check("members", int((job.plan.get("counts") or {}).get("created", 0)))
    job.status, job.active = MemberImport.Status.QUEUED, True
    try:
        with transaction.atomic():
            job.save(update_fields=["status", "active"])
    except IntegrityError as exc:
        raise Conflict(BUSY) from exc
    outbox.outbox_add(task=RUN_TASK, args=[str(job.id)], key=f"members-import:{job.id}",
                      lease=settings.MEMBERS_IMPORT_LEASE_SECONDS)
    return job


# --- the passes -------------------------------------------------------------------------------------
@dataclass
class _Tally:
    counts: Counter = field(default_factory=Counter)
    problems: list = field(default_factory=list)
    remarks: set = field(default_factory=set)

    def problem(self, line: int, email: str, reason: str) -> None:
        if len(self.problems) < PROBLEMS_KEPT:
            self.problems.append({"line": line, "email": email[:254], "reason": reason})

    def as_report(self, source: str, encoding: str) -> dict:
        return {"source": source, "encoding": encoding, "counts": {name: self.counts[name] for name in COUNTS},
                "problems": self.problems, "remarks": sorted(self.remarks)}

    @classmethod
    def of(cls, report: dict) -> "_Tally":
        return cls(Counter(report.get("counts") or {}), list(report.get("problems") or []),
                   set(report.get("remarks") or []))


_SEEN = "members_import_seen"


def _seen_reset() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TEMPORARY TABLE IF NOT EXISTS {_SEEN} (email text PRIMARY KEY)")
        cursor.execute(f"TRUNCATE {_SEEN}")


def _first_seen(emails: list[str]) -> set[str]:
    """The addresses of `emails` not seen before in this pass (and now seen)."""
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {_SEEN} (email) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING RETURNING email",
                       [emails])
        return {row[0] for row in cursor.fetchall()}


def _existing(emails: list[str]) -> set[str]:
    return set(Member.objects.filter(email__in=emails).values_list("email", flat=True))


_UPSERT = """
INSERT INTO members_member (id, email, name, note, status, email_disabled, email_disabled_reason, source, consent_at,
                            session_version, created_at, updated_at)
SELECT id, email, name, note, status, disabled, reason, 'import', consent, 0, COALESCE(created, now()), now()
FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[], %s::bool[], %s::text[], %s::timestamptz[],
            %s::timestamptz[]) AS t(id, email, name, note, status, disabled, reason, consent, created)
ON CONFLICT (email) DO UPDATE SET
    name = CASE WHEN members_member.name = '' THEN EXCLUDED.name ELSE members_member.name END,
    note = CASE WHEN members_member.note = '' THEN EXCLUDED.note ELSE members_member.note END,
    status = CASE WHEN EXCLUDED.status = 'comped' THEN 'comped' ELSE members_member.status END,
    email_disabled = members_member.email_disabled OR EXCLUDED.email_disabled,
    email_disabled_reason = CASE WHEN NOT members_member.email_disabled AND EXCLUDED.email_disabled
                                 THEN EXCLUDED.email_disabled_reason ELSE members_member.email_disabled_reason END,
    updated_at = now()
RETURNING id, email"""


def _write(rows: list[csvio.MemberRow], job_labels: list[str], newsletter_ids: list) -> dict[str, uuid.UUID]:
    """Upsert one batch (addresses unique within it); returns each address's member id."""
    columns = ([uuid.uuid4() for _ in rows], [r.email for r in rows], [r.name for r in rows], [r.note for r in rows],
               ["comped" if r.comped else "free" for r in rows], [r.email_disabled for r in rows],
               [r.disabled_reason for r in rows], [r.consent_at for r in rows], [r.created_at for r in rows])
    with connection.cursor() as cursor:
        cursor.execute(_UPSERT, list(columns))
        ids = {email: member_id for member_id, email in cursor.fetchall()}
    names = {name for row in rows for name in row.labels} | set(job_labels)
    labels = {label.name.lower(): label.pk for label in labels_named(sorted(names))} if names else {}
    pairs = [(ids[row.email], labels[name.lower()]) for row in rows
             for name in (*row.labels, *job_labels) if name.lower() in labels]
    subscriptions = [(ids[row.email], newsletter) for row in rows if row.subscribed and not row.email_disabled
                     for newsletter in newsletter_ids]
    with connection.cursor() as cursor:
        if pairs:
            cursor.execute("INSERT INTO members_member_labels (member_id, label_id) "
                           "SELECT * FROM unnest(%s::uuid[], %s::uuid[]) ON CONFLICT DO NOTHING",
                           [[p[0] for p in pairs], [p[1] for p in pairs]])
        if subscriptions:
            cursor.execute("INSERT INTO members_member_newsletters (member_id, newsletter_id) "
                           "SELECT * FROM unnest(%s::uuid[], %s::uuid[]) ON CONFLICT DO NOTHING",
                           [[s[0] for s in subscriptions], [s[1] for s in subscriptions]])
    return ids


def _batch(rows: list[csvio.MemberRow], tally: _Tally, *, write: bool, job: MemberImport, newsletter_ids: list) -> None:
    unique: dict[str, csvio.MemberRow] = {}
    for row in rows:
        if row.email in unique:
            tally.counts["duplicates"] += 1
            tally.problem(row.line, row.email, "The same address is further up the file")
        else:
            unique[row.email] = row
    first = _first_seen(list(unique))
    for email in list(unique):
        if email not in first:
            row = unique.pop(email)
            tally.counts["duplicates"] += 1
            tally.problem(row.line, email, "The same address is further up the file")
    if not unique:
        return
    existing = _existing(list(unique))
    new = len(unique) - len(existing)
    if write:
        plan_spend("members", new)
        _write(list(unique.values()), job.labels, newsletter_ids)
    tally.counts["created"] += new
    tally.counts["updated"] += len(existing)
    for row in unique.values():
        tally.remarks.update(row.remarks)


def _run_pass(job: MemberImport, *, write: bool) -> _Tally:
    """Read the job's file from the start; the import pass goes on after the rows it wrote before
    (job.done), with the counts it had then."""
    batch_size = settings.MEMBERS_IMPORT_BATCH
    tally = _Tally.of(job.report) if write and job.done else _Tally()
    resume_after = job.done if write else 0
    newsletter_ids = [n.pk for n in newsletters_default()]
    _seen_reset()
    with private_storage().open(job.file_key, "rb") as handle:
        found = csvio.read_members(handle)
        rows: list[csvio.MemberRow] = []
        last_line = 0

        def flush() -> None:
            nonlocal rows
            if write:
                with transaction.atomic():
                    _batch(rows, tally, write=True, job=job, newsletter_ids=newsletter_ids)
                    job.done = last_line
                    job.report = tally.as_report(found.source, found.encoding)
                    job.save(update_fields=["done", "report"])
            else:
                _batch(rows, tally, write=False, job=job, newsletter_ids=newsletter_ids)
                job.done = last_line
                MemberImport.objects.filter(pk=job.pk).update(done=last_line)
            rows = []

        for item in found.rows:
            last_line = item.line
            if item.line <= resume_after:
                if isinstance(item, csvio.MemberRow):
                    _first_seen([item.email])
                continue
            tally.counts["rows"] += 1
            if isinstance(item, csvio.RowProblem):
                tally.counts["skipped" if item.skipped else "invalid"] += 1
                tally.problem(item.line, item.email, item.reason)
                continue
            rows.append(item)
            if len(rows) >= batch_size:
                flush()
        if rows or write:
            flush()
    job.source = found.source
    job.plan = {**job.plan, **({} if write else tally.as_report(found.source, found.encoding))}
    return tally


def member_import_analyse(*, job_id) -> MemberImport | None:
    """The dry run (the task's body): count what the import would do."""
    job = MemberImport.objects.filter(pk=job_id).first()
    if job is None or job.status != MemberImport.Status.ANALYSING:
        return job
    try:
        _run_pass(job, write=False)
    except csvio.NotMembersCsv as exc:
        return _failed(job, str(exc))
    job.status, job.active, job.finished_at = MemberImport.Status.ANALYSED, None, None
    job.save(update_fields=["source", "plan", "status", "active", "done"])
    return job


def member_import_run(*, job_id) -> MemberImport | None:
    """The import (the task's body): write the file's members, batch by batch."""
    job = MemberImport.objects.filter(pk=job_id).first()
    if job is None or job.status not in (MemberImport.Status.QUEUED, MemberImport.Status.RUNNING):
        return job
    if job.status == MemberImport.Status.QUEUED:
        job.status, job.started_at, job.done = MemberImport.Status.RUNNING, timezone.now(), 0
        job.save(update_fields=["status", "started_at", "done"])
    try:
        tally = _run_pass(job, write=True)
    except Exception as exc:  # a refusal of the plan, the storage gone: the job says why
        logger.exception("members import %s failed", job.pk)
        return _failed(job, getattr(exc, "message", "") or f"The import stopped: {exc.__class__.__name__}")
    job.report = tally.as_report(job.source, job.plan.get("encoding", ""))
    job.status, job.active, job.finished_at = MemberImport.Status.COMPLETED, None, timezone.now()
    job.save(update_fields=["report", "status", "active", "finished_at"])
    _remove_file(job)
    return job


def _failed(job: MemberImport, error: str) -> MemberImport:
    job.status, job.active, job.error, job.finished_at = MemberImport.Status.FAILED, None, error[:2000], timezone.now()
    job.save(update_fields=["status", "active", "error", "finished_at"])
    _remove_file(job)
    return job


def _remove_file(job: MemberImport) -> None:
    try:
        private_storage().delete(job.file_key)
    except Exception:  # noqa: BLE001 - a file left behind is not the import's failure
        logger.warning("could not delete %s", job.file_key, exc_info=True)

