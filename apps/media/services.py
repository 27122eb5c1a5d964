"""Writes of the media library. Files are written before the row and removed again when the
row cannot be written; deleting a row removes its files after the transaction commits. Each write
publishes what it did (apps.core.events.MediaChanged): the audit log, the content version and
webhooks follow."""
from __future__ import annotations

import logging
import os
import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import connection, transaction
from django.db.models import ProtectedError

from apps.core import events
from apps.core.errors import ApplicationError, Conflict, ErrorCode, ValidationFailed
from apps.core.permissions import can, require
from apps.core.outbox import outbox_add
from apps.core.languages import LANGUAGE_NOT_OFFERED
from apps.core.languages import current as current_languages
from apps.media import selectors, storage
from apps.media.models import Media
from apps.media.schemas import clean_alt_text
from apps.plans.rules import plan_release, plan_spend

logger = logging.getLogger(__name__)
# The background work (apps.media.tasks), sent by name: the tasks call these services, so the
# services do not import the tasks module (and a web process never imports it at all).
RENDITIONS_TASK = "media.make_renditions"
DELETE_FILES_TASK = "media.delete_files"
# Seconds the tasks may take, their own retries of storage errors included, before the outbox
# sends them again (apps.media.tasks: about 2 and 25 minutes at worst).
RENDITIONS_LEASE_SECONDS = 900
DELETE_FILES_LEASE_SECONDS = 3600


# The web process loads neither botocore nor Pillow until it handles an upload (or a storage
# error): they are megabytes per worker that most requests never use.
@lru_cache(maxsize=1)
def storage_errors() -> tuple[type[BaseException], ...]:
    """What a failing storage raises (local disk or S3): retried by the tasks, 503 on upload."""
    from botocore.exceptions import BotoCoreError, ClientError

    return OSError, BotoCoreError, ClientError


def _images():
    from apps.media import images

    return images


UPLOAD_DENIED = "You don't have permission to upload media"
EDIT_DENIED = "You don't have permission to edit this media"
DELETE_DENIED = "You don't have permission to delete this media"
FEATURED_CONFLICT = "Cannot delete media: it is currently used as featured image in {count} posts"
FILE_NAME_MAX = 255
STORAGE_DOWN = "Media storage is unavailable. Please try again later"


class StorageUnavailable(ApplicationError):
    status_code = 503
    code = "unavailable"


def _alt_text(value: str | None) -> str:
    try:
        return clean_alt_text(value)
    except ValueError as exc:
        raise ValidationFailed(str(exc), field="altText") from exc


def _display_name(file_name: str | None, extension: str) -> str:
    name = os.path.basename((file_name or "").replace("\\", "/")).strip()
    name = "".join(ch for ch in name if ch.isprintable())
    if not name:
        return f"image.{extension}"
    if len(name) > FILE_NAME_MAX:
        stem, ext = os.path.splitext(name)
        name = stem[: FILE_NAME_MAX - len(ext[:20])] + ext[:20]
    return name[:FILE_NAME_MAX]


def media_upload(*, uploaded_file: UploadedFile, file_name: str | None, alt_text: str | None, uploaded_by,
                 actor=None) -> Media:
    """The upload endpoint: the size is checked before the file is read into memory. `actor`: who
    uploads, when not a member of the staff (an integration through the Ghost Admin API, with
    `uploaded_by` None); named in the media's event."""
    _images().check_size(uploaded_file.size or 0, max_bytes=settings.MEDIA_MAX_UPLOAD_BYTES)
    uploaded_file.seek(0)
    data = uploaded_file.read(settings.MEDIA_MAX_UPLOAD_BYTES + 1)
    return media_create_from_bytes(
        data=data, file_name=file_name or uploaded_file.name or "", alt_text=alt_text or "", uploaded_by=uploaded_by,
        actor=actor,
    )


@dataclass(frozen=True)
class ProcessedImage:
    """An image checked and cleaned for the library (`prepared`), with its renditions when they
    were asked for (None: the renditions task makes them after the commit)."""

    prepared: Any  # apps.media.images.PreparedImage
    renditions: list | None = None  # apps.media.images.Rendition


