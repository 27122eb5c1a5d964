"""Imports and exports of a company's blog: the jobs' lifecycle (docs/import-export.md).

- `import_upload`: an admin uploads a file; it is stored, parsed and analysed at once (the dry
  run: nothing is written but the job). A malformed or hostile file is a 400 naming the line or
  key that failed; a file over IMPORT_MAX_BYTES a 413.
- `import_start`: the job is queued (its task goes through the outbox, in this transaction). One
  import per company at a time: a second one is a 409 while one is queued or running.
- `import_run` (the Celery task): parses the stored file again and imports it in one transaction
  (apps.portability.importer). Progress lives in the cache (the transaction is not visible until
  it commits). A worker that dies mid-way leaves nothing behind; the outbox sends the task again
  after IMPORT_LEASE_SECONDS and the run starts over, recognising what an earlier run brought.

The parsers, the importer and the exporter (and the XML parser with them) are imported by the
functions that use them: a web worker loads them with its first upload, not as it starts.
"""
from __future__ import annotations

import csv
import io
import logging
import posixpath
import secrets
import uuid
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from apps.core.errors import ApplicationError, Conflict, NotFound, PayloadTooLarge, ValidationFailed
from apps.content import bulk
from apps.core import events, outbox
from apps.core.outbox import outbox_add
from apps.core.permissions import require
from apps.core.email import company_of_connection, email_queue
from apps.media.services import media_create_processed, media_process
from apps.media.storage import MediaUrls, private_storage
from apps.portability.models import ExportJob, ImportJob, MissingImage, SourceItem

logger = logging.getLogger(__name__)
IMPORT_TASK = "portability.import_run"
CANNOT_IMPORT = "Only administrators can import or export the blog"
JOB_NOT_FOUND = "Import not found"
ONE_AT_A_TIME = "An import is already running for this company. Wait for it to finish."
NOT_STARTABLE = "This import has already been started"
NO_FILE = "Choose a WordPress or Ghost export file"


class ImportFileRefused(ValidationFailed):
    """A file that cannot be imported: the validation envelope, `errors[0].field` naming the line or
    key that failed."""


def _too_large() -> PayloadTooLarge:
    return PayloadTooLarge(f"The file is larger than the import limit of {settings.IMPORT_MAX_BYTES // (1024 * 1024) or 1} MB")


def file_key(schema: str, job_id, kind: str = "imports", extension: str = "dat") -> str:
    """A private key of the storage (never under `media/`): the job's id and a random part."""
    return f"{schema}/portability/{kind}/{job_id}-{secrets.token_urlsafe(16)}.{extension}"


def parse_or_refuse(data: bytes, file_name: str, images: bytes | None = None):
    """The export's Blog (with the images of its own zip, and of the images archive uploaded
    beside it), or the 400 (413) naming what failed (`errors[0].field`: the line or key of the
    export, or `images` for the archive)."""
    from apps.portability.parsers import parse_export, parse_images_archive

    blog = _parsed(lambda: parse_export(data, file_name=file_name, max_bytes=settings.IMPORT_MAX_BYTES))
    if images:
        blog.files.update(_parsed(lambda: parse_images_archive(images, max_bytes=settings.IMPORT_MAX_BYTES),
                                  field="images"))
    return blog


def _parsed(read, *, field: str = ""):
    from apps.portability.parsers import ParseFailed

    try:
        return read()
    except ParseFailed as exc:
        if exc.where == "size":
            raise _too_large() from exc
        raise ImportFileRefused(exc.message, errors=[{"field": field or exc.where or "file",
                                                     "message": exc.message}]) from exc


def read_upload(uploaded) -> tuple[bytes | None, str]:
    """The bytes of an uploaded file (at most one byte more than the limit) and its name."""
    if uploaded is None:
        return None, ""
    if (uploaded.size or 0) > settings.IMPORT_MAX_BYTES:
        raise _too_large()
    uploaded.seek(0)
    return uploaded.read(settings.IMPORT_MAX_BYTES + 1), uploaded.name or ""


