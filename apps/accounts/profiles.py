"""Author profiles (docs/accounts.md#author-profile): what readers see of a staff member who writes,
kept on the user (apps.accounts.models.User): a display name, a bio, a profile and a cover image,
a website, a location, Facebook and X (Twitter) accounts.

- Edited by the person on their account page and by admins on user management (`users.manage`),
  never by another author or editor (`author_profile_update`).
- Images are stored as absolute addresses: a media item of the library given by its id is stored
  as its address (a post's author is served on every post of every list, with no lookup). The
  rules of every value are apps.site.rules.
- Served on the public API's posts (`author`, `author_fields`: the one shape both builders of a
  post's JSON use) and by the Ghost-compatible API's authors (apps.ghost_api.shapes.author).
- A change is a UserChanged event marked `public`: the company's content version moves on, so the
  public replies that show the author are built again.
"""
from __future__ import annotations

from django.db import transaction

from apps.accounts.models import User
from apps.core import events
from apps.core.errors import PermissionDenied, ValidationFailed
from apps.core.permissions import can
from apps.site.rules import media_id_of
from apps.site.selectors import image_addresses

PROFILE_FIELDS = ("display_name", "bio", "profile_image", "cover_image", "website", "location", "facebook", "twitter")
CANNOT_EDIT_PROFILE = "You can only edit your own profile"
_WIRE = {"display_name": "displayName", "profile_image": "profileImage", "cover_image": "coverImage"}
_NAMES = {"display_name": "name", "profile_image": "profile image", "cover_image": "cover image"}


def author_name(display_name: str, username: str) -> str:
    """The name readers see: the display name, else the username."""
    return display_name or username


def author_fields(*, id, username: str, display_name: str = "", bio: str = "", profile_image: str = "",
                  cover_image: str = "", website: str = "", location: str = "", facebook: str = "",
                  twitter: str = "") -> dict:
    """A post's `author` in the public API and the dashboard (apps.content.post_schemas.AuthorOut), from
    a user or from a row's columns (apps.public_api.selectors): `id` and `username` first, as they
    always were, then the profile."""
    return {"id": str(id), "username": username, "name": author_name(display_name, username), "bio": bio or "",
            "profileImage": profile_image or None, "coverImage": cover_image or None, "website": website or "",
            "location": location or "", "facebook": facebook or "", "twitter": twitter or ""}


def author_fields_of(user: User) -> dict:
    return author_fields(id=user.id, username=user.username,
                         **{field: getattr(user, field) for field in PROFILE_FIELDS})


def profile_of(user: User) -> dict:
    """`profile` of GET/PUT /api/users/{id}/profile (apps.accounts.schemas.AuthorProfileOut)."""
    return {"name": author_name(user.display_name, user.username), "displayName": user.display_name, "bio": user.bio,
            "profileImage": user.profile_image, "coverImage": user.cover_image, "website": user.website,
            "location": user.location, "facebook": user.facebook, "twitter": user.twitter}


def check_can_edit_profile(actor: User, user: User) -> None:
    if actor.pk != user.pk and not can(actor, "users.manage"):
        raise PermissionDenied(CANNOT_EDIT_PROFILE)


def _addresses(values: dict) -> dict:
    """The images given as media ids, as their addresses (400 naming the field when the id is not
    an image of the library)."""
    refs = {field: values[field] for field in ("profile_image", "cover_image") if values.get(field)}
    found = image_addresses(refs.values())
    errors = [{"field": _WIRE[field], "message": f"{_NAMES[field].capitalize()}: no such image in the media library"}
              for field, ref in refs.items() if media_id_of(ref) and found.get(ref) is None]
    if errors:
        raise ValidationFailed(errors[0]["message"], errors=errors)
    return {**values, **{field: found[ref] for field, ref in refs.items()}}


@transaction.atomic
def author_profile_update(*, actor: User, user: User, **values) -> User:
    """Values cleaned by apps.site.rules (the schema's types); None leaves one as it is, "" clears it."""
    unknown = set(values) - set(PROFILE_FIELDS)
    if unknown:
        raise TypeError(f"unknown profile fields: {', '.join(sorted(unknown))}")
    check_can_edit_profile(actor, user)
    values = _addresses({field: value for field, value in values.items() if value is not None})
    locked = User.objects.select_for_update().get(pk=user.pk)
    changed = [field for field, value in values.items() if getattr(locked, field) != value]
    if changed:
        for field in changed:
            setattr(locked, field, values[field])
        locked.save(update_fields=[*changed, "updated_at"])
        events.publish(events.UserChanged(
            user=locked, change="updated", actor=actor, public=True,
            summary=f"{locked.username}: profile ({', '.join(_NAMES.get(field, field) for field in changed)})"))
    return locked


def author_profile_fill(*, user: User, values: dict, actor=None) -> list[str]:
    """An import's profile (values cleaned by the importer): each set where the user has none yet.
    Returns the fields set."""
    changed = [field for field, value in values.items()
               if field in PROFILE_FIELDS and value and not getattr(user, field)]
    if changed:
        for field in changed:
            setattr(user, field, values[field])
        user.save(update_fields=[*changed, "updated_at"])
        events.publish(events.UserChanged(
            user=user, change="updated", actor=actor, public=True,
            summary=f"{user.username}: profile ({', '.join(_NAMES.get(field, field) for field in changed)}, imported)"))
    return changed