def media_process(*, data: bytes, renditions: bool = False) -> ProcessedImage:
    """Validate and clean an image, and make its renditions when asked: pure work (no database,
    no storage, no tenant), so a caller may process several images at once in threads. Raises
    PayloadTooLarge/ValidationFailed as an upload does. Renditions that cannot be made are left to
    the task (which logs why)."""
    images = _images()
    prepared = images.prepare_upload(data, max_bytes=settings.MEDIA_MAX_UPLOAD_BYTES,
                                     max_pixels=settings.MEDIA_MAX_PIXELS)
    made = None
    if renditions:
        try:
            made = _make_renditions(prepared.data)
        except ApplicationError:
            made = None
    return ProcessedImage(prepared=prepared, renditions=made)


def media_create_from_bytes(*, data: bytes, file_name: str, alt_text: str, uploaded_by, actor=None) -> Media:
    """Validate, clean and store an image in the current tenant's library; renditions follow
    (a Celery task enqueued on commit). Raises PayloadTooLarge/ValidationFailed; nothing is
    stored when it raises. Needs a tenant schema (request, tenant_context or schema_context)."""
    return media_create_processed(processed=media_process(data=data), file_name=file_name, alt_text=alt_text,
                                  uploaded_by=uploaded_by, actor=actor)


def media_create_processed(*, processed: ProcessedImage, file_name: str, alt_text: str, uploaded_by,
                           actor=None) -> Media:
    """Store a processed image (media_process) in the current tenant's library as one write: its
    files, its row and one MediaChanged `created`. Renditions made beforehand are stored and
    recorded with the row, so no later write (and no later content change) follows; otherwise the
    renditions task is enqueued on commit. Nothing is stored when it raises."""
    schema = storage.current_schema()
    alt = _alt_text(alt_text)
    prepared = processed.prepared
    media_id = uuid.uuid4()
    key = storage.original_key(schema, media_id, file_name, prepared.extension)
    try:
        storage.save_bytes(key, prepared.data)
        record = (_renditions_store(schema, media_id, key, processed.renditions)[0]
                  if processed.renditions is not None else {})
    except storage_errors() as exc:
        logger.exception("media storage failed to store %s", key)
        _delete_quietly([key], storage.media_prefix(schema, media_id))
        raise StorageUnavailable(STORAGE_DOWN) from exc
    try:
        with transaction.atomic():
            plan_spend("media_bytes", len(prepared.data))
            media = Media.objects.create(
                id=media_id,
                file_name=_display_name(file_name, prepared.extension),
                file_type=prepared.mime,
                file_size=len(prepared.data),
                alt_text=alt,
                width=prepared.width,
                height=prepared.height,
                storage_key=key,
                renditions=record,
                uploaded_by=uploaded_by,
            )
            events.publish(events.MediaChanged(media_id=media_id, file_name=media.file_name, change="created",
                                               actor=uploaded_by if actor is None else actor))
            if not record:
                _enqueue_renditions(str(media_id))
    except BaseException:
        _delete_quietly([key], storage.media_prefix(schema, media_id))
        raise
    return media


def _enqueue_renditions(media_id: str) -> None:
    """Its outbox row, in the upload's transaction: sent after the commit, or by the relay when the
    broker was down then (the upload still succeeds)."""
    outbox_add(task=RENDITIONS_TASK, args=[media_id], key=f"renditions:{connection.schema_name}:{media_id}",
               lease=RENDITIONS_LEASE_SECONDS)


def _delete_quietly(keys: list[str], prefix: str) -> None:
    try:
        storage.delete_keys(keys, prefix)
    except Exception:  # noqa: BLE001 - already failing; the original error matters
        logger.exception("could not remove media files %s", keys)


def _require_can_change(actor, media: Media, message: str) -> None:
    if can(actor, "media.manage"):
        return
    own = media.uploaded_by_id is not None and media.uploaded_by_id == getattr(actor, "pk", None)
    if own and can(actor, "media.edit_own"):
        return
    require(None, "media.manage", message)


@transaction.atomic
def media_update(*, actor, media_id: str, alt_text: str | None, alt_texts: dict | None = None) -> Media:
    """`alt_texts`: the alt text per language (the company's languages), replacing the map; None keeps it."""
    media = selectors.media_get(media_id, for_update=True)
    _require_can_change(actor, media, EDIT_DENIED)
    media.alt_text = _alt_text(alt_text)
    fields = ["alt_text"]
    if alt_texts is not None:
        offered = current_languages().codes
        unknown = [code for code in alt_texts if code not in offered]
        if unknown:
            raise ValidationFailed(LANGUAGE_NOT_OFFERED, field="altTexts")
        media.alt_texts = alt_texts
        fields.append("alt_texts")
    media.save(update_fields=fields)
    events.publish(events.MediaChanged(media_id=media.pk, file_name=media.file_name, change="updated", actor=actor,
                                       fields=("alt text",)))
    return media


