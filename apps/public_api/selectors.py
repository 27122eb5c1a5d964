"""Reads of the public content API.

Every website page view may reach these on a cache miss, so a page of posts is one SQL
statement: the rows, their author and featured image (joins), their categories and tags (JSON
built by PostgreSQL in correlated subqueries) and the total (an uncorrelated scalar subquery,
computed once), on one cursor. Compared with the content app's ORM selectors (4 queries, ORM
objects, then pydantic schemas) this is several times cheaper per request; the results are
the same, which the tests check against the content app itself:
- filters follow apps.content.selectors.post_list (status, search through its
  `search_condition`, category, tag) and its order (newest first);
- each post is exactly the content app's PostSummaryOut / PostOut, as JSON.
Categories and tags count published posts only here: a website must not learn how many drafts
a category holds.
"""
from __future__ import annotations

import hashlib
from datetime import timezone as dt_timezone

from django.db import connection
from django.db.models import Count, Q, QuerySet

from apps.accounts.models import User
from apps.content import selectors as content
from apps.content.models import Category, Post, Tag
from apps.core.errors import NotFound
from apps.core.pagination import Page
from apps.media.models import Media

PUBLISHED = Q(posts__status=Post.Status.PUBLISHED)
_POST = Post._meta.db_table


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _terms_sql(through, column: str, model) -> str:
    """JSON array of {id, name, slug} of one post, ordered by name (as the content app)."""
    return (
        f"(SELECT coalesce(json_agg(json_build_object('id', t.id::text, 'name', t.name, 'slug', t.slug) "
        f"ORDER BY t.name, t.id), '[]'::json) FROM {_q(through._meta.db_table)} x "
        f"JOIN {_q(model._meta.db_table)} t ON t.id = x.{_q(column)} WHERE x.post_id = {_q(_POST)}.id)"
    )


def _summary_columns() -> str:
    post = _q(_POST)
    return ", ".join([
        *(f"{post}.{_q(name)}" for name in ("id", "title", "slug", "excerpt", "status", "created_at", "published_at",
                                            "video_id", "publish_scheduled")),
        "author.id", "author.username", "image.id", "image.storage_key", "image.alt_text",
        _terms_sql(Post.categories.through, "category_id", Category),
        _terms_sql(Post.tags.through, "tag_id", Tag),
    ])


_DETAIL_FIELDS = ("content", "custom_slug", "allow_indexing", "scheduled_publish_date", "meta_title",
                  "meta_description", "canonical_url", "focus_keyword", "og_title", "og_description", "og_image_id",
                  "twitter_title", "twitter_description", "twitter_image_id", "updated_at")


def _joins() -> str:
    return (
        f"LEFT JOIN {_q(User._meta.db_table)} author ON author.id = {_q(_POST)}.author_id "
        f"LEFT JOIN {_q(Media._meta.db_table)} image ON image.id = {_q(_POST)}.featured_image_id"
    )


def _where(*, status: str, search: str | None, category_id=None, tag_id=None) -> tuple[str, list]:
    post = _q(_POST)
    parts, params = [], []
    if status != "all":
        parts.append(f"{post}.status = %s")
        params.append(status)
    if search and search.strip():
        query = Post.objects.filter(content.search_condition(search)).query
        sql, search_params = query.get_compiler(connection=connection).compile(query.where)
        parts.append(f"({sql})")
        params.extend(search_params)
    for through, column, value in ((Post.categories.through, "category_id", category_id),
                                   (Post.tags.through, "tag_id", tag_id)):
        if value is not None:
            parts.append(f"EXISTS (SELECT 1 FROM {_q(through._meta.db_table)} f "
                         f"WHERE f.post_id = {post}.id AND f.{_q(column)} = %s)")
            params.append(value)
    return " AND ".join(parts) or "TRUE", params


def _iso(value) -> str | None:
    return value.astimezone(dt_timezone.utc).isoformat().replace("+00:00", "Z") if value is not None else None


def _summary(row, urls_factory) -> dict:
    (post_id, title, slug, excerpt, status, created_at, published_at, video_id, scheduled, author_id, username,
     image_id, storage_key, alt_text, categories, tags) = row[:16]
    return {
        "id": str(post_id),
        "title": title,
        "slug": slug,
        "excerpt": excerpt,
        "status": status,
        "createdAt": _iso(created_at),
        "publishedAt": _iso(published_at),
        "author": {"id": str(author_id), "username": username} if author_id else None,
        "categories": categories,
        "tags": tags,
        "featuredImage": {"id": str(image_id), "spacesKey": storage_key, "altText": alt_text or "",
                          "link": urls_factory().link(storage_key)} if image_id else None,
        "videoId": video_id or None,
        "isScheduled": bool(scheduled and status == Post.Status.DRAFT),
    }


