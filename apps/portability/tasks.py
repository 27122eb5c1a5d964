"""The import and export jobs (Celery; the tenant schema travels with each task). Sent through the
outbox: a task whose worker died is sent again when its lease ends."""
from __future__ import annotations

from celery import shared_task

from apps.portability.fetch import fetch_image_bytes
from apps.portability.services import EXPORT_TASK, IMPORT_TASK, export_run, import_run


@shared_task(name=IMPORT_TASK, acks_late=True)
def portability_import_run(job_id: str) -> str | None:
    job = import_run(job_id=job_id, fetch=fetch_image_bytes)
    return job.status if job is not None else None


@shared_task(name=EXPORT_TASK, acks_late=True)
def portability_export_run(job_id: str) -> str | None:
    job = export_run(job_id=job_id)
    return job.status if job is not None else None
