"""Media background work. Tasks take ids, are idempotent, and retry storage errors with
backoff, jitter and a cap. The tenant schema travels with each task (tenant-schemas-celery)."""
from __future__ import annotations

import logging

from celery import shared_task

from apps.core.errors import ApplicationError
from apps.media import storage
from apps.media.services import DELETE_FILES_TASK, RENDITIONS_TASK, media_renditions_make, storage_errors

logger = logging.getLogger(__name__)


@shared_task(
    name=RENDITIONS_TASK,
    autoretry_for=storage_errors(),
    retry_backoff=2,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=6,
    acks_late=True,
)
def media_make_renditions(media_id: str) -> dict | None:
    try:
        media = media_renditions_make(media_id=media_id)
    except ApplicationError as exc:
        # The stored original cannot be decoded: retrying will not help; the API keeps
        # serving the original.
        logger.error("renditions of media %s not made: %s", media_id, exc.message)
        return None
    return media.renditions if media is not None else None


@shared_task(
    name=DELETE_FILES_TASK,
    autoretry_for=storage_errors(),
    retry_backoff=5,
    retry_backoff_max=300,  # below the broker's visibility timeout (config.settings)
    retry_jitter=True,
    max_retries=10,
    acks_late=True,
)
def media_delete_files(keys: list[str], prefix: str) -> None:
    schema = storage.current_schema()
    if not prefix.startswith(f"{schema}/"):
        logger.error("refusing to delete %s from schema %s", prefix, schema)
        return
    storage.delete_keys(keys, prefix)
