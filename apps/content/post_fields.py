"""The public JSON of a post, field by field: the one map both builders of a post's JSON follow.

- apps.content.post_schemas generates PostSummaryOut and PostOut from it (the wire shapes of docs/api/index.md,
  in this order) and fills them from ORM objects (the dashboard API);
- apps.public_api.selectors selects these columns in one SQL statement and turns each row into
  the same JSON without the ORM or pydantic (the public content API).

A new column-backed field is added here once: its JSON name, its column and its kind. The few
fields built from joins (`author`, `categories`, `tags`, the images `featuredImage`, `ogImage`,
`twitterImage`) and the derived
`isScheduled` are named here too (their kind says so); each builder has one function per such
kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone as dt_timezone
from typing import Any, Literal

from apps.content.models import POST_STATUSES, VISIBILITIES

PostStatusName = Literal[POST_STATUSES]  # type: ignore[valid-type]
PostVisibilityName = Literal[VISIBILITIES]  # type: ignore[valid-type]


def iso(value: datetime | None) -> str | None:
    """A time as the API writes it: ISO 8601 in UTC with `Z` (as pydantic serialises it)."""
    return value.astimezone(dt_timezone.utc).isoformat().replace("+00:00", "Z") if value is not None else None


def _same(value):
    return value


def _id_or_none(value) -> str | None:
    return str(value) if value else None


def _text_or_none(value) -> str | None:
    return value or None


@dataclass(frozen=True)
class PostField:
    name: str  # the JSON key
    column: str | None  # the posts table's column (None: built from joins, or derived)
    # text | id | optional_id | optional_text | flag | time | optional_time | status | visibility, or a joined kind
    kind: str
    annotation: Any = None  # the schema's type, for joined kinds (set by apps.content.post_schemas)

    @property
    def from_column(self):
        """The JSON value of the column's value (a row's or a model's attribute); times stay
        datetimes for pydantic and are written with iso() by the SQL builder."""
        return _CONVERT[self.kind]

    @property
    def type(self):
        return self.annotation if self.annotation is not None else _TYPES[self.kind]


_CONVERT = {"text": _same, "flag": _same, "time": _same, "optional_time": _same, "status": _same,
            "visibility": _same, "id": str, "optional_id": _id_or_none, "optional_text": _text_or_none}
_TYPES = {"text": str, "flag": bool, "time": datetime, "optional_time": datetime | None, "status": PostStatusName,
          "visibility": PostVisibilityName, "id": str, "optional_id": str | None, "optional_text": str | None}
JOINED = ("author", "categories", "tags", "featured_image", "og_image", "twitter_image", "scheduled")  # kinds each builder implements
TIMES = ("time", "optional_time")

# The list's summary of a post (PostSummaryOut), in the order sent.
SUMMARY = (
    PostField("id", "id", "id"),
    PostField("title", "title", "text"),
    PostField("slug", "slug", "text"),
    PostField("excerpt", "excerpt", "text"),
    PostField("status", "status", "status"),
    PostField("createdAt", "created_at", "time"),
    PostField("publishedAt", "published_at", "optional_time"),
    PostField("author", None, "author"),
    PostField("categories", None, "categories"),
    PostField("tags", None, "tags"),
    PostField("featuredImage", None, "featured_image"),
    PostField("videoId", "video_id", "optional_text"),
    # (+) true while the post waits for its scheduledPublishDate (status is still "draft")
    PostField("isScheduled", None, "scheduled"),
    # (+) an editorial mark: the public lists take ?featured=true|false (docs/content.md#featured-posts)
    PostField("featured", "featured", "flag"),
    # (+) public, or members: a members-only post's body (`content` of the full post) goes to a reader
    # with a member token only (docs/content.md#members-only-posts)
    PostField("visibility", "visibility", "visibility"),
)

# The full post (PostOut): the summary, then these.
DETAIL = (
    PostField("content", "content", "text"),
    PostField("customSlug", "custom_slug", "text"),
    PostField("allowIndexing", "allow_indexing", "flag"),
    PostField("scheduledPublishDate", "scheduled_publish_date", "optional_time"),
    PostField("metaTitle", "meta_title", "text"),
    PostField("metaDescription", "meta_description", "text"),
    PostField("canonicalUrl", "canonical_url", "text"),
    PostField("focusKeyword", "focus_keyword", "text"),
    PostField("ogTitle", "og_title", "text"),
    PostField("ogDescription", "og_description", "text"),
    PostField("ogImageId", "og_image_id", "optional_id"),
    # (+) the image of ogImageId with its addresses (as featuredImage), null without one
    PostField("ogImage", None, "og_image"),
    PostField("twitterTitle", "twitter_title", "text"),
    PostField("twitterDescription", "twitter_description", "text"),
    PostField("twitterImageId", "twitter_image_id", "optional_id"),
    PostField("twitterImage", None, "twitter_image"),
    PostField("updatedAt", "updated_at", "time"),
)