def media_file_keys(media: Media) -> list[str]:
    keys = {media.storage_key}
    for entry in (media.renditions or {}).values():
        keys.update(key for key in (entry.get("webp"), entry.get("original")) if key)
    return sorted(keys)


def media_delete(*, actor, media_id: str) -> None:
    """Delete the row now and its files (original and renditions) once that commits.
    409 while posts use it as their featured image."""
    with transaction.atomic():
        media = selectors.media_get(media_id, for_update=True)
        _require_can_change(actor, media, DELETE_DENIED)
        count = selectors.media_featured_post_count(media)
        if count:
            raise Conflict(FEATURED_CONFLICT.format(count=count), detail=ErrorCode.MEDIA_IN_USE)
        keys = media_file_keys(media)
        prefix = storage.media_prefix(storage.current_schema(), media.id)
        try:
            with transaction.atomic():
                media.delete()
                plan_release("media_bytes", media.file_size)
        except ProtectedError as exc:
            # A post took it as featured image between the count and the delete.
            count = selectors.media_featured_post_count(media) or len(exc.protected_objects)
            raise Conflict(FEATURED_CONFLICT.format(count=count), detail=ErrorCode.MEDIA_IN_USE) from exc
        events.publish(events.MediaChanged(media_id=media_id, file_name=media.file_name, change="deleted",
                                           actor=actor))
        transaction.on_commit(lambda: media_files_delete(keys, prefix), robust=True)  # not a partial: see above


def media_files_delete(keys: list[str], prefix: str) -> None:
    """Remove files now; when the storage fails, a task retries with backoff."""
    try:
        storage.delete_keys(keys, prefix)
    except Exception:  # noqa: BLE001
        logger.warning("media files not deleted now, retrying in the background: %s", keys, exc_info=True)
        outbox_add(task=DELETE_FILES_TASK, args=[keys, prefix], lease=DELETE_FILES_LEASE_SECONDS)


def _renditions_complete(media: Media, widths: dict[str, int]) -> bool:
    return all((media.renditions or {}).get(name) for name in widths)


def _make_renditions(data: bytes) -> list:
    return _images().make_renditions(
        data,
        settings.MEDIA_RENDITION_WIDTHS,
        max_pixels=settings.MEDIA_MAX_PIXELS,
        webp_quality=settings.MEDIA_WEBP_QUALITY,
        jpeg_quality=settings.MEDIA_JPEG_QUALITY,
    )


def _renditions_store(schema: str, media_id, original_key: str, renditions: list) -> tuple[dict[str, dict], list[str]]:
    """Write the renditions' files; their record (as Media.renditions keeps it) and the keys written."""
    extension = os.path.splitext(original_key)[1].lstrip(".") or "img"
    record: dict[str, dict] = {}
    written: list[str] = []
    for rendition in renditions:
        webp_key = storage.rendition_key(schema, media_id, rendition.width, "webp")
        original = None
        if webp_key not in written:
            storage.save_bytes(webp_key, rendition.webp)
            written.append(webp_key)
        if rendition.original is not None:
            original = storage.rendition_key(schema, media_id, rendition.width, extension)
            if original not in written:
                storage.save_bytes(original, rendition.original)
                written.append(original)
        record[rendition.name] = {
            "width": rendition.width,
            "height": rendition.height,
            "webp": webp_key,
            "original": original,
        }
    return record, written


def media_renditions_make(*, media_id: str, force: bool = False) -> Media | None:
    """Make and record the renditions of one media object (idempotent: a finished one is
    skipped unless `force`). Returns None when the media no longer exists."""
    media = Media.objects.filter(pk=media_id).first()
    if media is None:
        return None
    widths = settings.MEDIA_RENDITION_WIDTHS
    if not force and _renditions_complete(media, widths):
        return media
    schema = storage.current_schema()
    renditions = _make_renditions(storage.read_bytes(media.storage_key))
    record, written = _renditions_store(schema, media.id, media.storage_key, renditions)
    with transaction.atomic():
        updated = Media.objects.filter(pk=media.pk).update(renditions=record)
        if updated:
            events.publish(events.MediaChanged(media_id=media.pk, file_name=media.file_name, change="renditions"))
    if not updated:
        # Deleted while we worked: leave nothing behind.
        _delete_quietly(written, storage.media_prefix(schema, media.id))
        return None
    media.renditions = record
    return media
