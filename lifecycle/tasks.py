"""Queued work of the company's lifecycle (the task names keep their `tenants.` prefix: they are
stored in outbox rows and the beat schedule)."""
from __future__ import annotations

import logging

from celery import shared_task

from lifecycle.deletion import client_delete
from lifecycle.provisioning import schema_pool_refill
from lifecycle.verification import unverified_delete_due
from tenants.directory import find_companies_email as send_list
from tenants.models import Client

logger = logging.getLogger(__name__)


# Acknowledged when taken (it may run longer than the broker's visibility timeout): sent through
# the outbox (lifecycle.deletion), which sends it again if it does not finish within its lease.
@shared_task(name="tenants.delete_company", autoretry_for=(Exception,), retry_backoff=5, retry_backoff_max=300,
             retry_jitter=True, max_retries=8, acks_late=False)
def delete_company(*, client_id: int) -> dict | None:
    """The heavy part of a deletion an admin asked for (lifecycle.deletion). Idempotent: a company
    already gone is done; a partial run (files removed, schema not yet) is finished by a retry."""
    client = Client.objects.filter(pk=client_id, status=Client.Status.DELETING).first()
    if client is None:
        logger.info("company %s: nothing left to delete", client_id)
        return None
    return client_delete(client=client)


@shared_task(name="tenants.delete_unverified_companies", ignore_result=True)
def delete_unverified_companies() -> int:
    """Periodic (beat): delete companies whose email was not verified in UNVERIFIED_COMPANY_DAYS."""
    return unverified_delete_due()


@shared_task(name="tenants.find_companies_email", acks_late=True, ignore_result=True)
def find_companies_email(email: str, request_id: str | None = None) -> int:
    """The root domain's "find my companies": email the address its companies' sign-in links (if any).
    Idempotent: the request's email is queued once."""
    return send_list(email=email, request_id=request_id)


@shared_task(name="tenants.refill_schema_pool", ignore_result=True)
def refill_schema_pool() -> int:
    """After a sign-up took a spare schema, and periodically (beat): keep SCHEMA_POOL_SIZE ready."""
    from django.core.cache import cache

    # One refill at a time (several sign-ups in a row queue several): the others find it running.
    if not cache.add("tenants:refill-schema-pool", 1, timeout=300):
        return 0
    try:
        return schema_pool_refill()
    finally:
        cache.delete("tenants:refill-schema-pool")
