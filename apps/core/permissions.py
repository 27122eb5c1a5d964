"""Role permissions, in one place. Every app asks `can(user, capability)` or
`require(user, capability)`; nothing else compares role names.

viewer reads; author creates and edits own posts but cannot publish, and cannot change or delete
a post once it is published or scheduled; editor manages and publishes all content; admin does
everything, including users and company settings.
"""
from __future__ import annotations

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
    # content
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