class _Urls:
    """The media URL builder, made on first use (only pages with images need it)."""

    def __init__(self) -> None:
        self._urls = None

    def __call__(self):
        if self._urls is None:
            from apps.content.schemas import media_urls

            self._urls = media_urls()
        return self._urls


def posts_page(*, page: Page, status: str, search: str | None = None, category_id=None, tag_id=None,
               counts=None) -> tuple[list[dict], int]:
    """One page of post summaries (newest first) and the number of matching posts. `counts`
    (apps.public_api.cache.Counts) keeps totals between pages of the same listing."""
    where, params = _where(status=status, search=search, category_id=category_id, tag_id=tag_id)
    count_key = hashlib.sha1(f"{where}|{params!r}".encode()).hexdigest()  # noqa: S324
    total = counts.get(count_key) if counts is not None else None
    post = _q(_POST)
    count_sql = f"SELECT count(*) FROM {post} WHERE {where}"
    # The page's ids first (an index walk, however deep the page), then the joins and the JSON
    # of those rows only; the total (unless known) in the same statement.
    sql = (
        f"SELECT {_summary_columns()}, {'(' + count_sql + ')' if total is None else 'NULL'} AS total "
        f"FROM (SELECT {post}.id, {post}.created_at FROM {post} WHERE {where} "
        f"ORDER BY {post}.created_at DESC, {post}.id DESC LIMIT %s OFFSET %s) page "
        f"JOIN {post} ON {post}.id = page.id {_joins()} "
        "ORDER BY page.created_at DESC, page.id DESC"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*(params if total is None else []), *params, page.limit, page.offset])
        rows = cursor.fetchall()
        if total is None:
            if rows:
                total = rows[0][-1]
            else:
                cursor.execute(count_sql, params)
                total = cursor.fetchone()[0]
            if counts is not None:
                counts.set(count_key, total)
    urls = _Urls()
    return [_summary(row, urls) for row in rows], total


def post_by_slug(slug: str, *, published_only: bool) -> dict:
    """The full post (PostOut) of a slug; NotFound as the content app's post_get_by_slug."""
    where = f"{_q(_POST)}.slug = %s"
    params: list = [(slug or "").strip().lower()]
    if published_only:
        where += f" AND {_q(_POST)}.status = %s"
        params.append(Post.Status.PUBLISHED)
    detail = ", ".join(f"{_q(_POST)}.{_q(field)}" for field in _DETAIL_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_summary_columns()}, {detail} FROM {_q(_POST)} {_joins()} WHERE {where} LIMIT 1",
                       params)
        row = cursor.fetchone()
    if row is None:
        raise NotFound(content.POST_NOT_FOUND)
    post = _summary(row, _Urls())
    (body, custom_slug, allow_indexing, scheduled_date, meta_title, meta_description, canonical_url, focus_keyword,
     og_title, og_description, og_image_id, twitter_title, twitter_description, twitter_image_id, updated_at) = row[16:]
    post.update({
        "content": body,
        "customSlug": custom_slug,
        "allowIndexing": allow_indexing,
        "scheduledPublishDate": _iso(scheduled_date),
        "metaTitle": meta_title,
        "metaDescription": meta_description,
        "canonicalUrl": canonical_url,
        "focusKeyword": focus_keyword,
        "ogTitle": og_title,
        "ogDescription": og_description,
        "ogImageId": str(og_image_id) if og_image_id else None,
        "twitterTitle": twitter_title,
        "twitterDescription": twitter_description,
        "twitterImageId": str(twitter_image_id) if twitter_image_id else None,
        "updatedAt": _iso(updated_at),
    })
    return post


def category_id_by_slug(slug: str):
    found = Category.objects.filter(slug=(slug or "").strip().lower()).values_list("id", flat=True).first()
    if found is None:
        raise NotFound(content.CATEGORY_NOT_FOUND)
    return found


def tag_id_by_slug(slug: str):
    found = Tag.objects.filter(slug=(slug or "").strip().lower()).values_list("id", flat=True).first()
    if found is None:
        raise NotFound(content.TAG_NOT_FOUND)
    return found


def categories() -> QuerySet[Category]:
    return Category.objects.annotate(post_count=Count("posts", filter=PUBLISHED)).order_by("name", "id")


def tags() -> QuerySet[Tag]:
    return Tag.objects.annotate(post_count=Count("posts", filter=PUBLISHED)).order_by("name", "id")
