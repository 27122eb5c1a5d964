"""Reads of the AI app."""
from __future__ import annotations

import time

from django.db import connection

from apps.ai import notify
from apps.ai.models import GenerationJob
from apps.core.selectors import get_or_404

JOB_NOT_FOUND = "Generation job not found"


def generation_job_get(*, job_id: str, user) -> GenerationJob:
    """A job of the current tenant started by `user` (anyone else's is 'not found')."""
    return get_or_404(GenerationJob.objects.filter(created_by=user), job_id, JOB_NOT_FOUND)


def generation_job_wait(*, job: GenerationJob, timeout: float) -> GenerationJob:
    """The job, re-read until it is finished or `timeout` seconds have passed."""
    deadline = time.monotonic() + max(0.0, timeout)
    schema_name = connection.schema_name
    while True:
        job.refresh_from_db()
        remaining = deadline - time.monotonic()
        if job.is_finished or remaining <= 0:
            return job
        notify.job_finished_wait(schema_name=schema_name, job_id=job.pk, timeout=remaining)
