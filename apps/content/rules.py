"""What each field of a post may hold: one rule per field, whoever writes it.

The dashboard API's input schemas (apps.content.schemas) are built from these rules, and the content
services apply them again to whatever they are given (`post_values`), so an import, a translation,
a machine-made draft or any later writer cannot store a value the editor would refuse: a
`javascript:` canonical URL, a 600-character title, a video id that is not one. What a *new* post
must have (the editor's required excerpt and featured image, say) is the entry point's form, not a
rule of the value: an import may bring a post without an excerpt, never one with a bad address.

Outside files (imports) are repaired rather than refused, item by item (`post_values_repaired`):
a value that breaks its rule is cut to its length or left out, and the importer reports each one.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timezone as dt_timezone
from typing import Any
from urllib.parse import parse_qs, urlparse

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from apps.content.models import MEMBERS_VISIBILITY, POST_STATUSES, PUBLIC_VISIBILITY, VISIBILITIES
from apps.core.errors import ValidationFailed
from apps.core.text import TextRefused, xml_text
from apps.core.validation import clean_required, clean_url, text

# --- messages (spec §5 where the spec has one) ---------------------------------------------------
TITLE_REQUIRED = "Title is required"
CONTENT_REQUIRED = "Content is required"
EXCERPT_REQUIRED = "Excerpt is required"
CATEGORY_REQUIRED = "At least one category is required"
FEATURED_REQUIRED = "Featured image is required"
SEO_TITLE_REQUIRED = "SEO title is required"
SEO_DESCRIPTION_REQUIRED = "SEO description is required"
NAME_REQUIRED = "Name is required"
SLUG_REQUIRED = "Slug is required"
STATUS_INVALID = "Status must be one of " + ", ".join(POST_STATUSES)
DATE_INVALID = "Please enter a valid date"
VIDEO_INVALID = "Please enter a valid YouTube video URL or ID"
CATEGORIES_INVALID = "Categories must be a list of category ids"
TAGS_INVALID = "Tags must be a list of tag ids"
IMAGE_INVALID = "Image must be a media id"
VISIBILITY_INVALID = "Visibility must be public or members"

_YOUTUBE_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
_YOUTUBE_HOSTS = {"youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com",
                  "youtube-nocookie.com", "www.youtube-nocookie.com"}


# --- field rules ---------------------------------------------------------------------------------
def clean_max(value: str, maximum: int, label: str) -> str:
    if len(value) > maximum:
        raise ValueError(f"{label} must be at most {maximum} characters")
    return value


def clean_status(value) -> str:
    value = text(value, STATUS_INVALID).strip().lower()
    if not value:
        return "draft"
    if value not in POST_STATUSES:
        raise ValueError(STATUS_INVALID)
    return value


def clean_id_list(value, message: str) -> list[str]:
    """A JSON array of ids (strings or numbers; objects with an `id` are accepted too) -> unique
    non-empty strings in the given order."""
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise ValueError(message)
    ids: list[str] = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("id")
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            raise ValueError(message)
        item = str(item).strip()
        if item and item not in ids:
            ids.append(item)
    return ids


# A media id, or the `{id, ...}` object the API returns (documented as such in OpenAPI).
MediaRef = str | dict


def clean_media_ref(value, message: str = IMAGE_INVALID) -> str:
    """A media id given as a string or as the `{id, ...}` object the API returns."""
    if value is None:
        return ""
    if isinstance(value, dict):
        value = value.get("id")
        if value is None:
            return ""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(message)
    return str(value).strip()


def clean_publish_date(value) -> datetime | None:
    """An ISO date or date-time. A date alone means 00:00 UTC of that day; a date-time without
    an offset is read as UTC."""
    if value is None:
        return None
    if isinstance(value, datetime):
        parsed = value
    else:
        value = text(value, DATE_INVALID).strip()
        if not value:
            return None
        try:
            parsed = parse_datetime(value.replace("z", "Z"))
            if parsed is None:
                day = parse_date(value)
                if day is None:
                    raise ValueError(DATE_INVALID)
                parsed = datetime.combine(day, time.min)
        except ValueError as exc:  # well-formed but impossible, e.g. 2025-02-30
            raise ValueError(DATE_INVALID) from exc
    if timezone.is_naive(parsed):
        parsed = parsed.replace(tzinfo=dt_timezone.utc)
    try:
        # In UTC: PostgreSQL refuses offsets beyond ±15:59 (e.g. -16:30 was a 500).
        return parsed.astimezone(dt_timezone.utc)
    except (OverflowError, ValueError) as exc:  # shifted past year 1 or 9999
        raise ValueError(DATE_INVALID) from exc


def clean_video_id(value) -> str:
    """A YouTube id from an 11-character id or a watch / youtu.be / embed / v / shorts URL."""
    value = text(value, VIDEO_INVALID).strip()
    if not value:
        return ""
    if _YOUTUBE_ID.match(value):
        return value
    candidate = ""
    url = urlparse(value if "://" in value else f"https://{value}")
    host = (url.hostname or "").lower()
    parts = [part for part in url.path.split("/") if part]
    if host in {"youtu.be", "www.youtu.be"} and parts:
        candidate = parts[0]
    elif host in _YOUTUBE_HOSTS:
        if parts[:1] == ["watch"]:
            candidate = (parse_qs(url.query).get("v") or [""])[0]
        elif len(parts) >= 2 and parts[0] in {"embed", "v", "shorts", "live", "e"}:
            candidate = parts[1]
    if _YOUTUBE_ID.match(candidate):
        return candidate
    raise ValueError(VIDEO_INVALID)


# --- the rule of each field a writer sets (the services' keyword names) -------------------------
@dataclass(frozen=True)
class FieldRule:
    wire: str  # the field's name in the dashboard API (an error's `field`)
    clean: Callable[[Any], Any]  # the value as stored, or ValueError(message)
    maximum: int | None = None  # characters, for text a repair may cut


def _text_rule(label: str, maximum: int | None = None, *, required: str | None = None, strip: bool = True):
    def clean(value) -> str:
        value = text(value, required or f"{label} must be text")
        if strip:
            value = value.strip()
        if required and not value:
            raise ValueError(required)
        return clean_max(value, maximum, label) if maximum else value

    return clean


def clean_canonical_url(value) -> str:
    """An http(s) address or nothing: never `javascript:`, `data:` or a relative path."""
    return clean_max(clean_url(value), 2000, "Canonical URL")


def clean_visibility(value) -> str:
    """Who reads the post's body: `public` (everyone) or `members` (docs/content.md#members-only-posts)."""
    value = text(value, VISIBILITY_INVALID).strip().lower()
    if value not in VISIBILITIES:
        raise ValueError(VISIBILITY_INVALID)
    return value


