"""Celery tasks of the core app."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings

from apps.core.edge_cache import PURGE_TASK, purge_nodes


@shared_task(bind=True, name=PURGE_TASK, ignore_result=True)
def edge_purge(self, tags: list[str], urls: list[str]) -> None:
    """Purge `tags` on each cache node; the nodes that failed are tried again later."""
    failed = purge_nodes(tags, urls)
    if failed and self.request.retries < settings.EDGE_PURGE_MAX_RETRIES:
        raise self.retry(args=[tags, failed], countdown=min(2 ** self.request.retries, 60))
