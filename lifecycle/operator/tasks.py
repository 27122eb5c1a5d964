"""Queued work of the operator console."""
from __future__ import annotations

from celery import shared_task

from lifecycle.operator import services


# Sent through the outbox in the company's schema (lifecycle.operator.services.company_backup_start);
# idempotent by the backup's row (a backup made or being made is not made again). Acknowledged when
# taken (it may run longer than the broker's visibility timeout): the outbox sends it again if it
# has not finished within its lease.
@shared_task(name=services.BACKUP_TASK, acks_late=False, ignore_result=True)
def backup_run(backup_id: int) -> None:
    services.backup_run(backup_id=backup_id)
