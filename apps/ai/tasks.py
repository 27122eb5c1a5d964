"""Celery tasks of the AI app. Jobs are sent from the tenant's request, so tenant-schemas-celery
runs them in that tenant's schema."""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from apps.ai import services
from apps.core import tenancy

logger = logging.getLogger(__name__)

if settings.AI_PROVIDER == "gemini":
    # Load the SDK (about 2 s of imports) when the worker starts, not during the first job.
    import apps.ai.providers.gemini  # noqa: F401


@shared_task(name=services.RUN_JOB_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             soft_time_limit=settings.AI_JOB_TIME_LIMIT, time_limit=settings.AI_JOB_TIME_LIMIT + 30)
def run_generation_job(job_id: str) -> str:
    """Idempotent: acknowledged only after the job ran, so a worker crash redelivers it; a
    finished job is never run again, and one being run elsewhere is left to that worker. Stopped
    (the job failed) after AI_JOB_TIME_LIMIT seconds, well within the broker's visibility timeout."""
    return services.generation_job_run(job_id=job_id)


# a suspended company's pollers get an answer too
@tenancy.per_company("ai.fail_stale_jobs", include_suspended=True, what="failing stale AI jobs")
def _fail_stale(tenant) -> int:
    return services.generation_jobs_fail_stale(older_than_seconds=settings.AI_JOB_STALE_SECONDS)


@shared_task(name="ai.fail_stale_jobs", ignore_result=True)
def fail_stale_jobs() -> int:
    """Periodic (beat): end every tenant's jobs stuck unfinished, so pollers get an answer (in
    chunks of companies across the workers: apps.core.tenancy.fan_out)."""
    total = sum(tenancy.fan_out("ai.fail_stale_jobs").values())
    if total:
        logger.warning("failed %d stale AI generation jobs", total)
    return total
