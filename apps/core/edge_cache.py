"""Purging the HTTP cache tier in front of the public content API (Varnish, deploy/varnish/).

Every public API reply carries the surrogate key of the host it was served for (`host-<host>`:
`xkey`, `Surrogate-Key`, `Cache-Tag`; apps.public_api.request.edge_tag_headers). After a commit
that changes what a company's website reads (a content write, a key rotation, a suspension, a
deletion), `edge_purge_company` queues one Celery task that sends `PURGE /` with
`xkey-purge: <the company's host keys>` to each node of EDGE_CACHE_URLS. A node that does not
answer 200 is tried again (EDGE_PURGE_MAX_RETRIES, backoff from 1 s); if it never does, its copies
expire after PUBLIC_API_EDGE_MAX_AGE seconds, and browsers may keep theirs PUBLIC_API_MAX_AGE
more.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

PURGE_TASK = "core.edge_purge"


def host_tag(host: str) -> str:
    return "host-" + host.split(":", 1)[0].lower().rstrip(".")


def company_tags(client) -> list[str]:
    """The surrogate keys of every reply of the company: one per host it is served on."""
    from tenants.models import Domain

    return sorted({host_tag(domain) for domain in Domain.objects.filter(tenant_id=client.pk)
                   .values_list("domain", flat=True)})


def edge_purge_tags(tags: list[str]) -> None:
    """Queue the purge of `tags` on every cache node once the current transaction commits."""
    if not settings.EDGE_CACHE_URLS or not tags:
        return
    from apps.core.task_queue import send_by_name

    urls = list(settings.EDGE_CACHE_URLS)
    transaction.on_commit(lambda: send_by_name(PURGE_TASK, args=[tags, urls]))


def edge_purge_company(client=None, *, schema_name: str | None = None) -> None:
    """Purge every cached public API reply of the company (by object, or by schema name)."""
    if not settings.EDGE_CACHE_URLS:
        return
    if client is None:
        from tenants.models import Client

        client = Client.objects.filter(schema_name=schema_name).first()
        if client is None:
            return
    edge_purge_tags(company_tags(client))


def purge_nodes(tags: list[str], urls: list[str]) -> list[str]:
    """Send the purge to each node; returns the nodes that did not confirm it."""
    import requests

    failed = []
    for url in urls:
        try:
            response = requests.request("PURGE", url.rstrip("/") + "/", headers={"xkey-purge": " ".join(tags)},
                                        timeout=settings.EDGE_PURGE_TIMEOUT)
            if response.status_code != 200:
                raise requests.RequestException(f"HTTP {response.status_code}")
        except requests.RequestException as exc:
            logger.warning("edge cache purge of %s on %s failed: %s", tags, url, exc)
            failed.append(url)
    return failed