def import_upload(*, actor, data: bytes | None, file_name: str, operator: bool = False,
                  images: bytes | None = None, images_name: str = "") -> ImportJob:
    """Store and analyse an uploaded export (the dry run); the job waits for import_start.
    `images`: the images archive uploaded beside it (a zip of Ghost's content/images or
    WordPress's wp-content/uploads), checked as the export's own zip is (paths inside the archive,
    sizes, then each image's pixels when it is stored).
    `operator`: an operator's command (manage.py import_blog), with no user of the company."""
    if not operator:
        require(actor, "settings.manage", CANNOT_IMPORT)
    if not data:
        raise ValidationFailed(NO_FILE, field="file")
    if len(data) > settings.IMPORT_MAX_BYTES or len(images or b"") > settings.IMPORT_MAX_BYTES:
        raise _too_large()
    from apps.portability.importer import blog_analyse

    blog = parse_or_refuse(data, file_name, images)
    plan = blog_analyse(blog)
    job = ImportJob(source=blog.source, source_version=blog.version, file_name=file_name[:255], file_size=len(data),
                    created_by=actor if getattr(actor, "pk", None) else None, plan=plan,
                    total=len(blog.authors) + len(blog.terms) + len(blog.posts))
    job.file_key = file_key(connection.schema_name, job.id)
    saved = [job.file_key]
    private_storage().save(job.file_key, ContentFile(data))
    try:
        if images:
            job.images_key, job.images_name = file_key(connection.schema_name, job.id, extension="zip"), images_name[:255]
            private_storage().save(job.images_key, ContentFile(images))
            saved.append(job.images_key)
        job.save(force_insert=True)
    except BaseException:
        for key in saved:
            private_storage().delete(key)
        raise
    return job


def _job(job_id, *, lock: bool = False) -> ImportJob:
    queryset = ImportJob.objects.select_for_update() if lock else ImportJob.objects.all()
    try:
        return queryset.get(pk=uuid.UUID(str(job_id)))
    except (ImportJob.DoesNotExist, ValueError) as exc:
        raise NotFound(JOB_NOT_FOUND) from exc


@transaction.atomic
def import_start(*, actor, job_id, download_images: bool = True, invite_authors: bool = False,
                 operator: bool = False, in_background: bool = True) -> ImportJob:
    """Queue the job (one per company at a time). `invite_authors`: the accounts the import makes
    are emailed an invitation (else they wait, inactive, for an admin to invite them from Users).
    An import that does not fit the plan's limits now (the dry run's planUse) is refused here, 403
    plan_limit, before anything is written. `in_background` False: the caller runs it
    (import_run) itself, as the command does."""
    if not operator:
        require(actor, "settings.manage", CANNOT_IMPORT)
    job = _job(job_id, lock=True)
    if job.status != ImportJob.Status.ANALYSED:
        raise Conflict(NOT_STARTABLE)
    from apps.portability.importer import plan_use_check

    plan_use_check(job.plan.get("planUse") or [])
    job.status, job.active, job.phase, job.done = ImportJob.Status.QUEUED, True, "queued", 0
    job.plan = {**job.plan, "downloadImages": bool(download_images), "inviteAuthors": bool(invite_authors)}
    try:
        with transaction.atomic():
            job.save(update_fields=["status", "active", "phase", "done", "plan"])
    except IntegrityError as exc:
        raise Conflict(ONE_AT_A_TIME) from exc
    if in_background:
        outbox_add(task=IMPORT_TASK, args=[str(job.pk)], key=f"import:{connection.schema_name}:{job.pk}",
                   lease=settings.IMPORT_LEASE_SECONDS)
    return job


def _progress_key(job_id) -> str:
    return f"portability:progress:{job_id}"


def import_progress(job: ImportJob) -> tuple[str, int, int]:
    """(phase, done, total) of a job: the cache's while it runs, the row's otherwise."""
    if job.status == ImportJob.Status.RUNNING:
        found = cache.get(_progress_key(job.pk))
        if found:
            return found
    return job.phase, job.done, job.total


