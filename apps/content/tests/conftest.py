"""Content test factories: rows are made with the ORM inside the tenant's schema (fast), and the
API under test is called through the tenant's host."""
from __future__ import annotations

import itertools
import uuid

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category, Tag
from apps.content.tests.factories import make_post  # noqa: F401 - the one post factory, re-exported
from apps.media.models import Media

_n = itertools.count(1)


def make_category(tenant, name: str | None = None, slug: str | None = None, **fields) -> Category:
    number = next(_n)
    with schema_context(tenant.schema_name):
        return Category.objects.create(name=name or f"Category {number}", slug=slug or f"category-{number}", **fields)


def make_tag(tenant, name: str | None = None, slug: str | None = None) -> Tag:
    number = next(_n)
    with schema_context(tenant.schema_name):
        return Tag.objects.create(name=name or f"Tag {number}", slug=slug or f"tag-{number}")


def make_media(tenant, name: str = "photo.png") -> Media:
    with schema_context(tenant.schema_name):
        media_id = uuid.uuid4()
        return Media.objects.create(
            id=media_id, file_name=name, file_type="image/png", file_size=100, alt_text=f"Alt of {name}",
            width=10, height=10, storage_key=f"{tenant.schema_name}/media/{media_id}/{name}",
        )


def post_payload(category, media, **overrides) -> dict:
    payload = {
        "postTitle": "Hello World",
        "postContent": "<p>Some <strong>content</strong></p>",
        "postExcerpt": "A short excerpt",
        "customSlug": "",
        "postStatus": "draft",
        "categories": [str(category.id)],
        "tags": [],
        "featuredMediaId": str(media.id),
        "allowIndexing": True,
        "scheduledPublishDate": "",
        "videoId": "",
        "seoMetadata": {"title": "SEO title", "description": "SEO description", "canonicalUrl": "",
                        "focusKeyword": ""},
    }
    payload.update(overrides)
    return payload


@pytest.fixture
def category(tenant):
    return make_category(tenant, name="News", slug="news")


@pytest.fixture
def tag(tenant):
    return make_tag(tenant, name="Python", slug="python")


@pytest.fixture
def media(tenant):
    return make_media(tenant)


@pytest.fixture
def payload(category, media):
    return post_payload(category, media)
