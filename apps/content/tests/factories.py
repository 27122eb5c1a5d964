"""Content rows for tests of every app, written with the ORM in a tenant schema (no services:
no permission checks, no content-version bumps). The one post factory of the test suites."""
from __future__ import annotations

import itertools
from datetime import datetime

from django.db import connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.media.models import Media

_counter = itertools.count(1)


def make_category(tenant, name: str | None = None, slug: str | None = None, description: str = "") -> Category:
    n = next(_counter)
    with schema_context(tenant.schema_name):
        category = Category.objects.create(name=name or f"Category {n}", slug=slug or f"category-{n}",
                                           description=description)
    connection.set_schema_to_public()
    return category


def make_tag(tenant, name: str | None = None, slug: str | None = None) -> Tag:
    n = next(_counter)
    with schema_context(tenant.schema_name):
        tag = Tag.objects.create(name=name or f"Tag {n}", slug=slug or f"tag-{n}")
    connection.set_schema_to_public()
    return tag


def make_media(tenant, file_name: str = "photo.png", alt_text: str = "A photo") -> Media:
    n = next(_counter)
    with schema_context(tenant.schema_name):
        media = Media.objects.create(file_name=file_name, file_type="image/png", file_size=100, alt_text=alt_text,
                                     width=10, height=10, storage_key=f"{tenant.schema_name}/media/{n}/photo.png")
    connection.set_schema_to_public()
    return media


def make_post(tenant, title: str | None = None, *, slug: str | None = None, status: str = Post.Status.DRAFT,
              content: str = "<p>Body text</p>", excerpt: str = "An excerpt", author=None, categories=(), tags=(),
              featured_image=None, created_at: datetime | None = None, published_at: datetime | None = None,
              **fields) -> Post:
    n = next(_counter)
    now = timezone.now()
    with schema_context(tenant.schema_name):
        post = Post.objects.create(
            title=title or f"Post {n}", slug=slug or f"post-{n}", status=status, content=content, excerpt=excerpt,
            author=author, featured_image=featured_image,
            published_at=published_at or (now if status == "published" else None), **fields,
        )
        if categories:
            post.categories.set(categories)
        if tags:  # in the order given (the post's order: its first tag is its primary tag)
            Post.tags.through.objects.bulk_create([Post.tags.through(post_id=post.pk, tag_id=tag.pk) for tag in tags])
        if created_at is not None:
            Post.objects.filter(pk=post.pk).update(created_at=created_at)
            post.created_at = created_at
    connection.set_schema_to_public()
    return post
