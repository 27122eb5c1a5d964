"""A company's blog as one zip (docs/import-export.md): `export.json`, in the shape of a Ghost 5
export (`db[0].meta`, `db[0].data.posts`, `tags`, `posts_tags`, `users`, `posts_authors`,
`posts_meta`, `roles`, `roles_users`, `settings`), so that Ghost's importer and ours read it, plus
what Ghost has no table for, in tables of their own that Ghost skips (`categories`,
`posts_categories`, `media`, `posts_cms`); and the media files under
`content/images/<media id>/<file name>`, the addresses the posts' HTML, featured and social images
point to. Users go without password hashes, two-factor secrets or recovery codes: name (the display
name, else the username), slug, email, role, status and their author profile. The site settings are
Ghost's `settings` rows (title, description, images, accent color, navigation, Facebook and X,
meta title and description, locale, time zone, url).

What Ghost's importer requires of each table (required fields, lengths, allowed values) is written
down as a JSON Schema, `apps/portability/schemas/ghost-import.schema.json`; the export is checked
against it by apps/portability/tests/test_export_ghost_format.py. A value longer than Ghost accepts
(`GHOST_LIMITS`: a post's title past 255 characters, an excerpt past 300...) is cut in Ghost's
tables, and kept whole in `posts_cms`, which our importer reads first."""
from __future__ import annotations

import io
import json
import posixpath
import re
import uuid
import zipfile
from datetime import datetime
from datetime import timezone as dt_timezone

from django.db import connection
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.profiles import author_name
from apps.content import kinds
from apps.content.models import Category, Post, Tag
from apps.core.email import company_of_connection
from apps.media import storage
from apps.media.models import Media
from apps.media.storage import MediaUrls
from apps.site.rules import ghost_handle, media_id_of
from apps.site.selectors import site_view
from tenants.models import Client

GHOST_VERSION = "5.0.0"  # the Ghost export format followed
IMAGE_ROOT = "content/images"
# The longest value Ghost's importer accepts per field (its schema's validations and column sizes):
# a longer one fails Ghost's validation and, with it, the whole import.
GHOST_LIMITS = {
    "posts": {"title": 255, "slug": 191, "custom_excerpt": 300},
    "posts_meta": {"meta_title": 300, "meta_description": 500, "og_title": 300, "og_description": 500,
                   "twitter_title": 300, "twitter_description": 500, "feature_image_alt": 191},
    "users": {"name": 191, "slug": 191},
    "tags": {"name": 191, "slug": 191},
}
# Our roles as Ghost's: Ghost never imports an Owner, and has no reader-only staff role.
GHOST_ROLES = {"admin": "Administrator", "editor": "Editor", "author": "Author", "viewer": "Contributor"}


def _fit(table: str, row: dict, whole: dict) -> dict:
    """`row` with every value cut to what Ghost accepts; what was cut goes whole into `whole`."""
    for name, limit in GHOST_LIMITS[table].items():
        value = row.get(name)
        if isinstance(value, str) and len(value) > limit:
            whole[name] = value
            row[name] = value[:limit].rstrip() if name != "slug" else value[:limit].rstrip("-")
    return row


