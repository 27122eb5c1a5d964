"""Deleting a company, and everything it left anywhere.

`client_delete` does the whole job at once (the `tenant_delete` operator command, and the queued
task): an optional backup first, then its media files (every storage key under `{schema}/`), its
Redis keys (cache entries, content version, analytics stream, public API replies, AI job
signals), and finally the company row, its domains and its schema. Tasks still queued for the
company find no schema and are dropped (apps.core.tasks_base.CMSTask).

`client_request_deletion` is what an admin does from Settings: after the typed confirmation and
the password, the company stops answering at once (status `deleting`: its hosts answer like an
unknown company, and the public API's host map drops it on commit), and the heavy part runs on
the queue.
"""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import connection, transaction
from django_tenants.utils import get_public_schema_name, schema_context

from apps.accounts.services import password_confirms
from apps.core import events, redis_conn
from apps.core.errors import ValidationFailed
from apps.core.outbox import outbox_add
from apps.media.storage import media_keys, media_storage
from lifecycle.backup import tenant_backup
from tenants.models import Client

logger = logging.getLogger(__name__)

CONFIRM_MISMATCH = "Type your company's subdomain exactly to confirm"
WRONG_PASSWORD = "Password is incorrect"
DELETE_TASK = "tenants.delete_company"
DELETE_LEASE_SECONDS = 3600  # a large company's files, and the task's own retries (about 15 minutes)
CANNOT_DELETE = "Only administrators can delete the company"


def media_purge(schema: str) -> int:
    storage = media_storage()
    keys = media_keys(storage, f"{schema}/")
    for key in keys:
        storage.delete(key)
    if isinstance(storage, FileSystemStorage):  # the emptied folders too
        shutil.rmtree(Path(storage.location) / schema, ignore_errors=True)
    return len(keys)


def redis_patterns(schema: str) -> list[str]:
    """Every key that belongs to one company names its schema as a whole `:`-separated part:
    Django's cache (`{schema}:...`, django-tenants' key function) and the product's own keys
    (apps.core.redis_conn.tenant_key: `{prefix}:{kind}:{schema}[:...]`)."""
    return [f"{schema}:*", f"*:{schema}", f"*:{schema}:*"]


def redis_purge(schema: str) -> int:
    client = redis_conn.client(read_timeout=10)
    removed = 0
    for pattern in redis_patterns(schema):
        batch = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 500:
                removed += client.unlink(*batch)
                batch = []
        if batch:
            removed += client.unlink(*batch)
    return removed


def client_delete(*, client: Client, backup_path: Path | None = None) -> dict:
    """Delete the company now; returns what was removed. Idempotent for what is already gone."""
    schema = client.schema_name
    connection.set_schema_to_public()
    summary: dict = {"subdomain": client.subdomain, "schema": schema}
    if backup_path is not None:
        summary["backup"] = str(tenant_backup(client=client, path=backup_path).path)
    summary["files"] = media_purge(schema)
    with transaction.atomic():
        # The cache tier's copies are purged once the rows are gone (the hosts are read now).
        events.publish(events.CompanyChanged(client=client, change="deleted", summary=client.subdomain))
        # The row first (domains go with it; the host map is rewritten on commit), the schema with it.
        Client.objects.filter(pk=client.pk).select_for_update().first()
        client.delete(force_drop=True)
    summary["redis_keys"] = redis_purge(schema)  # after the drop: nothing can write them again
    connection.set_schema_to_public()
    logger.info("company %s deleted (%s files, %s Redis keys)", client.subdomain, summary["files"],
                summary["redis_keys"])
    return summary


def client_request_deletion(*, client: Client, actor, confirm_subdomain: str, password: str) -> None:
    """Checks, then the company stops answering at once; the deletion itself is queued."""
    errors = []
    if confirm_subdomain.strip() != client.subdomain:
        errors.append({"field": "confirmSubdomain", "message": CONFIRM_MISMATCH})
    if not password_confirms(actor, password):
        errors.append({"field": "password", "message": WRONG_PASSWORD})
    if errors:
        raise ValidationFailed(errors[0]["message"], errors=errors)
    with transaction.atomic(), schema_context(get_public_schema_name()):
        locked = Client.objects.select_for_update().get(pk=client.pk)
        client_deletion_start(client=locked)
        # In the company's own log (kept by a backup taken before the schema goes); its website's
        # cached replies stop at once too.
        events.publish(events.CompanyChanged(client=locked, change="deletion_requested", actor=actor,
                                             summary=client.subdomain))


def client_deletion_start(*, client: Client) -> None:
    """`client`'s row locked in the caller's transaction (an admin's request, or a company left
    unverified: lifecycle.verification): it stops answering at once (status `deleting`, saved, so
    the public API's host map drops it on commit) and its deletion is queued."""
    if client.status != Client.Status.DELETING:
        client.status = Client.Status.DELETING
        client.save(update_fields=["status"])
    _queue_deletion(client.pk)


def _queue_deletion(client_id) -> None:
    """The deletion's outbox row, in the request's transaction: sent after the commit, or by the
    relay (a broker down then, a worker lost mid-deletion). It runs in the public schema (the
    company's schema is what it removes); its own retries (lifecycle.tasks) fit in the lease."""
    outbox_add(task=DELETE_TASK, kwargs={"client_id": client_id}, key=f"company-delete:{client_id}",
               schema_name=get_public_schema_name(), lease=DELETE_LEASE_SECONDS)
