"""An import's site settings and author profiles (docs/import-export.md#site-settings-and-author-profiles):
what a blog's file says of the site (a Ghost export's `settings` rows, a WordPress channel's title
and description) and of its authors (Ghost users' name, bio, website, location, images, Facebook
and X; WordPress display names) fills what the company and its users have not set yet. A value
the company has is kept (an admin's choice is never overwritten); a value that breaks the
product's rule (apps.site.rules) is left out; the report says what was set, kept and left out.

Images: one brought into the media library by the import (from a Ghost zip, or fetched when the
import fetches images) is used as that media item; else an http(s) address is kept as it is; a
path of the old site with no file is left out. Called by apps.portability.importer inside the
import's transaction and batch scope.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from django.db import connection

from apps.accounts.models import User
from apps.accounts.profiles import author_profile_fill
from apps.core import languages
from apps.core.validation import clean_url
from apps.media.models import Media
from apps.media.storage import MediaUrls
from apps.portability.parsers import Blog
from apps.site import rules
from apps.site.services import site_settings_fill
from tenants.models import Client

_ADDRESS = re.compile(r"^https?://", re.IGNORECASE)
_SETTING_NAMES = {"title": "title", "description": "description", "meta_title": "meta title",
                  "meta_description": "meta description", "logo": "logo", "icon": "icon", "cover_image": "cover image",
                  "accent_color": "accent color", "navigation": "navigation",
                  "secondary_navigation": "secondary navigation"}
_PROFILE_RULES = {
    "display_name": lambda value: rules.clean_text(value, name="Name", maximum=rules.DISPLAY_NAME_MAX),
    "bio": lambda value: rules.clean_text(value, name="Bio", maximum=rules.BIO_MAX),
    "location": lambda value: rules.clean_text(value, name="Location", maximum=rules.LOCATION_MAX),
    "website": lambda value: rules.clean_text(clean_url(value, rules.WEBSITE_MESSAGE), name="Website",
                                              maximum=rules.WEBSITE_MAX),
    "facebook": lambda value: rules.clean_social("facebook", value),
    "twitter": lambda value: rules.clean_social("twitter", value),
}


class _Images:
    """An image of the file as a media item (`image(address)`, the importer's) or its address."""

    def __init__(self, image: Callable[[str], Media | None], report) -> None:
        self.image, self.report, self._urls = image, report, None

    def media(self, address: str) -> Media | None:
        return self.image(address) if address else None

    def address(self, address: str, *, kind: str, item: str) -> str:
        """The absolute address of an image of a profile ("" when there is none to keep)."""
        media = self.media(address)
        if media is not None:
            self._urls = self._urls or MediaUrls.current()
            return self._urls.cdn(media.storage_key)
        if _ADDRESS.match(address):
            return address
        self.report.note(kind, item, "skipped", f"{address[:200]}: not an address, and not in the file")
        return ""

    def reference(self, address: str, *, kind: str, item: str) -> str:
        """A setting's image: the media id, else the address ("" when there is none to keep)."""
        media = self.media(address)
        if media is not None:
            return str(media.pk)
        if _ADDRESS.match(address):
            return address
        self.report.note(kind, item, "skipped", f"{address[:200]}: not an address, and not in the file")
        return ""


def site_import(*, blog: Blog, users: dict[str, User], image: Callable[[str], Media | None], report, actor) -> None:
    images = _Images(image, report)
    _settings(blog, images, report, actor)
    _profiles(blog, users, images, report, actor)


def _settings(blog: Blog, images: _Images, report, actor) -> None:
    given = dict(blog.settings)
    if not given:
        return
    client = Client.objects.get(schema_name=connection.schema_name)
    locale = given.pop("locale", "")
    values = {}
    for field in _SETTING_NAMES:
        value = given.get(field)
        if field in ("logo", "icon", "cover_image") and value:
            value = images.reference(str(value), kind="settings", item=_SETTING_NAMES[field])
        if value:
            values[field] = value
    social = {network: given[network] for network in ("facebook", "twitter") if given.get(network)}
    changed, refused = site_settings_fill(client=client, values=values, social=social, actor=actor)
    for field in changed:
        report.count("settings", "set")
        report.note("settings", _SETTING_NAMES.get(field, field.replace("social.", "")), "set", "from the file")
    for field, why in refused:
        report.count("settings", "skipped")
        report.note("settings", _SETTING_NAMES.get(field, field.replace("social.", "")), "skipped", why)
    kept = [field for field in [*values, *(f"social.{network}" for network in social)]
            if field not in changed and field not in dict(refused)]
    for field in kept:
        report.count("settings", "kept")
        report.note("settings", _SETTING_NAMES.get(field, field.replace("social.", "")), "kept",
                    "the company's own value is kept")
    code = languages.normalize(locale) if isinstance(locale, str) else None
    if code and code != languages.of_client(client).default:
        report.note("settings", "language", "kept", f"the file's language is {code}; the company's default "
                    f"language is {languages.of_client(client).default} (change it in Settings, Languages)")


def _profiles(blog: Blog, users: dict[str, User], images: _Images, report, actor) -> None:
    for author in blog.authors:
        user = users.get(author.source_id)
        if user is None or not author.profile:
            continue
        values = {}
        for field, value in author.profile.items():
            if field in ("profile_image", "cover_image"):
                value = images.address(value, kind="author", item=f"{user.username}: {field.replace('_', ' ')}")
            elif field in _PROFILE_RULES:
                try:
                    value = _PROFILE_RULES[field](value)
                except ValueError as exc:
                    report.note("author", user.username, "skipped", str(exc))
                    continue
            else:
                continue
            if field == "display_name" and value in {user.username, author.login}:
                continue  # the username again: nothing to add
            if value:
                values[field] = value
        # an address longer than a profile holds is left out
        values = {field: value for field, value in values.items()
                  if field not in ("profile_image", "cover_image") or len(value) <= rules.IMAGE_MAX}
        changed = author_profile_fill(user=user, values=values, actor=actor)
        if changed:
            report.count("profile", "set")
