"""Role permissions, in one place. Every app asks `can(user, capability)` or
`require(user, capability)`; nothing else compares role names. Each route declares the capability
it needs with `requires` (below), checked in one place before its handler runs.

viewer reads; author creates and edits own posts but cannot publish, and cannot change or delete
a post once it is published or scheduled; editor manages and publishes all content; admin does
everything, including users and company settings.
"""
from __future__ import annotations

import functools
import inspect

from django.db import models

from apps.core.errors import PermissionDenied


class Role(models.TextChoices):
    ADMIN = "admin", "Admin"
    EDITOR = "editor", "Editor"
    AUTHOR = "author", "Author"
    VIEWER = "viewer", "Viewer"


ADMIN, EDITOR, AUTHOR, VIEWER = Role.ADMIN, Role.EDITOR, Role.AUTHOR, Role.VIEWER
EVERYONE = frozenset(Role)

CAPABILITIES: dict[str, frozenset[str]] = {
    # content. The post.* capabilities are those of every content kind (apps.content.kinds): a page
    # is created, edited, published, reviewed and deleted with them, as a post is (no page.* here).
    "content.read": EVERYONE,
    "post.create": frozenset({ADMIN, EDITOR, AUTHOR}),
    "post.edit_own": frozenset({ADMIN, EDITOR, AUTHOR}),
    "post.edit_any": frozenset({ADMIN, EDITOR}),
    "post.publish": frozenset({ADMIN, EDITOR}),
    # changing or deleting a post that is live or waiting to go live (published, or scheduled by an
    # editor): an author's change would reach readers unreviewed
    "post.change_live": frozenset({ADMIN, EDITOR}),
    "post.delete_own": frozenset({ADMIN, EDITOR, AUTHOR}),
    "post.delete_any": frozenset({ADMIN, EDITOR}),
    # review: a writer asks for review of a draft; an editor publishes it or sends it back
    "post.request_review": frozenset({ADMIN, EDITOR, AUTHOR}),
    "post.review": frozenset({ADMIN, EDITOR}),
    # categories and tags: authors may add one while writing; changing or removing is editorial
    "taxonomy.create": frozenset({ADMIN, EDITOR, AUTHOR}),
    "taxonomy.manage": frozenset({ADMIN, EDITOR}),
    # media
    "media.upload": frozenset({ADMIN, EDITOR, AUTHOR}),
    "media.edit_own": frozenset({ADMIN, EDITOR, AUTHOR}),
    "media.manage": frozenset({ADMIN, EDITOR}),
    # AI writing
    "ai.generate": frozenset({ADMIN, EDITOR, AUTHOR}),
    # analytics and stats
    "analytics.read": EVERYONE,
    # administration
    "users.manage": frozenset({ADMIN}),
    "settings.manage": frozenset({ADMIN}),
    "company.delete": frozenset({ADMIN}),
    "audit.read": frozenset({ADMIN}),
    "usage.read": frozenset({ADMIN}),
    # integrations: outside tools' Content and Admin API keys (apps.integrations); an Admin API key
    # writes as an editor does, so only admins make, rotate or delete one
    "integrations.manage": frozenset({ADMIN}),
    # readers (apps.members) and newsletters (apps.newsletters): every role sees them; editors and
    # admins add, change, import, export and delete members, manage newsletters and send posts by email
    "members.read": EVERYONE,
    "members.manage": frozenset({ADMIN, EDITOR}),
    "newsletters.manage": frozenset({ADMIN, EDITOR}),
    "newsletters.send": frozenset({ADMIN, EDITOR}),
    # whether newsletter emails count their readers' opens and clicks: a company's choice about its
    # readers' privacy, made where its other settings are (apps.newsletters.tracking)
    "newsletters.tracking": frozenset({ADMIN}),
}

DEFAULT_DENIAL = "You don't have permission to perform this action"


def can(user, capability: str) -> bool:
    allowed = CAPABILITIES.get(capability)
    if allowed is None:
        raise KeyError(f"Unknown capability {capability!r}")
    return user is not None and getattr(user, "role", None) in allowed


def capabilities_of(user) -> list[str]:
    """Every capability the user has, in the table's order (sent to the dashboard by
    GET /api/auth/me, which shows or hides each control from it)."""
    role = getattr(user, "role", None)
    return [name for name, roles in CAPABILITIES.items() if role in roles]


def require(user, capability: str, message: str = DEFAULT_DENIAL) -> None:
    if not can(user, capability):
        raise PermissionDenied(message)


# --- what a route needs, declared on the route -----------------------------------------------------
# Every route of the dashboard and sign-up APIs states what it needs, just under its router decorator:
#
#     @router.post("/{post_id}/publish", response=PostSavedOut)
#     @requires("post.publish", CANNOT_PUBLISH)
#     def publish_post(request, post_id: str): ...
#
# A capability of the table is checked here, once, before the handler runs (after ninja has read and
# validated the request, as a check at the top of the handler was): 403 with the declared message.
# SIGNED_IN: any signed-in user of the company (their own account, what every role may do); PUBLIC: no
# credentials at all (the route also says `auth=None`, or its API has no auth). The route matrix
# (apps/core/tests/hardening/test_route_matrix.py) reads these declarations: a route without one fails it.
# Rules that depend on the object (an author's own draft, a user's own account) stay in the services.
PUBLIC = "public"
SIGNED_IN = "signed-in"
DECLARATION = "required_capability"  # the handler's attribute that holds its declaration


def requires(capability: str, message: str = DEFAULT_DENIAL):
    """Declare (and enforce) what a route needs: a capability of CAPABILITIES, SIGNED_IN or PUBLIC."""
    if capability not in CAPABILITIES and capability not in (PUBLIC, SIGNED_IN):
        raise KeyError(f"Unknown capability {capability!r}")

    def declare(handler):
        if capability in (PUBLIC, SIGNED_IN):  # authentication (or none) is all: nothing more to check
            setattr(handler, DECLARATION, capability)
            return handler

        @functools.wraps(handler)
        def checked(request, *args, **kwargs):
            require(request.auth, capability, message)
            return handler(request, *args, **kwargs)

        # ninja reads the parameters' types from the signature: resolved here, in the handler's module.
        checked.__signature__ = inspect.signature(handler, eval_str=True)
        setattr(checked, DECLARATION, capability)
        return checked

    return declare


def declared_capability(handler) -> str | None:
    return getattr(handler, DECLARATION, None)


def allowed_roles(declaration: str) -> frozenset[str]:
    """The roles a declaration lets through (PUBLIC and SIGNED_IN: every role)."""
    return EVERYONE if declaration in (PUBLIC, SIGNED_IN) else CAPABILITIES[declaration]
