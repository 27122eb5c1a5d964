"""Celery tasks of the core app: the outbox relay, outgoing email, edge-cache purges, content
version bumps that Redis missed."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings

from apps.core import content_version
from apps.core import email as mail
from apps.core import outbox, tenancy
from apps.core.edge_cache import PURGE_TASK, purge_nodes

RELAY_TASK = "core.outbox_relay"


@shared_task(name=RELAY_TASK, ignore_result=True)
def outbox_relay() -> int:
    """Periodic (beat, OUTBOX_RELAY_SECONDS): send what the outbox holds that is due."""
    return outbox.outbox_relay()


# Idempotent (the message's row, locked while it is sent): acknowledged after it ran.
@shared_task(name=mail.SEND_TASK, acks_late=True, ignore_result=True)
def send_email(email_id: str) -> bool:
    """Send one queued email; a failed try is tried again later through the outbox, then given up."""
    return mail.email_send(email_id=email_id)


@shared_task(name=PURGE_TASK, acks_late=True, ignore_result=True)
def edge_purge(tags: list[str], urls: list[str], tries: int = 0) -> None:
    """Purge `tags` on each cache node (a purge done twice is harmless); the nodes that failed are
    tried again later (backoff from 1 s, EDGE_PURGE_MAX_RETRIES)."""
    failed = purge_nodes(tags, urls)
    if failed and tries < settings.EDGE_PURGE_MAX_RETRIES:
        raise outbox.Later.after(min(2 ** tries, 60), error=f"not purged on {', '.join(failed)}",
                                 args=[tags, failed], kwargs={"tries": tries + 1})


@shared_task(name=content_version.BUMP_TASK, acks_late=True, ignore_result=True)
def content_version_bump(schema_name: str, edge_tags: list[str] | None = None) -> None:
    """A content version bump that Redis missed when its write committed (a bump done twice is
    harmless); tried again later while Redis does not answer."""
    content_version.content_version_bump_relayed(schema_name=schema_name, edge_tags=edge_tags)


@shared_task(name=tenancy.CHUNK_TASK, ignore_result=True)
def companies_chunk(name: str, schemas: list[str]) -> int:
    """One chunk of a periodic task's pass over the companies (apps.core.tenancy.fan_out)."""
    return len(tenancy.chunk_run(name, schemas))