def _iso(value: datetime | None) -> str | None:
    """Ghost's time format: UTC with milliseconds and a Z."""
    if value is None:
        return None
    return value.astimezone(dt_timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def image_path(media: Media) -> str:
    name = posixpath.basename(media.storage_key) or "image"
    return f"{IMAGE_ROOT}/{media.pk}/{name}"


def _ghost_status(post: Post) -> tuple[str, datetime | None]:
    if post.status == Post.Status.PUBLISHED:
        return "published", post.published_at
    if post.is_scheduled:
        return "scheduled", post.scheduled_publish_date
    return "draft", None


def _profile(user: User, by_address: dict[str, str]) -> dict:
    """A user's author profile in Ghost's users columns (an image of the library: its path in the zip)."""
    return {"bio": user.bio or None, "website": user.website or None, "location": user.location or None,
            "profile_image": by_address.get(user.profile_image, user.profile_image) or None,
            "cover_image": by_address.get(user.cover_image, user.cover_image) or None,
            "facebook": ghost_handle("facebook", user.facebook), "twitter": ghost_handle("twitter", user.twitter)}


def _settings(base_url: str, media_paths: dict) -> list[dict]:
    """The site settings as Ghost's `settings` rows (an image of the library: its path in the zip)."""
    view = site_view(Client.objects.get(schema_name=connection.schema_name))
    row = view.row

    def image(ref: str) -> str | None:
        media_id = media_id_of(ref)
        return (media_paths.get(uuid.UUID(media_id)) if media_id else ref) or None

    values = {
        "title": view.title, "description": row.description or None, "logo": image(row.logo), "icon": image(row.icon),
        "cover_image": image(row.cover_image), "accent_color": row.accent_color or None,
        "navigation": json.dumps(row.navigation or []),
        "secondary_navigation": json.dumps(row.secondary_navigation or []),
        "facebook": view.ghost_handle("facebook"), "twitter": view.ghost_handle("twitter"),
        "meta_title": row.meta_title or None, "meta_description": row.meta_description or None,
        "locale": view.language, "timezone": view.client.time_zone or "Etc/UTC", "url": base_url,
    }
    return [{"key": key, "value": value} for key, value in values.items()]


def blog_export() -> tuple[bytes, dict]:
    """The zip of the current company, and how many of each kind it holds."""
    media = list(Media.objects.order_by("uploaded_at", "id"))
    urls = MediaUrls.current()
    by_address: dict[str, str] = {}
    for item in media:
        path = "/" + image_path(item)
        by_address[urls.cdn(item.storage_key)] = path
        by_address[urls.link(item.storage_key)] = path
    pattern = re.compile("|".join(re.escape(address) for address in sorted(by_address, key=len, reverse=True))) \
        if by_address else None

    def local(html: str) -> str:
        return pattern.sub(lambda m: by_address[m.group(0)], html) if pattern and html else html

    media_paths = {item.pk: "/" + image_path(item) for item in media}
    posts = list(Post.objects.order_by("created_at", "id").prefetch_related("categories"))
    tags_of: dict = {}  # each post's tag ids in the post's order (its first is its primary tag)
    for post_id, tag_id in Post.tags.through.objects.order_by("id").values_list("post_id", "tag_id"):
        tags_of.setdefault(post_id, []).append(tag_id)
    data: dict[str, list] = {"posts": [], "posts_meta": [], "tags": [], "posts_tags": [], "users": [],
                             "posts_authors": [], "roles": [], "roles_users": [], "categories": [],
                             "posts_categories": [], "media": [], "posts_cms": [], "settings": []}
    for post in posts:
        status, published_at = _ghost_status(post)
        whole: dict[str, str] = {}
        data["posts"].append(_fit("posts", {
            "id": str(post.pk), "uuid": str(post.pk), "title": post.title, "slug": post.slug, "html": local(post.content),
            "mobiledoc": None, "lexical": None, "feature_image": media_paths.get(post.featured_image_id),
            # Ghost's type: post or page (apps.content.kinds)
            "type": post.kind, "status": status, "visibility": post.visibility, "custom_excerpt": post.excerpt or None,
            "featured": post.featured,
            "canonical_url": post.canonical_url or None, "created_at": _iso(post.created_at),
            "updated_at": _iso(post.updated_at), "published_at": _iso(published_at),
        }, whole))
        data["posts_meta"].append(_fit("posts_meta", {
            "id": str(post.pk), "post_id": str(post.pk), "meta_title": post.meta_title or None,
            "meta_description": post.meta_description or None, "og_title": post.og_title or None,
            "og_description": post.og_description or None, "og_image": media_paths.get(post.og_image_id),
            "twitter_title": post.twitter_title or None, "twitter_description": post.twitter_description or None,
            "twitter_image": media_paths.get(post.twitter_image_id),
            "feature_image_alt": (post.featured_image.alt_text or None) if post.featured_image_id else None,
            "focus_keyword": post.focus_keyword or None,
        }, whole))
        if whole:
            data["posts_cms"].append({"post_id": str(post.pk), **whole})
        for order, tag_id in enumerate(tags_of.get(post.pk, [])):
            data["posts_tags"].append({"id": f"{post.pk}-{tag_id}", "post_id": str(post.pk), "tag_id": str(tag_id),
                                       "sort_order": order})
        for order, category in enumerate(post.categories.all()):
            data["posts_categories"].append({"id": f"{post.pk}-{category.pk}", "post_id": str(post.pk),
                                             "category_id": str(category.pk), "sort_order": order})
        if post.author_id:
            data["posts_authors"].append({"id": f"{post.pk}-{post.author_id}", "post_id": str(post.pk),
                                          "author_id": str(post.author_id), "sort_order": 0})
    for tag in Tag.objects.order_by("name", "id"):
        data["tags"].append(_fit("tags", {"id": str(tag.pk), "name": tag.name, "slug": tag.slug, "description": None,
                                          "visibility": "public", "created_at": _iso(tag.created_at)}, {}))
    for category in Category.objects.order_by("name", "id"):
        data["categories"].append({"id": str(category.pk), "name": category.name, "slug": category.slug,
                                   "description": category.description or None})
    roles = {}
    for user in User.objects.order_by("created_at", "id"):
        # Never a password hash, two-factor secret or recovery code (Ghost gives imported staff a
        # random password and locks them until they reset it).
        data["users"].append(_fit("users", {
            "id": str(user.pk), "name": author_name(user.display_name, user.username), "slug": user.username.lower(),
            "email": user.email, "status": "active" if user.is_active else "inactive", "visibility": "public",
            "cms_role": user.role, "created_at": _iso(user.created_at), **_profile(user, by_address)}, {}))
        role = GHOST_ROLES.get(user.role, "Contributor")
        roles.setdefault(role, f"role-{role.lower()}")
        data["roles_users"].append({"id": f"{roles[role]}-{user.pk}", "role_id": roles[role], "user_id": str(user.pk)})
    data["roles"] = [{"id": role_id, "name": name} for name, role_id in roles.items()]
    for item in media:
        data["media"].append({"id": str(item.pk), "path": "/" + image_path(item), "file_name": item.file_name,
                              "file_type": item.file_type, "file_size": item.file_size, "alt_text": item.alt_text,
                              "width": item.width, "height": item.height})
    _, base_url = company_of_connection()
    data["settings"] = _settings(base_url, media_paths)
    document = {"db": [{"meta": {"exported_on": int(timezone.now().timestamp() * 1000), "version": GHOST_VERSION},
                        "data": data}]}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("export.json", json.dumps(document, ensure_ascii=False, indent=1))
        for item in media:
            archive.writestr(image_path(item), storage.read_bytes(item.storage_key), compress_type=zipfile.ZIP_STORED)
    pages = sum(1 for post in posts if post.kind == kinds.PAGE.name)
    counts = {"posts": len(posts) - pages, "pages": pages, "tags": len(data["tags"]),
              "categories": len(data["categories"]),
              "users": len(data["users"]), "media": len(media)}
    return out.getvalue(), counts
