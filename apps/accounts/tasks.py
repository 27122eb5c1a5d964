"""Queued work of the accounts app."""
from __future__ import annotations

from celery import shared_task

from apps.accounts import services


@shared_task(name=services.RESET_TASK, ignore_result=True)
def password_reset_email(email: str, request_id: str | None = None) -> bool:
    """Forgot password: email the address's active user a reset link (if there is one), once per
    request."""
    return services.password_reset_email(email=email, request_id=request_id)
