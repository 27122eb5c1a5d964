"""What feeds and the sitemap list: published posts a company lets search engines index (feeds:
posts; the sitemap: posts and pages, as apps.content.kinds declares)."""
from __future__ import annotations

from django.db.models import Max, QuerySet

from apps.content import selectors as content
from apps.content.models import Category, Post, Tag
from apps.core.errors import NotFound


def syndicated_posts(flag: str = "in_feeds") -> QuerySet[Post]:
    """Published and indexable (drafts, scheduled and archived posts are drafts or archived), of the
    kinds for which `flag` is true: `in_feeds` (posts), `in_sitemap` (posts and pages)."""
    return Post.objects.having(flag).filter(status=Post.Status.PUBLISHED, allow_indexing=True)


def sitemap_rows() -> QuerySet[Post]:
    return syndicated_posts("in_sitemap")


def latest_posts(*, limit: int, category: Category | None = None, tag: Tag | None = None,
                 language: str | None = None) -> QuerySet[Post]:
    """`language`: its posts only (None: every post, a company with one language)."""
    posts = syndicated_posts()
    if language is not None:
        posts = posts.filter(language=language)
    if category is not None:
        posts = posts.filter(categories=category)
    if tag is not None:
        posts = posts.filter(tags=tag)
    return (posts.select_related("author").prefetch_related("categories")
            .order_by("-published_at", "-created_at")[:limit])


def last_change():
    """When the syndicated content last changed (Last-Modified of feeds and the sitemap)."""
    return sitemap_rows().aggregate(newest=Max("updated_at"))["newest"]


def term_by_slug(model, slug: str, language: str | None = None):
    """`language`: by its slug in that language first, then by its own (apps.content.selectors)."""
    term = content.term_by_slug(model, slug, language)
    if term is None:
        raise NotFound(f"No {model._meta.verbose_name} with slug {slug!r}")
    return term


def alternates(groups) -> dict:
    """The syndicated translations of these translation groups: group -> [(language, slug)], by language."""
    found: dict = {}
    for group, language, slug in (sitemap_rows().filter(translation_group__in=groups)
                                  .order_by("translation_group", "language").values_list("translation_group", "language", "slug")):
        found.setdefault(group, []).append((language, slug))
    return found
