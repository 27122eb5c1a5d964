"""Celery tasks of the core app: outgoing email, edge-cache purges."""
from __future__ import annotations

import smtplib

from celery import shared_task
from django.conf import settings

from apps.core import email as mail
from apps.core.edge_cache import PURGE_TASK, purge_nodes


@shared_task(bind=True, name=mail.SEND_TASK, acks_late=True, ignore_result=True, max_retries=None)
def send_email(self, email_id: str) -> bool:
    """Send one queued email; SMTP and network errors are retried with backoff, then given up."""
    try:
        return mail.email_send(email_id=email_id)
    except (smtplib.SMTPException, OSError) as exc:
        if self.request.retries + 1 >= settings.EMAIL_MAX_ATTEMPTS:
            mail.email_give_up(email_id=email_id, error=str(exc))
            return False
        raise self.retry(exc=exc, countdown=mail.retry_delay(self.request.retries)) from exc


@shared_task(bind=True, name=PURGE_TASK, ignore_result=True)
def edge_purge(self, tags: list[str], urls: list[str]) -> None:
    """Purge `tags` on each cache node; the nodes that failed are tried again later."""
    failed = purge_nodes(tags, urls)
    if failed and self.request.retries < settings.EDGE_PURGE_MAX_RETRIES:
        raise self.retry(args=[tags, failed], countdown=min(2 ** self.request.retries, 60))
