"""What follows a write (docs/events.md). A service does its write, then describes what happened as
one domain event and `publish`es it; the subscribers, each in its own app, do the rest: the audit
log (apps.audit), webhooks (apps.webhooks), the content version and the cache tier's purges
(apps.core.subscribers), post revisions (apps.content). A service never imports them.

- Subscribers are called at once, inside the writing transaction, in the order their apps are
  installed: what they write (an audit row, an outbox row) commits or rolls back with the change,
  and what leaves the system goes through the functions that act after the commit (`event_emit`,
  `content_version_bump`, `edge_purge_*`, `email_queue`). An exception of a subscriber is the
  service's: the change rolls back.
- A subscriber is a module named by its dotted path (`subscribe` in its AppConfig.ready). It is
  imported at the first publish, so a process that never writes (the public API's pool) never
  loads it. It has `handle(event)`, called for every event (it ignores the kinds it has no use
  for), and may have `summarise(events, scope)`.
- `batch(summary=...)` is the scope of a bulk operation (an import, a bulk action). Inside it, the
  events go to each subscriber's `summarise` once, when the scope ends (still inside the
  transaction, which the scope opens): one audit entry, one `batch.completed` webhook, one content
  version bump. A subscriber without `summarise` (revisions: every post keeps its history) is
  called for each event at once, as outside a scope. An event whose savepoint was rolled back
  inside the scope (an import's refused row) is left out of the summaries.
"""
from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.db import connection, transaction


# --- the events ------------------------------------------------------------------------------------
class Event:
    """What happened, told once by the service that did it. `actor`: who did it (None: nobody of
    the company: the scheduler, an operator's command, a sign-up)."""

    actor: Any = None


@dataclass(frozen=True, kw_only=True)
class PostState:
    """What readers could see of a post at one moment."""

    public: bool  # published: the public API serves it
    scheduled: bool  # a draft waiting for its publication date


@dataclass(frozen=True, kw_only=True)
class PostChanged(Event):
    """A post was created (`before` None), changed, or deleted (`after` None)."""

    post: Any
    before: PostState | None
    after: PostState | None
    actor: Any = None
    restored: bool = False  # the change put back one of its revisions
    terms_changed: bool = False  # a public post's categories or tags changed: it moved in the lists
    # A public post moved to another language (it left one language's lists for another's), or
    # changed the slug that the `translations` of its group's other posts name (docs/translations.md),
    # or was featured or no longer (it joined or left the `?featured=` lists).
    moved: bool = False
    # Its revision was written by the service itself, with others in one statement (an import:
    # apps.content.services.revisions_record_created); the revisions subscriber leaves it.
    revision_written: bool = False

    @property
    def change(self) -> str:
        """created, deleted, published, unpublished, scheduled or updated."""
        before, after = self.before, self.after
        if before is None:
            return "created"
        if after is None:
            return "deleted"
        if after.public and not before.public:
            return "published"
        if before.public and not after.public:
            return "unpublished"
        if after.scheduled and not before.scheduled:
            return "scheduled"
        return "updated"


@dataclass(frozen=True, kw_only=True)
class PostsPublishedOnSchedule(Event):
    """The scheduler published these posts, whose date had come (one run, one transaction)."""

    posts: tuple


@dataclass(frozen=True, kw_only=True)
class PostReviewChanged(Event):
    """A writer asked for a review of a draft (`requested`), or an editor sent it back with `note`."""

    post: Any
    actor: Any
    requested: bool
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class TermChanged(Event):
    """A category or tag (`kind`) was created, updated or deleted (`change`)."""

    kind: str
    change: str
    term_id: Any
    name: str
    actor: Any = None
    gone: dict | None = None  # what identified a deleted term: id, name, slug


@dataclass(frozen=True, kw_only=True)
class MediaChanged(Event):
    """A media item was created, updated or deleted, or its renditions were made (`change`)."""

    media_id: Any
    file_name: str
    change: str
    actor: Any = None
    fields: tuple[str, ...] = ()  # what an update changed, for people ("alt text")


@dataclass(frozen=True, kw_only=True)
class UserChanged(Event):
    """A user was created, changed or deleted, or changed their two-factor sign-in (`change`:
    created, updated, role_changed, status_changed, deleted, two_factor_enabled, two_factor_disabled,
    two_factor_reset, recovery_codes_regenerated)."""

    user: Any
    change: str
    actor: Any = None
    summary: str = ""  # what changed, for people: "sam: author -> editor"
    # What readers see of the user changed (their author profile: apps.accounts.profiles), so the
    # public replies that show them are stale.
    public: bool = False


@dataclass(frozen=True, kw_only=True)
class SignInAttempted(Event):
    """A sign-in succeeded (`outcome` login) or failed (login_failed, two_factor_failed). `user`: the
    account the address typed names (None: no account has it)."""

    user: Any
    outcome: str
    summary: str

    @property
    def actor(self):
        return self.user if self.outcome == "login" else None


