"""Reads of the public content API, built on the content app's selectors (apps.content.selectors)
so the dashboard and the websites see posts the same way. Categories and tags count published
posts only here: a website must not learn how many drafts a category holds."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from apps.content import selectors as content
from apps.content.models import Category, Post, Tag
from apps.core.pagination import Page

PUBLISHED = Q(posts__status=Post.Status.PUBLISHED)


def posts_page(*, page: Page, status: str, search: str | None = None, category: str | None = None,
               tag: str | None = None) -> tuple[list[Post], int]:
    """One page of posts and the total; the count query is skipped when the first page is not full."""
    queryset = content.post_list(status=status, search=search, category=category, tag=tag)
    posts = list(queryset[page.offset: page.offset + page.limit])
    if page.offset == 0 and len(posts) < page.limit:
        return posts, len(posts)
    return posts, queryset.count()


def post_by_slug(slug: str, *, published_only: bool) -> Post:
    return content.post_get_by_slug(slug, published_only=published_only)


def category_by_slug(slug: str) -> Category:
    return content.category_get_by_slug(slug)


def tag_by_slug(slug: str) -> Tag:
    return content.tag_get_by_slug(slug)


def categories() -> QuerySet[Category]:
    return Category.objects.annotate(post_count=Count("posts", filter=PUBLISHED)).order_by("name", "id")


def tags() -> QuerySet[Tag]:
    return Tag.objects.annotate(post_count=Count("posts", filter=PUBLISHED)).order_by("name", "id")
