"""Ghost's tags, users, images and site on the Admin API (docs/publishing-from-tools.md).

- tags: the company's categories and tags as the Content API shows them (one Ghost tag per slug,
  the category's when both have it); a new tag is a tag (`description` is kept by categories only);
  an edit or delete goes to the category or tag the id names, through the term services (a tag
  still used by posts is not deleted: 409);
- users: the staff, read-only, as Ghost's users resource shows them (name, slug, email, profile,
  status, roles): never a password, two-factor key, token or sign-in detail;
- images/upload: a file of the media library, with its checks (type, size, pixels, the plan's
  storage), answered with its address;
- site: the site's title, description, logo, icon, accent color, address and Ghost's version.
"""
from __future__ import annotations

import hashlib

from pydantic import ValidationError as SchemaError

from apps.accounts.models import User
from apps.accounts.profiles import author_name
from apps.content import services as content
from apps.content.models import Category, Tag
from apps.content.schemas import CategoryUpdateIn, TagIn, TagUpdateIn
from apps.core.permissions import require
from apps.ghost_api import ids, shapes
from apps.ghost_api.admin.posts import invalid, staff
from apps.ghost_api.errors import GhostError
from apps.media.services import media_upload
from apps.media.storage import MediaUrls

GHOST_ROLES = {"admin": "Administrator", "editor": "Editor", "author": "Author", "viewer": "Contributor"}
GHOST_USER_STATUS = {"active": "active", "inactive": "inactive", "suspended": "locked"}
SITE_VERSION = "5.0"


def _schema_error(exc: SchemaError, prop: str) -> GhostError:
    return invalid(exc.errors()[0]["msg"].removeprefix("Value error, "), prop)


# --- tags ----------------------------------------------------------------------------------------
def term_of(ghost_id: str):
    """The category, else the tag, whose Ghost id this is (None: neither)."""
    for model in (Category, Tag):
        found = model.objects.filter(ids.id_q(ghost_id)).first()
        if found is not None:
            return found
    return None


def tag_create(data, actor) -> str:
    """A new tag (Ghost's `{name, slug?}`); returns its slug."""
    if not isinstance(data, dict):
        raise invalid("Each of tags is an object", "tags")
    require(actor, "taxonomy.create", "This integration may not create tags")
    name = data.get("name") if isinstance(data.get("name"), str) else ""
    try:
        wanted = TagIn.model_validate({"name": name, "slug": data.get("slug") or name})
    except SchemaError as exc:
        raise _schema_error(exc, "tags") from None
    if Category.objects.filter(slug=wanted.slug).exists():  # one Ghost tag per slug
        raise GhostError(409, content.TAG_SLUG_TAKEN, prop="slug")
    return content.tag_create(name=wanted.name, slug=wanted.slug, actor=actor).slug


def tag_edit(term, data, actor) -> str:
    if not isinstance(data, dict):
        raise invalid("Each of tags is an object", "tags")
    require(actor, "taxonomy.manage", "This integration may not change tags")
    fields = {key: data[key] for key in ("name", "slug", "description") if data.get(key) is not None}
    try:
        if isinstance(term, Category):
            wanted = CategoryUpdateIn.model_validate(fields)
            term = content.category_update(category=term, name=wanted.name, slug=wanted.slug,
                                           description=wanted.description, actor=actor)
        else:
            wanted = TagUpdateIn.model_validate({key: value for key, value in fields.items() if key != "description"})
            term = content.tag_update(tag=term, name=wanted.name, slug=wanted.slug, actor=actor)
    except SchemaError as exc:
        raise _schema_error(exc, "tags") from None
    return term.slug


def tag_delete(term, actor) -> None:
    require(actor, "taxonomy.manage", "This integration may not delete tags")
    if isinstance(term, Category):
        content.category_delete(category=term, actor=actor)
    else:
        content.tag_delete(tag=term, actor=actor)


# --- users ---------------------------------------------------------------------------------------
def _role(role: str) -> dict:
    name = GHOST_ROLES.get(role, "Contributor")
    return {"id": hashlib.sha256(f"role:{role}".encode()).hexdigest()[:24], "name": name,
            "description": f"{name}s of the company", "created_at": None, "updated_at": None}


def user_out(found, site: shapes.Site, *, with_count: bool) -> dict:
    """A member of the staff as Ghost's user: the author profile, email, status and role."""
    user: User = found.user
    data = {
        **shapes.author(found, site, with_count=with_count),
        "name": author_name(user.display_name, user.username), "email": user.email,
        "accessibility": None, "status": GHOST_USER_STATUS.get(user.status, "inactive"), "tour": None,
        "last_seen": shapes.ghost_time(user.last_login), "comment_notifications": False,
        "free_member_signup_notification": False, "paid_subscription_started_notification": False,
        "paid_subscription_canceled_notification": False, "mention_notifications": False,
        "recommendation_notifications": False, "milestone_notifications": False, "donation_notifications": False,
        "created_at": shapes.ghost_time(user.created_at), "updated_at": shapes.ghost_time(user.updated_at),
        "roles": [_role(user.role)],
    }
    return data


def users(*, with_counts: bool) -> list:
    return staff(with_counts=with_counts)


# --- images --------------------------------------------------------------------------------------
def image_upload(files, form, actor) -> dict:
    uploaded = files.get("file")
    if uploaded is None:
        raise invalid("Please select an image.", "file")
    require(actor, "media.upload", "This integration may not upload images")
    media = media_upload(uploaded_file=uploaded, file_name=uploaded.name, alt_text="", uploaded_by=None,
                         actor=actor)
    ref = form.get("ref")
    return {"url": MediaUrls.current().cdn(media.storage_key), "ref": ref if ref else None}


# --- site ----------------------------------------------------------------------------------------
def site_out(client, site: shapes.Site) -> dict:
    settings = shapes.settings(client, site)
    return {"title": settings["title"], "description": settings["description"], "logo": settings["logo"],
            "icon": settings["icon"], "cover_image": settings["cover_image"],
            "accent_color": settings["accent_color"], "locale": settings["locale"], "url": settings["url"],
            "version": SITE_VERSION, "allow_external_signup": False}
