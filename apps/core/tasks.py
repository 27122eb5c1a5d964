"""Celery tasks of the core app: outgoing email."""
from __future__ import annotations

import smtplib

from celery import shared_task
from django.conf import settings

from apps.core import email as mail


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
