"""The import and export jobs (Celery; the tenant schema travels with each task). Sent through the
outbox: a task whose worker died is sent again when its lease ends."""
from __future__ import annotations

from celery import shared_task

from apps.portability.fetch import fetch_image_bytes
from apps.portability.models import ImportJob
from apps.portability.services import (EXPORT_TASK, FETCH_MISSING_TASK, IMPORT_TASK, export_run,
                                       import_fetch_missing, import_run)


@shared_task(name=IMPORT_TASK, acks_late=True)
def portability_import_run(job_id: str) -> str | None:
    job = import_run(job_id=job_id, fetch=fetch_image_bytes)
    return job.status if job is not None else None


@shared_task(name=EXPORT_TASK, acks_late=True)
def portability_export_run(job_id: str) -> str | None:
    job = export_run(job_id=job_id)
    return job.status if job is not None else None


@shared_task(name=FETCH_MISSING_TASK, acks_late=True)
def portability_fetch_missing_run(job_id: str) -> dict:
    """An import's "Fetch missing images" (idempotent: what was brought is no longer missing)."""
    job = ImportJob.objects.filter(pk=job_id).first()
    return import_fetch_missing(job_id=job_id, actor=job.created_by if job else None, fetch=fetch_image_bytes)
