"""The audit log's entries of each event (a subscriber of apps.core.events), written in the
transaction of the change they name. A batch scope writes one entry, `batch.completed`, with its
summary and how many entries of each action it stands for.

What a person of the company did is logged, and what the scheduler did; a user created without an
actor (a sign-up's first admin, an operator's command) and an operator's change of the company
are not. A company's entries go to its own log, wherever the change was made from."""
from __future__ import annotations

from collections import Counter
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from functools import singledispatch
from typing import Any

from django.db import connection
from django_tenants.utils import schema_context

from apps.audit.services import audit_record, support_actor_name
from apps.content import kinds
from apps.core import events

BATCH_ACTION = "batch.completed"
_COMPANY_ACTIONS = {"settings": "settings.updated", "keys": "api_key.rotated",
                    "deletion_requested": "company.deletion_requested"}


@dataclass(frozen=True)
class Entry:
    """The arguments of one audit_record call."""

    action: str
    actor: Any = None
    object_type: str = ""
    object_id: Any = None
    summary: str = ""
    actor_name: str | None = None


@singledispatch
def entries(event) -> list[Entry]:
    return []


@entries.register
def _(event: events.PostChanged) -> list[Entry]:
    """`post.*` entries of a post, `page.*` of a page (apps.content.kinds)."""
    change = event.change
    post = event.post
    kind = kinds.of(post.kind)
    if change == "created":
        after = event.after
        actions = ["created", *(["published"] if after.public else ["scheduled"] if after.scheduled else [])]
    else:
        actions = ["restored" if event.restored else change]
    return [Entry(kind.event(action), event.actor, kind.name, post.pk, post.title) for action in actions]


@entries.register
def _(event: events.PostsPublishedOnSchedule) -> list[Entry]:
    return [Entry(kinds.of(post.kind).event("published"), None, post.kind, post.pk, f"{post.title} (on schedule)")
            for post in event.posts]


@entries.register
def _(event: events.PostReviewChanged) -> list[Entry]:
    post = event.post
    kind = kinds.of(post.kind)
    if event.requested:
        return [Entry(kind.event("review_requested"), event.actor, kind.name, post.pk, post.title)]
    return [Entry(kind.event("review_returned"), event.actor, kind.name, post.pk, f"{post.title}: {event.note}")]


@entries.register
def _(event: events.TermChanged) -> list[Entry]:
    return [Entry(f"{event.kind}.{event.change}", event.actor, event.kind, event.term_id, event.name)]


@entries.register
def _(event: events.MediaChanged) -> list[Entry]:
    if event.change not in ("created", "updated", "deleted"):
        return []
    summary = f"{event.file_name}: {', '.join(event.fields)}" if event.fields else event.file_name
    return [Entry(f"media.{event.change}", event.actor, "media", event.media_id, summary)]


@entries.register
def _(event: events.UserChanged) -> list[Entry]:
    if event.change == "created" and event.actor is None:
        return []
    return [Entry(f"user.{event.change}", event.actor, "user", event.user.pk, event.summary)]


@entries.register
def _(event: events.SignInAttempted) -> list[Entry]:
    user = event.user
    if event.outcome == "login":
        return [Entry("auth.login", user, "user", user.pk, event.summary)]
    return [Entry(f"auth.{event.outcome}", None, "user" if user else "", user.pk if user else None, event.summary,
                  actor_name=user.username if user else "")]


@entries.register
def _(event: events.CompanyChanged) -> list[Entry]:
    action = _COMPANY_ACTIONS.get(event.change)
    if action is None or event.actor is None:
        return []
    return [Entry(action, event.actor, "company", event.client.pk, event.summary)]


@entries.register
def _(event: events.IntegrationChanged) -> list[Entry]:
    summary = f"{event.name}: {event.summary}" if event.summary else event.name
    return [Entry(f"integration.{event.change}", event.actor, "integration", event.integration_id, summary)]


@entries.register
def _(event: events.SupportAccessChanged) -> list[Entry]:
    actor = event.actor
    name = support_actor_name(event.operator, actor.username) if event.operator and actor is not None else None
    return [Entry(f"support.{event.change}", actor, "company", None, event.summary, actor_name=name)]


def _schema(event) -> str:
    """The log an event goes to: the one of the company it names, else the connection's."""
    client = getattr(event, "client", None)
    return client.schema_name if client is not None else connection.schema_name


def handle(event: events.Event) -> None:
    found = entries(event)
    if not found:
        return
    schema = _schema(event)
    with nullcontext() if schema == connection.schema_name else schema_context(schema):
        for entry in found:
            audit_record(**asdict(entry))


def summarise(batch: list[events.Event], scope: events.Batch) -> None:
    counts = Counter(entry.action for event in batch for entry in entries(event))
    if not counts:
        return
    listed = ", ".join(f"{count} {action}" for action, count in counts.items())
    audit_record(action=BATCH_ACTION, actor=scope.common_actor(batch), summary=f"{scope.summary} ({listed})")
