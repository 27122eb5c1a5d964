"""The webhook events of each domain event (a subscriber of apps.core.events), emitted through
`event_emit` in the transaction of the change. A batch scope emits one `batch.completed` event with
its summary and how many events of each kind it stands for (none of them is sent on its own)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

from apps.content import kinds
from apps.core import events
from apps.core.languages import current as current_languages
from apps.webhooks.models import BATCH_EVENT, EVENTS
from apps.webhooks.services import event_emit


@dataclass(frozen=True)
class Emission:
    """The arguments of one event_emit call: the object by id (read after the commit), or `data`
    (what identified an object that is gone)."""

    event: str
    object_id: Any = None
    data: dict | None = None

    def kwargs(self) -> dict:
        return {"object_id": self.object_id} if self.data is None else {"data": self.data}


@singledispatch
def emissions(event) -> list[Emission]:
    return []


@emissions.register
def _(event: events.PostChanged) -> list[Emission]:
    """`post.*` events of a post, `page.*` of a page (apps.content.kinds)."""
    post, change = event.post, event.change
    kind = kinds.of(post.kind)
    if change == "created":
        after = event.after
        name = kind.event("published") if after.public else kind.event("scheduled") if after.scheduled else None
        return [Emission(name, post.pk)] if name else []
    if change == "deleted":  # the website had it only when it was published
        return [Emission(kind.event("deleted"), data=_deleted(post))] if event.before.public else []
    if change == "updated" and not event.after.public:  # an edit of a draft is not news to the website
        return []
    return [Emission(kind.event(change), post.pk)]


def _deleted(post) -> dict:
    """What identified a deleted post: its id and slug, and its locale in a company of several languages."""
    data = {"id": str(post.pk), "slug": post.slug}
    if not current_languages().single:
        data["locale"] = post.language
    return data


@emissions.register
def _(event: events.PostsPublishedOnSchedule) -> list[Emission]:
    return [Emission(kinds.of(post.kind).event("published"), post.pk) for post in event.posts]


@emissions.register
def _(event: events.TermChanged) -> list[Emission]:
    return [Emission(f"{event.kind}.{event.change}", event.term_id, event.gone)]


@emissions.register
def _(event: events.MediaChanged) -> list[Emission]:
    if event.change == "deleted":
        return [Emission("media.deleted", data={"id": str(event.media_id), "fileName": event.file_name})]
    return [Emission(f"media.{event.change}", event.media_id)] if event.change in ("created", "updated") else []


def handle(event: events.Event) -> None:
    for emission in emissions(event):
        event_emit(event=emission.event, **emission.kwargs())


def summarise(batch: list[events.Event], scope: events.Batch) -> None:
    counts = Counter(emission.event for event in batch for emission in emissions(event))
    if not counts:
        return
    ordered = {name: counts[name] for name in EVENTS if name in counts}  # the catalogue's order
    event_emit(event=scope.webhook_event or BATCH_EVENT,
               data={"summary": scope.summary, "counts": ordered, "total": sum(counts.values())})
