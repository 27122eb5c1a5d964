"""What newsletters do after a write (a subscriber of apps.core.events): a post published (by the
scheduler, or by an editor) starts its sends that were waiting for it, in the publish's transaction
(their tasks are sent after the commit, through the outbox)."""
from __future__ import annotations

from apps.core import events
from apps.newsletters.services import sends_start_for_posts


def handle(event: events.Event) -> None:
    if isinstance(event, events.PostsPublishedOnSchedule):
        sends_start_for_posts([post.pk for post in event.posts])
    elif isinstance(event, events.PostChanged) and event.change == "published":
        sends_start_for_posts([event.post.pk])