def import_run(*, job_id: str, progress_to=None, fetch=None) -> ImportJob | None:
    """The import task's work: the whole file in one transaction, then the job's report.
    `progress_to(phase, done, total)`: told too (the command prints it). `fetch(url) -> bytes`: how
    images are brought (apps.portability.fetch, given by the task and the command: a web process
    never loads the HTTP client); None, or a job started without image downloads: not fetched."""
    # One run per company at a time, even when the outbox sends a job again while a slow first run
    # still works (its lease ran out): the second leaves the message for later (outbox.Busy). A
    # session lock: released when this run ends, or when its worker dies and its connection closes.
    lock = f"portability-import:{connection.schema_name}"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [lock])
        if not cursor.fetchone()[0]:
            raise outbox.Busy()
    try:
        return _import_run_locked(job_id=job_id, progress_to=progress_to, fetch=fetch)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [lock])


def _import_run_locked(*, job_id: str, progress_to, fetch) -> ImportJob | None:
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status not in (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING):
            return job  # done already (a second delivery of the task)
        job.status, job.started_at, job.phase = ImportJob.Status.RUNNING, timezone.now(), "reading"
        job.save(update_fields=["status", "started_at", "phase"])
    key = _progress_key(job.pk)

    def progress(phase: str, done: int, total: int) -> None:
        cache.set(key, (phase, done, total), timeout=settings.IMPORT_LEASE_SECONDS)
        if progress_to is not None:
            progress_to(phase, done, total)

    from apps.portability.importer import blog_import
    from apps.portability.parsers import parse_export, parse_images_archive

    try:
        with private_storage().open(job.file_key, "rb") as handle:
            data = handle.read()
        blog = parse_export(data, file_name=job.file_name, max_bytes=settings.IMPORT_MAX_BYTES)
        if job.images_key:
            with private_storage().open(job.images_key, "rb") as handle:
                blog.files.update(parse_images_archive(handle.read(), max_bytes=settings.IMPORT_MAX_BYTES))
        report = blog_import(blog=blog, actor=job.created_by, progress=progress,
                             fetch=fetch if job.plan.get("downloadImages", True) else None,
                             invite_authors=bool(job.plan.get("inviteAuthors", False)), job_id=job.pk,
                             summary=f"Import of {job.file_name or blog.version}")
    except Exception as exc:  # noqa: BLE001 - the job says what failed; nothing of the import stayed
        logger.exception("import %s failed", job.pk)
        ImportJob.objects.filter(pk=job.pk).update(
            status=ImportJob.Status.FAILED, active=None, finished_at=timezone.now(), phase="failed",
            error=(getattr(exc, "message", None) or f"{exc.__class__.__name__}: {exc}")[:2000])
        cache.delete(key)
        return None
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportJob.Status.COMPLETED, active=None, finished_at=timezone.now(), phase="completed",
        done=job.total, report=report)
    cache.delete(key)
    return ImportJob.objects.get(pk=job.pk)


# --- missing images -------------------------------------------------------------------------------
FETCH_MISSING_TASK = "portability.fetch_missing_run"


def missing_images_list(*, actor, post_id=None, job_id=None) -> list[MissingImage]:
    """The images imports could not bring, each with its post (its old address is what the post
    shows meanwhile), of one post or one import, or all of them."""
    require(actor, "settings.manage", CANNOT_IMPORT)
    rows = MissingImage.objects.select_related("post").order_by("post_id", "id")
    if post_id is not None:
        rows = rows.filter(post_id=_uuid(post_id))
    if job_id is not None:
        rows = rows.filter(job_id=_job(job_id).pk)
    return list(rows[:5000])


def _uuid(value) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError as exc:
        raise NotFound(JOB_NOT_FOUND) from exc


@transaction.atomic
def import_fetch_missing_request(*, actor, job_id) -> ImportJob:
    """Queue "Fetch missing images" for an import (a background task: import_fetch_missing)."""
    require(actor, "settings.manage", CANNOT_IMPORT)
    job = _job(job_id)
    if job.status != ImportJob.Status.COMPLETED:
        raise Conflict("Fetch missing images once the import has completed")
    outbox_add(task=FETCH_MISSING_TASK, args=[str(job.pk)],
               key=f"fetch-missing:{connection.schema_name}:{job.pk}:{secrets.token_hex(4)}",
               lease=settings.IMPORT_LEASE_SECONDS)
    return job


