"""Scheduled publishing.

Celery beat sends `content.publish_scheduled_posts` every CONTENT_PUBLISH_INTERVAL seconds (public
schema). It reads the companies with a post due from one index in the public schema
(apps.content.scheduling, apps.core.due: one query, whatever the number of companies) and sends them
to the workers, one task per COMPANIES_CHUNK_SIZE companies (apps.core.tenancy.fan_out): in each,
the due posts are published and the company's row settled to its next scheduled post.
`content.publish_tenant_scheduled_posts` does the same for the company it is sent from. Every
CONTENT_PUBLISH_SWEEP_SECONDS, `content.publish_sweep` does the same in every company, in chunks
across the workers: a row lost or never written is repaired there.
Publishing is idempotent: due rows are locked with SKIP LOCKED and published once; a second run
finds nothing.
"""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django_tenants.utils import get_public_schema_name

from apps.content import scheduling
from apps.content.services import publish_due_posts, revisions_prune
from apps.core import due, tenancy

logger = logging.getLogger(__name__)


@shared_task(name="content.publish_scheduled_posts", ignore_result=True)
def publish_scheduled_posts() -> int:
    """Send the companies with a post due (the index), one task per COMPANIES_CHUNK_SIZE of them
    (apps.core.tenancy.fan_out); returns how many companies."""
    connection.set_schema_to_public()
    schemas = [company.schema_name for company in due.due_companies(kind=scheduling.KIND, now=timezone.now())]
    tenancy.fan_out("content.publish_due", schemas=schemas, here=False,
                    expires=settings.CONTENT_PUBLISH_TASK_EXPIRES)
    return len(schemas)


def publish_and_settle() -> int:
    """In the connection's company: publish what is due, then settle its row of the index."""
    published = publish_due_posts()
    if published:
        logger.info("scheduled publishing: %d post(s) published in %s", len(published), connection.schema_name)
    scheduling.schedule_settle()
    return len(published)


@shared_task(name="content.publish_tenant_scheduled_posts", acks_late=True, ignore_result=True)
def publish_tenant_scheduled_posts() -> int:
    """Runs in the tenant's schema (sent from its context); publishes what is due."""
    if connection.schema_name == get_public_schema_name():
        logger.error("publish_tenant_scheduled_posts ran without a tenant schema; ignored")
        return 0
    return publish_and_settle()


@tenancy.per_company("content.publish_due", what="scheduled publishing")
def _publish_due(tenant) -> int:
    return publish_and_settle()


@tenancy.per_company("content.publish_sweep", what="the scheduled publishing sweep")
def _sweep(tenant) -> int:
    return publish_and_settle()


@shared_task(name="content.publish_sweep", ignore_result=True)
def publish_sweep() -> int:
    """Beat, every CONTENT_PUBLISH_SWEEP_SECONDS: every serving company, in chunks across the
    workers: publishes what is due and puts its row of the index right."""
    return sum(tenancy.fan_out("content.publish_sweep").values())


@tenancy.per_company("content.prune_revisions", include_suspended=True, what="revision pruning")
def _prune_revisions(tenant) -> int:
    return revisions_prune(keep=settings.CONTENT_REVISIONS_KEEP)


@shared_task(name="content.prune_revisions", ignore_result=True)
def prune_revisions() -> int:
    """Beat, public schema: in every company, revisions past the newest CONTENT_REVISIONS_KEEP of
    each post go, except those that left a post published."""
    return sum(tenancy.fan_out("content.prune_revisions").values())
