"""The index of scheduled publishing (apps.core.due, kind `content.publish`): when each company's
next scheduled post is due, so that beat enters only the schemas of companies with a post due.

- A subscriber of apps.core.events: a post created or changed as scheduled (a draft waiting for its
  date) lowers its company's row to the post's date, in the writing transaction. Unscheduling,
  publishing or deleting leave the row as it is (earlier than needed is harmless).
- `schedule_settle()`, in the company's schema after its due posts were published, moves the row
  to the next scheduled post's date (or empties it), unless a write changed the row meanwhile.
- The hourly sweep (apps.content.tasks.publish_sweep) publishes and settles in every company: a
  row lost or never written (a restore, rows written without the services) is repaired there."""
from __future__ import annotations

from functools import singledispatch

from django.db.models import Min

from apps.content.models import Post
from apps.core import due, events
from apps.plans.rules import current_company

KIND = "content.publish"


def schedule_note(at) -> None:
    """A post of the connection's company is scheduled at `at`."""
    company = current_company()
    if company is not None and at is not None:
        due.due_lower(company_id=company.pk, kind=KIND, at=at)


def next_scheduled():
    """The date of the company's next scheduled post (None: none is scheduled)."""
    return (Post.objects.filter(publish_scheduled=True, status=Post.Status.DRAFT)
            .aggregate(next=Min("scheduled_publish_date"))["next"])


def schedule_settle() -> bool:
    """After publishing in the connection's company: its row says when its next post is due."""
    company = current_company()
    if company is None:
        return False
    read = due.due_read(company_id=company.pk, kind=KIND)
    return due.due_settle(company_id=company.pk, kind=KIND, read=read, next_at=next_scheduled())


def _scheduled_at(event) -> object | None:
    if isinstance(event, events.PostChanged) and event.after is not None and event.after.scheduled:
        return event.post.scheduled_publish_date
    return None


@singledispatch
def handle(event) -> None:
    pass


@handle.register
def _(event: events.PostChanged) -> None:
    schedule_note(_scheduled_at(event))


def summarise(batch_events, scope) -> None:
    """A bulk write (an import): the earliest date it scheduled, once."""
    dates = [at for at in map(_scheduled_at, batch_events) if at is not None]
    if dates:
        schedule_note(min(dates))
