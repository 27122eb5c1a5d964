"""Post revisions (a subscriber of apps.core.events): every save of a post leaves one, numbered
after the last, in the transaction of the save (the post's row is locked or new). It has no batch
summary: an imported post keeps its history like any other."""
from __future__ import annotations

from functools import singledispatch

from apps.content.models import PostRevision
from apps.content.services import revision_record
from apps.core import events

_ACTIONS = {"created": PostRevision.Action.CREATE, "published": PostRevision.Action.PUBLISH,
            "unpublished": PostRevision.Action.UNPUBLISH, "scheduled": PostRevision.Action.SCHEDULE,
            "updated": PostRevision.Action.UPDATE}


@singledispatch
def handle(event) -> None:
    pass


@handle.register
def _(event: events.PostChanged) -> None:
    if event.after is None or event.revision_written:  # deleted: its revisions went with it
        return
    action = PostRevision.Action.RESTORE if event.restored else _ACTIONS[event.change]
    revision_record(post=event.post, actor=event.actor, action=action)


@handle.register
def _(event: events.PostsPublishedOnSchedule) -> None:
    for post in event.posts:
        revision_record(post=post, actor=None, action=PostRevision.Action.SCHEDULED_PUBLISH)
