"""Writes of the AI app: creating generation jobs within the tenant's limits, running them
(from the Celery task), and failing the ones that were abandoned."""
from __future__ import annotations

import hashlib
import logging
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from apps.ai import notify
from apps.ai.errors import GenerationUnavailable
from apps.ai.models import GenerationJob
from apps.ai.providers import BlogRequest, GenerationError, SeoRequest, TranslateRequest, get_provider
from apps.ai.providers.base import BLOG_FAILED, SEO_FAILED, TRANSLATE_FAILED, TRANSLATED_FIELDS
from apps.content import selectors as content_selectors
from apps.content import services as content
from apps.core import db
from apps.core.errors import ApplicationError, RateLimited
from apps.core.languages import display_name
from apps.core.task_queue import SEND_RETRY_POLICY, bounded_connection, broker_errors, send_by_name
from apps.plans.metering import usage_count
from apps.plans.rules import current_company, feature_check, plan_limit

logger = logging.getLogger(__name__)

Kind, Status = GenerationJob.Kind, GenerationJob.Status
FAILURE_MESSAGES = {Kind.BLOG: BLOG_FAILED, Kind.SEO: SEO_FAILED, Kind.TRANSLATE: TRANSLATE_FAILED}
BUSY_RETRY_AFTER = 5  # seconds: a running generation usually ends within this
GENERATION_UNAVAILABLE = "AI generation is temporarily unavailable. Please try again shortly"
UNAVAILABLE_RETRY_AFTER = 5  # seconds, as for the database (apps.core.middleware)
# Enqueueing: each broker connect or command waits at most this long, and is retried once.
RUN_JOB_TASK = "ai.run_generation_job"  # apps.ai.tasks.run_generation_job


def daily_quota(plan: str) -> int:
    return settings.AI_DAILY_QUOTA.get(plan, settings.AI_DAILY_QUOTA_DEFAULT)


def _lock_key(name: str) -> int:
    """A signed 64-bit key for PostgreSQL advisory locks."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


def _seconds_until_tomorrow(now) -> int:
    tomorrow = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return max(1, int((tomorrow - now).total_seconds()))


def _check_limits(*, plan: str) -> None:
    """The tenant's daily quota and its cap on unfinished jobs. Runs under the tenant's admission
    lock, so concurrent requests cannot both take the last slot."""
    now = timezone.now()
    day_start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    jobs = GenerationJob.objects.all()
    # Counting stops at the limit, so a check costs the same however many jobs there are. The
    # company's limit (its plan's, or an operator's override: apps.plans.rules).
    company = current_company()
    quota = plan_limit(company, "ai_jobs_per_day") if company is not None else daily_quota(plan)
    quota = 10 ** 9 if quota is None else int(quota)
    if jobs.filter(created_at__gte=day_start).exclude(status=Status.FAILED)[:quota].count() >= quota:
        raise RateLimited(
            f"Daily AI generation limit reached ({quota} per day on the {plan} plan). Please try again tomorrow.",
            retry_after=_seconds_until_tomorrow(now),
        )
    running = settings.AI_MAX_RUNNING_PER_TENANT
    live_since = now - timedelta(seconds=settings.AI_JOB_STALE_SECONDS)
    if jobs.filter(status__in=GenerationJob.UNFINISHED, created_at__gte=live_since)[:running].count() >= running:
        raise RateLimited(
            f"Too many AI generations in progress (at most {running} at a time). "
            "Please wait for one to finish and try again.",
            retry_after=BUSY_RETRY_AFTER,
        )


def generation_job_create(*, user, kind: str, input: dict, plan: str, tone: str = "",  # noqa: A002
                          audience: str = "") -> GenerationJob:
    """Record a job and enqueue it once the row is committed; 429 beyond the tenant's limits.

    503 (GenerationUnavailable) when the broker cannot take the job: the job is then failed at
    once (it never stays queued) and does not count against the limits. Called inside an outer
    transaction, the enqueue waits for that commit and a broker failure only fails the job.
    403 `plan_feature` when the company's plan does not include AI writing."""
    feature_check("ai_writing")
    with transaction.atomic():
        db.company_lock("ai-admission")
        _check_limits(plan=plan)
        job = GenerationJob.objects.create(
            kind=kind, input=input, tone=tone, audience=audience, created_by=user, status=Status.QUEUED
        )
        # A closure, not a functools.partial: Django logs hooks by __qualname__ (see apps.media).
        transaction.on_commit(lambda: _enqueue(job))
        usage_count("ai_jobs")
    if job.status == Status.FAILED and job.error == GENERATION_UNAVAILABLE:
        raise GenerationUnavailable(GENERATION_UNAVAILABLE, retry_after=UNAVAILABLE_RETRY_AFTER)
    return job


def _publish(job: GenerationJob) -> None:
    """Send the job's task on a connection of its own, with socket timeouts and at most one
    retry (apps.core.task_queue.bounded_connection: 2 s measured for a frozen broker)."""
    options = {"queue": settings.AI_QUEUE} if settings.AI_QUEUE else {}
    with bounded_connection() as broker:
        send_by_name(RUN_JOB_TASK, args=[str(job.pk)], connection=broker, retry=True,
                     retry_policy=SEND_RETRY_POLICY, **options)