def body_visible(visibility: str, *, member: bool) -> bool:
    """Whether a reader gets a post's body: always for a public post; for a members-only one, a
    `member` only (a request with a valid member token of the company, apps.public_api.request.
    reader_is_member). Anything but `public` counts as members-only (the column allows no other)."""
    return member or visibility == PUBLIC_VISIBILITY


def body_for_reader(visibility: str, body: str, *, member: bool) -> str:
    """The one read rule of a members-only post (the public API, the Ghost-compatible Content API,
    the feeds): its body for a member, "" for anyone else; its title, excerpt and images stay public."""
    return body if body_visible(visibility, member=member) else ""


def clean_flag(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError("Must be true or false")
    return value


POST_RULES: dict[str, FieldRule] = {
    "title": FieldRule("title", _text_rule("Title", 500, required=TITLE_REQUIRED), 500),
    "excerpt": FieldRule("excerpt", _text_rule("Excerpt")),
    "content": FieldRule("content", _text_rule("Content", strip=False)),
    "custom_slug": FieldRule("customSlug", _text_rule("Slug", 255), 255),
    "status": FieldRule("status", clean_status),
    "allow_indexing": FieldRule("allowIndexing", clean_flag),
    "featured": FieldRule("featured", clean_flag),
    "visibility": FieldRule("visibility", clean_visibility),
    "scheduled_publish_date": FieldRule("scheduledPublishDate", clean_publish_date),
    "video_id": FieldRule("videoId", clean_video_id),
    "meta_title": FieldRule("metaTitle", _text_rule("SEO title", 500), 500),
    "meta_description": FieldRule("metaDescription", _text_rule("SEO description")),
    "canonical_url": FieldRule("canonicalUrl", clean_canonical_url),
    "focus_keyword": FieldRule("focusKeyword", _text_rule("Focus keyword", 500), 500),
    "og_title": FieldRule("ogTitle", _text_rule("Open Graph title", 500), 500),
    "og_description": FieldRule("ogDescription", _text_rule("Open Graph description")),
    "twitter_title": FieldRule("twitterTitle", _text_rule("Twitter title", 500), 500),
    "twitter_description": FieldRule("twitterDescription", _text_rule("Twitter description")),
}


def post_values(values: dict) -> dict:
    """`values` (service keyword names) with each field's rule applied; the first value that
    breaks its rule is a 400 naming the field. Names without a rule (ids, lists) pass unchanged:
    the services check those against the rows they name."""
    cleaned = dict(values)
    for name, value in values.items():
        rule = POST_RULES.get(name)
        if rule is None or value is None and name in _NULLABLE:
            continue
        try:
            cleaned[name] = rule.clean(value)
        except ValueError as exc:
            raise ValidationFailed(str(exc), field=rule.wire) from exc
    return cleaned


_NULLABLE = {"scheduled_publish_date"}
# What a repaired field falls back to when its value cannot be kept at all.
_FALLBACK = {"title": "(untitled)", "status": "draft", "allow_indexing": True, "featured": False,
             "visibility": MEMBERS_VISIBILITY, "scheduled_publish_date": None}


def post_values_repaired(values: dict) -> tuple[dict, list[tuple[str, str]]]:
    """For a file from outside (an import): each value that breaks its rule is repaired, not
    refused: characters text cannot hold taken out, text cut to its length, and what still fails
    (an address that is not http(s), a video id that is not one) left out. Returns the values and
    (field, what was done) for each repair, for the import's report."""
    cleaned, repairs = dict(values), []
    for name, value in values.items():
        rule = POST_RULES.get(name)
        if rule is None or value is None and name in _NULLABLE:
            continue
        try:
            cleaned[name] = rule.clean(value)
            continue
        except (ValueError, TextRefused) as exc:
            problem = str(exc)
        candidate = value
        if isinstance(candidate, str):
            candidate = _SURROGATE_OR_NUL.sub("", xml_text(candidate.replace("\x00", "")))
            if rule.maximum is not None:
                candidate = candidate.strip()[:rule.maximum]
        try:
            cleaned[name] = rule.clean(candidate)
            repairs.append((rule.wire, f"{problem}: cut to {rule.maximum} characters" if rule.maximum is not None
                            and isinstance(value, str) and len(value.strip()) > rule.maximum else f"{problem}: repaired"))
        except (ValueError, TextRefused):
            cleaned[name] = _FALLBACK.get(name, "")
            repairs.append((rule.wire, f"{problem}: left out"))
    return cleaned, repairs


_SURROGATE_OR_NUL = re.compile("[\x00\ud800-\udfff]")
