"""Query rules and reply shapes of the public content API (API.md). Posts are the content app's
PostSummaryOut / PostOut as JSON (built by apps.public_api.selectors); categories and tags are
its CategoryOut / TagOut."""
from __future__ import annotations

from ninja import Schema

from apps.content.schemas import CategoryOut, TagOut
from apps.core.errors import PermissionDenied, ValidationFailed
from apps.public_api.keys import ApiKey

STATUSES = ("published", "draft", "archived", "all")
STATUS_INVALID = "Status must be one of published, draft, archived, all"
PREVIEW_REQUIRED = "Reading unpublished posts needs the preview key"


class PostsQuery(Schema):
    page: int | None = None
    limit: int | None = None
    status: str | None = None
    search: str | None = None


class PageQuery(Schema):
    page: int | None = None
    limit: int | None = None
    status: str | None = None


def clean_status(value: str | None, api_key: ApiKey) -> str:
    """published by default; anything else needs the preview key (403 with the content key)."""
    status = (value or "published").strip().lower()
    if status not in STATUSES:
        raise ValidationFailed(STATUS_INVALID, field="status")
    if status != "published" and not api_key.is_preview:
        raise PermissionDenied(PREVIEW_REQUIRED)
    return status


def posts_reply(posts: list[dict], pagination: dict) -> dict:
    return {"success": True, "message": "Posts retrieved successfully",
            "data": {"posts": posts, "pagination": pagination}}


def post_reply(post: dict) -> dict:
    return {"success": True, "message": "Post retrieved successfully", "data": {"post": post}}


def categories_reply(categories) -> dict:
    return {"success": True, "message": "Categories retrieved successfully",
            "data": {"categories": [CategoryOut.from_category(c).model_dump(mode="json") for c in categories]}}


def tags_reply(tags) -> dict:
    return {"success": True, "message": "Tags retrieved successfully",
            "data": {"tags": [TagOut.from_tag(t).model_dump(mode="json") for t in tags]}}