def import_fetch_missing(*, job_id=None, actor=None, fetch=None, files: dict[str, bytes] | None = None) -> dict:
    """Try again the images imports could not bring (of one import, or all): each one fetched
    (`fetch(url)`: apps.portability.fetch, through the same guard) or found in `files` (an images
    archive), stored as media, and the posts that name it rewritten through the content services
    (their content's address, their featured, Open Graph or Twitter image). What still fails stays
    listed with its new reason. Returns {"fetched", "posts", "missing"}."""
    from apps.portability.html import rewrite_images
    from apps.portability.images import ImageArchive
    from apps.portability.importer import image_bytes

    rows = MissingImage.objects.select_related("post", "job")
    job = None
    if job_id is not None:
        job = _job(job_id)
        rows = rows.filter(job=job)
    by_url: dict[str, list[MissingImage]] = {}
    for row in rows.order_by("id"):
        by_url.setdefault(row.url, []).append(row)
    fetched, posts, urls = 0, set(), MediaUrls.current()
    with events.batch(summary=f"Fetch missing images{f' of {job.file_name}' if job else ''}", actor=actor):
        for url, group in by_url.items():
            first_job = group[0].job
            site = (first_job.plan.get("site") if first_job else "") or ""
            archive = ImageArchive(files or {}, site_url=site)
            try:
                processed = media_process(data=image_bytes(url, archive=archive, site_url=site, fetch=fetch),
                                          renditions=True)
                media = media_create_processed(processed=processed, alt_text=group[0].alt_text,
                                               uploaded_by=actor if getattr(actor, "pk", None) else None,
                                               file_name=posixpath.basename(urlsplit(url).path) or "image")
            except Exception as exc:  # noqa: BLE001 - it stays missing, with why
                reason = (getattr(exc, "message", None) or str(exc) or exc.__class__.__name__)[:500]
                MissingImage.objects.filter(pk__in=[row.pk for row in group]).update(
                    attempts=F("attempts") + 1, reason=reason, updated_at=timezone.now())
                continue
            fetched += 1
            source = (first_job.plan.get("sourceName") if first_job else "") or ""
            if source:
                SourceItem.objects.get_or_create(source=source, kind="image", source_id=url[:500],
                                                 defaults={"object_id": media.pk})
            address = urls.cdn(media.storage_key)
            for row in group:
                row.post.refresh_from_db(fields=["content"])  # an earlier address of this run may be in it
                images = {} if row.role == MissingImage.Role.CONTENT else {row.role: media}
                content = rewrite_images(row.post.content, {url: address}) if row.role == MissingImage.Role.CONTENT \
                    else None
                if bulk.post_images_repaired(actor=actor if getattr(actor, "pk", None) else None, post=row.post,
                                             content=content, images=images):
                    posts.add(row.post_id)
            MissingImage.objects.filter(pk__in=[row.pk for row in group]).delete()
    missing = MissingImage.objects.filter(job=job).count() if job else MissingImage.objects.count()
    return {"fetched": fetched, "posts": len(posts), "missing": missing}


REPORT_COLUMNS = ("kind", "item", "outcome", "reason")


