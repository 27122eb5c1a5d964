"""Scheduled publishing.

Celery beat sends `content.publish_scheduled_posts` every CONTENT_PUBLISH_INTERVAL seconds (public
schema). It walks the companies that are not suspended, checks each schema for due posts with
one indexed query (partial index on scheduled_publish_date WHERE publish_scheduled), and
enqueues `content.publish_tenant_scheduled_posts` inside that tenant's context for those that
have some (tenant-schemas-celery carries the schema to the worker). Publishing is idempotent:
due rows are locked with SKIP LOCKED and published once; a second run finds nothing.
"""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django_tenants.utils import get_public_schema_name

from apps.content.models import Post
from apps.content.services import publish_due_posts, revisions_prune
from apps.core.tenancy import for_each_active_tenant

logger = logging.getLogger(__name__)


@shared_task(name="content.publish_scheduled_posts", ignore_result=True)
def publish_scheduled_posts() -> int:
    """Dispatch per tenant; returns how many tenants had due posts."""
    connection.set_schema_to_public()
    now = timezone.now()

    def dispatch(tenant) -> bool:
        due = Post.objects.filter(publish_scheduled=True, status=Post.Status.DRAFT,
                                  scheduled_publish_date__lte=now).exists()
        if due:
            publish_tenant_scheduled_posts.apply_async(expires=settings.CONTENT_PUBLISH_TASK_EXPIRES)
        return due

    return sum(for_each_active_tenant(dispatch, what="scheduled publishing").values())


@shared_task(name="content.publish_tenant_scheduled_posts", acks_late=True, ignore_result=True)
def publish_tenant_scheduled_posts() -> int:
    """Runs in the tenant's schema (sent from its context); publishes what is due."""
    if connection.schema_name == get_public_schema_name():
        logger.error("publish_tenant_scheduled_posts ran without a tenant schema; ignored")
        return 0
    published = publish_due_posts()
    if published:
        logger.info("scheduled publishing: %d post(s) published in %s", len(published), connection.schema_name)
    return len(published)


@shared_task(name="content.prune_revisions", ignore_result=True)
def prune_revisions() -> int:
    """Beat, public schema: in every company, revisions past the newest CONTENT_REVISIONS_KEEP of
    each post go, except those that left a post published."""
    removed = for_each_active_tenant(lambda tenant: revisions_prune(keep=settings.CONTENT_REVISIONS_KEEP),
                                     include_suspended=True, what="revision pruning")
    return sum(removed.values())
