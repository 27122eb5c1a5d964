"""Work done for every company: the one loop over the companies' schemas that periodic tasks use."""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from django.db import connection
from django_tenants.utils import get_public_schema_name, tenant_context

from tenants.models import Client

logger = logging.getLogger(__name__)


def active_tenants(*, include_suspended: bool = False):
    """The companies (never the public schema, nor one being deleted), oldest first; suspended
    ones only when asked (their data waits until they are reactivated)."""
    tenants = Client.objects.exclude(schema_name=get_public_schema_name())
    tenants = tenants.exclude(status=Client.Status.DELETING) if include_suspended else tenants.serving()
    return tenants.order_by("created_at", "pk")


def for_each_active_tenant(work: Callable, *, tenants: Iterable | None = None, include_suspended: bool = False,
                           what: str = "tenant task") -> dict:
    """`work(tenant)` in each company's schema (`tenants`, else active_tenants()); returns
    {schema: result}. One company whose work fails is logged and skipped: it never stops the
    others. The connection is back on the public schema afterwards."""
    if tenants is None:
        tenants = active_tenants(include_suspended=include_suspended).iterator(chunk_size=500)
    results = {}
    try:
        for tenant in tenants:
            try:
                with tenant_context(tenant):
                    results[tenant.schema_name] = work(tenant)
            except Exception:  # noqa: BLE001 - one broken schema must not stop the others
                logger.exception("%s: failed for tenant %s", what, tenant.schema_name)
    finally:
        connection.set_schema_to_public()
    return results