def import_report_csv(job: ImportJob) -> str:
    """The report as CSV: the counts (kind, outcome, count), then every item with its reason."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["kind", "outcome", "count"])
    for kind, counts in (job.report.get("counts") or {}).items():
        for outcome, count in counts.items():
            writer.writerow([kind, outcome, count])
    for left in job.report.get("notBroughtOver") or []:
        writer.writerow([left["kind"], "not brought over", left["count"]])
    writer.writerow([])
    writer.writerow(REPORT_COLUMNS)
    for item in job.report.get("items") or []:
        # A cell starting with = + - @ is a formula to a spreadsheet: quoted as text.
        writer.writerow(["'" + str(v) if str(v)[:1] in ("=", "+", "-", "@") else v
                         for v in (item.get(c, "") for c in REPORT_COLUMNS)])
    return out.getvalue()


def import_get(*, actor, job_id) -> ImportJob:
    require(actor, "settings.manage", CANNOT_IMPORT)
    return _job(job_id)


# --- export ---------------------------------------------------------------------------------------
EXPORT_TASK = "portability.export_run"
EXPORT_SALT = "portability.export"
EXPORT_NOT_FOUND = "Export not found"
EXPORT_LINK_INVALID = "This download link is invalid or has expired. Ask for a new export."


def _export(job_id) -> ExportJob:
    try:
        return ExportJob.objects.get(pk=uuid.UUID(str(job_id)))
    except (ExportJob.DoesNotExist, ValueError) as exc:
        raise NotFound(EXPORT_NOT_FOUND) from exc


@transaction.atomic
def export_request(*, actor, operator: bool = False, in_background: bool = True) -> ExportJob:
    """Queue an export of the company (a zip built by a task; emailed to `actor` when ready)."""
    if not operator:
        require(actor, "settings.manage", CANNOT_IMPORT)
    job = ExportJob.objects.create(created_by=actor if getattr(actor, "pk", None) else None)
    if in_background:
        outbox_add(task=EXPORT_TASK, args=[str(job.pk)], key=f"export:{connection.schema_name}:{job.pk}",
                   lease=settings.IMPORT_LEASE_SECONDS)
    return job


def export_get(*, actor, job_id) -> ExportJob:
    require(actor, "settings.manage", CANNOT_IMPORT)
    return _export(job_id)


def export_token(job: ExportJob) -> str:
    """A signed token naming the company and the export; valid EXPORT_LINK_HOURS (export_open)."""
    return signing.TimestampSigner(salt=EXPORT_SALT).sign(f"{connection.schema_name}.{job.pk}")


def export_link(job: ExportJob) -> str | None:
    if job.status != ExportJob.Status.COMPLETED:
        return None
    _, base_url = company_of_connection()
    return f"{base_url}/api/exports/download/{export_token(job)}"


def export_open(*, token: str) -> tuple[ExportJob, object]:
    """The export a download link names, and its file opened; 404 for a link that is forged,
    expired, of another company or of an export that is gone."""
    try:
        value = signing.TimestampSigner(salt=EXPORT_SALT).unsign(token, max_age=settings.EXPORT_LINK_HOURS * 3600)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise NotFound(EXPORT_LINK_INVALID) from exc
    schema, _, job_id = value.partition(".")
    if schema != connection.schema_name:
        raise NotFound(EXPORT_LINK_INVALID)
    job = ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.COMPLETED).first()
    if job is None or not job.file_key:
        raise NotFound(EXPORT_LINK_INVALID)
    return job, private_storage().open(job.file_key, "rb")


def export_run(*, job_id: str) -> ExportJob | None:
    """The export task's work: the zip, stored; the link emailed to whoever asked."""
    job = ExportJob.objects.filter(pk=job_id).first()
    if job is None or job.status == ExportJob.Status.COMPLETED:
        return job
    from apps.portability.exporter import blog_export

    try:
        data, counts = blog_export()
        key = file_key(connection.schema_name, job.pk, kind="exports", extension="zip")
        private_storage().save(key, ContentFile(data))
    except Exception as exc:  # noqa: BLE001 - the job says what failed
        logger.exception("export %s failed", job.pk)
        ExportJob.objects.filter(pk=job.pk).update(status=ExportJob.Status.FAILED, finished_at=timezone.now(),
                                                  error=f"{exc.__class__.__name__}: {exc}"[:2000])
        return None
    with transaction.atomic():
        job.status, job.file_key, job.file_size, job.counts = ExportJob.Status.COMPLETED, key, len(data), counts
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "file_key", "file_size", "counts", "finished_at"])
        if job.created_by is not None:
            company_name, base_url = company_of_connection()
            hours = settings.EXPORT_LINK_HOURS
            email_queue(kind="export_ready", to=job.created_by.email, company_name=company_name, base_url=base_url,
                        key=f"export:{job.pk}", context={
                            "username": job.created_by.username, "url": export_link(job), "posts": counts["posts"],
                            "media": counts["media"], "size": f"{len(data) / 1e6:.1f} MB",
                            "valid_for": f"{hours} hour{'s' if hours != 1 else ''}"})
    return job
