"""Purging the HTTP cache tier in front of the public content API (Varnish, deploy/varnish/).

Surrogate keys (`xkey`, `Surrogate-Key`, `Cache-Tag`; apps.public_api.request.edge_tag_headers)
of a reply served for host <h>:
- `host-<h>`: every reply (purged for a change of the whole company);
- `posts-<h>` on posts lists, `search-<h>` on posts lists with a search instead;
- `drafts-<h>` on every reply to the preview key (the only key that reads drafts);
- `p-<12 hex digits of the id>` for each post in the reply (a list's posts, a post by slug).

What a write purges (`post_change_tags`; everything else purges the whole company):
- a post that is not public before nor after the write (a draft, a scheduled post): `drafts-<h>`
  and its own key; what a content key reads stays cached;
- a public post that stays public, in the same place of every list (same status, publication
  date, categories and tags): its own key (its page and every list page showing it) and
  `search-<h>` (a new title may match other searches);
- any other post change (publish, unpublish, delete, new categories, another language, a new
  slug of a post with translations: the `translations` of its group's other posts name it),
  categories, tags, media, settings, key rotation, suspension, deletion: `host-<h>`.

The purge is written to the outbox (apps.core.outbox) in the write's transaction; after the commit
one Celery task sends `PURGE /` with `xkey-purge: <keys>` to each node of EDGE_CACHE_URLS (a broker
down then delays it until the relay sends it). A node that does not answer 200 is tried again
(EDGE_PURGE_MAX_RETRIES, backoff from 1 s); if it never does, its copies expire after PUBLIC_API_EDGE_MAX_AGE seconds, and browsers
may keep theirs PUBLIC_API_MAX_AGE more.
"""
from __future__ import annotations

import logging

from django.conf import settings

from apps.core.metrics import shared_count
from apps.core.outbox import outbox_add
from tenants.models import Client, Domain

logger = logging.getLogger(__name__)

PURGE_TASK = "core.edge_purge"


def edge_enabled() -> bool:
    """A cache tier is configured (EDGE_CACHE_URLS)."""
    return bool(settings.EDGE_CACHE_URLS)


def host_name(host: str) -> str:
    return host.split(":", 1)[0].lower().rstrip(".")


def host_tag(host: str) -> str:
    return "host-" + host_name(host)


def post_tag(post_id) -> str:
    """A post's key: 48 random bits of its UUID (a list of 100 posts stays a short header; a
    collision only purges one more reply)."""
    return "p-" + str(post_id).replace("-", "")[:12]


def _hosts(client_id) -> list[str]:
    return sorted({host_name(domain) for domain in Domain.objects.filter(tenant_id=client_id)
                   .values_list("domain", flat=True)})


def company_tags(client) -> list[str]:
    """The surrogate keys of every reply of the company: one per host it is served on."""
    return [f"host-{host}" for host in _hosts(client.pk)]


def post_change_tags(*, schema_name: str, post_id, public_before: bool, public_after: bool,
                     same_place: bool) -> list[str] | None:
    """The keys a post write changed (see the module's docstring); None: the whole company."""
    if not edge_enabled() or public_before != public_after or (public_after and not same_place):
        return None

    client_id = Client.objects.filter(schema_name=schema_name).values_list("pk", flat=True).first()
    hosts = _hosts(client_id) if client_id is not None else []
    scope = "search" if public_after else "drafts"
    return [post_tag(post_id), *(f"{scope}-{host}" for host in hosts)]


def edge_purge_tags(tags: list[str]) -> None:
    """Queue the purge of `tags` on every cache node, sent once the current transaction commits."""
    if not settings.EDGE_CACHE_URLS or not tags:
        return

    outbox_add(task=PURGE_TASK, args=[list(tags), list(settings.EDGE_CACHE_URLS)])


def edge_purge_company(client=None, *, schema_name: str | None = None, tags: list[str] | None = None) -> None:
    """Purge every cached public API reply of the company (by object, or by schema name), or only
    `tags` when given (post_change_tags)."""
    if not settings.EDGE_CACHE_URLS:
        return
    if tags is not None:
        edge_purge_tags(tags)
        return
    if client is None:
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
    shared_count("cms_edge_purges", "sent", amount=len(urls) - len(failed))
    shared_count("cms_edge_purges", "failed", amount=len(failed))
    return failed
