"""Members' background work (Celery; the company's schema travels with each task). The import's
tasks are sent through the outbox: a task whose worker died is sent again when its lease ends."""
from __future__ import annotations

from celery import shared_task

from apps.members import imports


@shared_task(name=imports.ANALYSE_TASK, acks_late=True)
def members_import_analyse(job_id: str) -> str | None:
    job = imports.member_import_analyse(job_id=job_id)
    return job.status if job is not None else None


@shared_task(name=imports.RUN_TASK, acks_late=True)
def members_import_run(job_id: str) -> str | None:
    job = imports.member_import_run(job_id=job_id)
    return job.status if job is not None else None
