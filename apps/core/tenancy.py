"""Work done for every company: the one loop over the companies' schemas that periodic tasks use,
and its fan-out in chunks across the workers (`per_company`, `fan_out`)."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django_tenants.utils import get_public_schema_name, tenant_context

from apps.core.task_queue import send_by_name

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


# --- fan-out in chunks -----------------------------------------------------------------------------
# A periodic task that visits every company sends one `core.companies_chunk` task per
# COMPANIES_CHUNK_SIZE companies instead of running one long loop: at 10,000 companies a pass is
# spread over every worker, a worker restarted loses one chunk (the next pass covers it), and each
# chunk's connection is closed at its end (the server's memory for a schema's catalog, ~100-180 KB
# for each company a connection touched, is given back: docs/scaling.md).
CHUNK_TASK = "core.companies_chunk"


@dataclass(frozen=True)
class PerCompany:
    name: str
    work: Callable  # work(tenant), in the company's schema
    include_suspended: bool
    what: str


_registered: dict[str, PerCompany] = {}


def per_company(name: str, *, include_suspended: bool = False, what: str = "") -> Callable:
    """Register `work(tenant)` as the per-company work `name` (a decorator, in the app's tasks
    module, which every worker imports): fan_out(name) runs it in every company."""

    def register(work: Callable) -> Callable:
        _registered[name] = PerCompany(name, work, include_suspended, what or name)
        return work

    return register


def chunks_of(schemas: list[str], size: int | None = None) -> list[list[str]]:
    size = max(1, size or settings.COMPANIES_CHUNK_SIZE)
    return [schemas[start:start + size] for start in range(0, len(schemas), size)]


def fan_out(name: str, *, schemas: list[str] | None = None, here: bool = True, **options) -> dict:
    """Run the per-company work `name` in every company (`schemas`, else every company it is for),
    COMPANIES_CHUNK_SIZE at a time: the first chunk here and now (`here`; else it is sent too),
    each other one as a task of its own (`options`: the tasks' sending options, e.g. expires).
    Returns the results of the companies run here ({schema: result}: all of them when they fit in
    one chunk); the other chunks log theirs."""
    entry = _registered[name]
    if schemas is None:
        schemas = list(active_tenants(include_suspended=entry.include_suspended).values_list("schema_name", flat=True))
    chunks = chunks_of(schemas)
    if not chunks:
        return {}
    connection.set_schema_to_public()  # the chunks run from the public schema
    for chunk in chunks[1 if here else 0:]:
        send_by_name(CHUNK_TASK, args=[name, chunk], **options)
    return chunk_run(name, chunks[0]) if here else {}


def chunk_run(name: str, schemas: list[str]) -> dict:
    """The work `name` in each of these companies still concerned now (a company suspended or being
    deleted since the chunk was made is left out); the connection is closed afterwards."""
    entry = _registered[name]
    started = time.monotonic()
    tenants = active_tenants(include_suspended=entry.include_suspended).filter(schema_name__in=schemas)
    try:
        return for_each_active_tenant(entry.work, tenants=list(tenants), what=entry.what)
    finally:
        logger.info("%s: %d companies in %.2f s", entry.what, len(schemas), time.monotonic() - started)
        if not connection.in_atomic_block:
            connection.close()