@dataclass(frozen=True, kw_only=True)
class CompanyChanged(Event):
    """The company's settings or keys changed, its status changed, its deletion was asked for, it
    was deleted or restored from a backup (`change`: settings, keys, status, deletion_requested,
    deleted, restored). `public`: a settings change that public replies show (its name, addresses,
    languages); False for one they never show (two-factor policy, newsletters' tracking), which
    leaves the company's cached replies as they are."""

    client: Any
    change: str
    actor: Any = None
    summary: str = ""
    public: bool = True


@dataclass(frozen=True, kw_only=True)
class IntegrationChanged(Event):
    """An integration of the company (apps.integrations) was created, had keys rotated or was deleted
    (`change`: created, rotated, deleted). `content_key_changed`: a Content API key stopped working
    (the company's cached public replies are purged)."""

    client: Any
    integration_id: Any
    name: str
    change: str
    actor: Any = None
    summary: str = ""
    content_key_changed: bool = False


@dataclass(frozen=True, kw_only=True)
class SupportAccessChanged(Event):
    """A company admin granted or revoked support access (`change`: granted, revoked; `actor`: the
    admin), or an operator's support session as a user started or ended (started, ended; `actor`:
    the user signed in as, `operator`: the operator's email)."""

    change: str
    actor: Any = None
    operator: str = ""
    summary: str = ""


# --- subscribers -----------------------------------------------------------------------------------
_subscribers: list[str] = []  # dotted paths of modules, in the order they subscribed
_loaded: list[Any] | None = None


def subscribe(module: str) -> None:
    """Subscribe the module at this dotted path (idempotent). Call it from the AppConfig.ready of
    the module's app, so subscribers follow the order of INSTALLED_APPS."""
    global _loaded
    if module not in _subscribers:
        _subscribers.append(module)
        _loaded = None


def subscribers() -> list[Any]:
    """The subscribed modules, imported on first use."""
    global _loaded
    if _loaded is None:
        _loaded = [import_module(path) for path in _subscribers]
    return _loaded


# --- publishing ------------------------------------------------------------------------------------
@dataclass(eq=False)
class Batch:
    """The scope of a bulk operation (`batch`): what its events come to, per subscriber."""

    summary: str
    actor: Any = None
    schema: str = ""
    webhook_event: str = ""  # the name of its one webhook event (default: batch.completed)
    _savepoints: frozenset = frozenset()
    _events: list[tuple[Event, Any]] = field(default_factory=list)

    def add(self, event: Event) -> None:
        marker = None
        if set(connection.savepoint_ids) - self._savepoints:
            # Published in a savepoint of the scope: kept only if that savepoint is not rolled back.
            # Django drops the on-commit callbacks of a rolled-back savepoint; a no-op one marks it.
            marker = _Marker()
            transaction.on_commit(marker)
        self._events.append((event, marker))

    def events(self) -> list[Event]:
        """The events of the scope that still stand (none of a rolled-back savepoint)."""
        kept = {id(entry[1]) for entry in connection.run_on_commit}
        return [event for event, marker in self._events if marker is None or id(marker) in kept]

    def common_actor(self, events: list[Event]):
        """`actor` when the scope was given one, else the one actor of all its events (or None)."""
        if self.actor is not None:
            return self.actor
        actors = {getattr(event.actor, "pk", None) for event in events}
        return events[0].actor if len(actors) == 1 and None not in actors else None


class _Marker:
    def __call__(self) -> None:
        pass


_scope: contextvars.ContextVar[Batch | None] = contextvars.ContextVar("events_batch", default=None)


def publish(event: Event) -> None:
    """Tell the subscribers what happened. Call it inside the service's transaction, after the
    write: each subscriber acts now (in a batch scope: at its end, once)."""
    scope = _scope.get()
    if scope is not None:
        if connection.schema_name != scope.schema:
            raise RuntimeError("A batch scope is for one company: an event of another schema was published in it")
        scope.add(event)
    for module in subscribers():
        if scope is None or not hasattr(module, "summarise"):
            module.handle(event)


@contextmanager
def batch(*, summary: str, actor=None, webhook_event: str = "") -> Iterator[Batch]:
    """One summary per subscriber for everything published inside (docs/events.md). Opens a
    transaction (a savepoint inside one): the changes and their summaries commit together, or not
    at all. A scope inside a scope is part of the outer one. `webhook_event`: what its one webhook
    event is called (an import's `import.completed`; default `batch.completed`)."""
    outer = _scope.get()
    if outer is not None:
        yield outer
        return
    with transaction.atomic():
        scope = Batch(summary=summary, actor=actor, schema=connection.schema_name, webhook_event=webhook_event,
                      _savepoints=frozenset(connection.savepoint_ids))
        token = _scope.set(scope)
        try:
            yield scope
        finally:
            _scope.reset(token)
        events = scope.events()
        if events:
            for module in subscribers():
                if hasattr(module, "summarise"):
                    module.summarise(events, scope)
