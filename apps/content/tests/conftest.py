"""Content test factories: rows are made with the ORM inside the tenant's schema (fast), and the
API under test is called through the tenant's host."""
from __future__ import annotations

import itertools
import uuid
from datetime import datetime

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
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


def make_post(tenant, *, title: str | None = None, status: str = "draft", author=None, categories=(), tags=(),
              featured_image=None, content: str = "<p>Body text</p>", published_at: datetime | None = None,
              **fields) -> Post:
    number = next(_n)
    title = title or f"Post number {number}"
    with schema_context(tenant.schema_name):
        post = Post.objects.create(
            title=title, slug=fields.pop("slug", f"post-{number}"), excerpt=f"Excerpt {number}", content=content,
            status=status, author=author, featured_image=featured_image,
            published_at=published_at or (timezone.now() if status == "published" else None), **fields,
        )
        post.categories.set(categories)
        post.tags.set(tags)
        return post


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
