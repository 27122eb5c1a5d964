"""The content version and the cache tier after a write (a subscriber of apps.core.events).

- A post, category, tag or media write, or a change of an author's profile, bumps the company's
  content version, which purges the cache tier too: only the keys a post write changed
  (edge_cache.post_change_tags), the whole company for the rest.
- A company whose keys or status changed (an integration's Content API key too), whose deletion
  was asked for or which is being deleted: its replies in the cache tier are purged. A company
  restored from a backup, or whose settings changed: its version is bumped.
- A batch scope: one bump of the company's version (a purge of the whole company).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import singledispatch
from typing import Any

from django.db import connection

from apps.core import events
from apps.core.content_version import content_version_bump
from apps.core.edge_cache import edge_purge_company, post_change_tags

# Changes of a company after which its cached public replies are stale.
_PURGING = frozenset({"keys", "status", "deletion_requested", "deleted"})


@dataclass(frozen=True)
class _Bump:
    """content_version_bump(schema, edge_tags=tags)."""

    schema: str | None = None
    tags: list[str] | None = None


@dataclass(frozen=True)
class _Purge:
    """edge_purge_company(client)."""

    client: Any


@singledispatch
def _effects(event) -> list:
    return []


@_effects.register
def _(event: events.PostChanged) -> list:
    before, after = event.before, event.after
    tags = post_change_tags(schema_name=connection.schema_name, post_id=event.post.pk,
                            public_before=before is not None and before.public,
                            public_after=after is not None and after.public,
                            same_place=not (event.terms_changed or event.moved))
    return [_Bump(tags=tags)]


@_effects.register(events.PostsPublishedOnSchedule)
@_effects.register(events.TermChanged)
@_effects.register(events.MediaChanged)
def _(event) -> list:
    return [_Bump()]


@_effects.register
def _(event: events.UserChanged) -> list:
    # an author profile: posts show their author (the public API, Ghost's authors)
    return [_Bump()] if event.public else []


@_effects.register
def _(event: events.CompanyChanged) -> list:
    if event.change == "settings" and not event.public:
        return []
    if event.change in ("restored", "settings"):
        # settings: the Ghost-compatible replies show the company's name, addresses and time zone
        # (apps.ghost_api), cached at its content version like every public reply
        return [_Bump(schema=event.client.schema_name)]
    return [_Purge(event.client)] if event.change in _PURGING else []


@_effects.register
def _(event: events.IntegrationChanged) -> list:
    # an integration's Content API key that stopped working may have replies in the cache tier
    return [_Purge(event.client)] if event.content_key_changed else []


def handle(event: events.Event) -> None:
    for effect in _effects(event):
        if isinstance(effect, _Bump):
            content_version_bump(effect.schema, edge_tags=effect.tags)
        else:
            edge_purge_company(effect.client)


def summarise(batch: list[events.Event], scope: events.Batch) -> None:
    """One bump per company whose content changed (its whole cache purged); one purge of every
    other company whose replies went stale."""
    effects = [effect for event in batch for effect in _effects(event)]
    bumped = list(dict.fromkeys(effect.schema or connection.schema_name for effect in effects
                                if isinstance(effect, _Bump)))
    for schema in bumped:
        content_version_bump(schema)
    purged = {}
    for effect in effects:
        if isinstance(effect, _Purge) and effect.client.schema_name not in bumped:
            purged.setdefault(effect.client.pk, effect.client)
    for client in purged.values():
        edge_purge_company(client)