def _enqueue(job: GenerationJob) -> None:
    """Runs on commit. A job the broker did not take is failed at once (never left queued)."""
    try:
        _publish(job)
    except broker_errors():
        logger.exception("could not enqueue AI generation job %s: the broker is unavailable", job.pk)
        _fail_unsent(job, error=GENERATION_UNAVAILABLE)
    except Exception:
        logger.exception("could not enqueue AI generation job %s", job.pk)
        _fail_unsent(job, error=FAILURE_MESSAGES[job.kind])
        raise


def _fail_unsent(job: GenerationJob, *, error: str) -> None:
    """Fail the job unless a worker already has it (a publish that timed out may still have
    reached the queue); `job` is updated in place either way."""
    now = timezone.now()
    if GenerationJob.objects.filter(pk=job.pk, status=Status.QUEUED).update(
        status=Status.FAILED, error=error, finished_at=now
    ):
        job.status, job.error, job.finished_at = Status.FAILED, error, now
        notify.job_finished_signal(schema_name=connection.schema_name, job_id=job.pk)
    else:
        job.refresh_from_db()


@contextmanager
def _job_lock(job_id):
    """A session-level advisory lock on the job: held while a worker runs it, released by
    PostgreSQL when that worker's connection ends (a crashed worker frees it by itself)."""
    key = _lock_key(f"ai-job:{job_id}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        acquired = bool(cursor.fetchone()[0])
    try:
        yield acquired
    finally:
        if acquired:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
            except DatabaseError:  # the connection is gone, and the lock with it
                logger.warning("could not release the lock of AI job %s", job_id, exc_info=True)


def _finish(job: GenerationJob, *, status: str, result: dict | None = None, error: str = "") -> None:
    job.status = status
    job.result = result
    job.error = error
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "result", "error", "finished_at"])
    notify.job_finished_signal(schema_name=connection.schema_name, job_id=job.pk)


def _translate(job: GenerationJob, provider) -> dict:
    """A translation draft of a post (docs/translations.md): the provider translates its text
    fields, the content app makes the draft in the post's translation group (as "Add translation"
    does, by the job's author and with their rights). Never published here."""
    data = job.input or {}
    source = content_selectors.post_get(data.get("postId"), kind=None)  # a post or a page
    target = data.get("language", "")
    content.post_translation_check(actor=job.created_by, source=source, language=target)
    translated = provider.translate_post(TranslateRequest(
        source_language=source.language, target_language=target, source_name=display_name(source.language),
        target_name=display_name(target), fields={name: getattr(source, name) for name in TRANSLATED_FIELDS}))
    with transaction.atomic():
        post = content.post_translation_create(actor=job.created_by, source=source, language=target,
                                               fields=translated)
    return {"postId": str(post.pk), "language": post.language, "title": post.title, "slug": post.slug,
            "status": post.status, "machineMade": True}


def _generate(job: GenerationJob, provider) -> dict:
    data = job.input or {}
    if job.kind == Kind.TRANSLATE:
        return _translate(job, provider)
    if job.kind == Kind.BLOG:
        return provider.generate_blog(BlogRequest(
            input_content=data.get("inputContent", ""), tone=job.tone or "professional",
            audience=job.audience or "general",
        ))
    return provider.generate_seo(SeoRequest(
        title=data.get("title", ""), content=data.get("content", ""), excerpt=data.get("excerpt", ""),
    ))


def generation_job_run(*, job_id: str) -> str:
    """Run one job, at most once at a time and never again once finished.

    Deliveries are at-least-once (acks_late): a job whose worker died mid-run comes back with
    status running and is run again, up to AI_MAX_RUNS runs in all. Returns what happened."""
    with _job_lock(job_id) as acquired:
        if not acquired:
            logger.info("AI job %s is being run by another worker; skipping this delivery", job_id)
            return "busy"
        job = GenerationJob.objects.filter(pk=job_id).first()
        if job is None:
            return "missing"
        if job.is_finished:
            return "already-finished"
        if job.runs >= settings.AI_MAX_RUNS:
            logger.error("AI job %s was interrupted %d times; failing it", job_id, job.runs)
            _finish(job, status=Status.FAILED, error=FAILURE_MESSAGES[job.kind])
            return job.status
        provider = get_provider()
        job.status = Status.RUNNING
        job.runs += 1
        job.started_at = timezone.now()
        job.provider = provider.name
        job.save(update_fields=["status", "runs", "started_at", "provider"])
        try:
            result = _generate(job, provider)
        except GenerationError as exc:
            logger.warning("AI job %s failed: %s (%s)", job_id, exc.message, exc.detail)
            _finish(job, status=Status.FAILED, error=exc.message)
        except ApplicationError as exc:  # a translation the post no longer allows (409, 404, 403)
            logger.info("AI job %s refused: %s", job_id, exc.message)
            _finish(job, status=Status.FAILED, error=exc.message)
        except Exception:  # noqa: BLE001 - any other failure still ends the job
            logger.exception("AI job %s crashed", job_id)
            _finish(job, status=Status.FAILED, error=FAILURE_MESSAGES[job.kind])
        else:
            _finish(job, status=Status.SUCCEEDED, result=result)
        return job.status


def generation_jobs_fail_stale(*, older_than_seconds: int) -> int:
    """Fail the jobs of the current schema still unfinished after `older_than_seconds`."""
    now = timezone.now()
    return GenerationJob.objects.filter(
        status__in=GenerationJob.UNFINISHED, created_at__lt=now - timedelta(seconds=older_than_seconds)
    ).update(
        status=Status.FAILED,
        finished_at=now,
        error=Case(*(When(kind=kind, then=Value(message)) for kind, message in FAILURE_MESSAGES.items()),
                   default=Value(BLOG_FAILED)),
    )
