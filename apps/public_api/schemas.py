"""The success replies of the public content API, for its OpenAPI document (and so for the
content SDK's types, sdk/).

The handlers answer cached bytes (apps.public_api.responses) built by apps.public_api.request and
apps.public_api.selectors, never through these schemas: ninja passes an HttpResponse through
without validating it. The shapes are the ones the bytes are made of: the posts are the content
app's PostSummaryOut and PostOut, generated from apps.content.post_fields (the field map the SQL
builder follows too), the categories and tags its CategoryOut and TagOut. A test validates real
replies of every route against the document (tests/test_reply_schemas.py).
"""
from __future__ import annotations

from typing import Literal

from apps.content import post_schemas as content
from apps.content.post_schemas import CategoryOut, TagOut
from apps.core.schemas import OutSchema, PaginationOut, SuccessOut, omitted


class TranslationRefOut(OutSchema):
    """A published translation of a post (docs/translations.md)."""

    locale: str
    slug: str


class PostSummaryOut(content.PostSummaryOut):
    # (+) With ?locale= only (docs/translations.md)
    locale: str = omitted(description="The language this post is in (the locale asked, or its fallback)")
    translations: list[TranslationRefOut] = omitted(description="Every translation of the post, itself included")


class PostOut(content.PostOut):
    # (+) With ?locale= only (docs/translations.md)
    locale: str = omitted(description="The language this post is in (the locale asked, or its fallback)")
    translations: list[TranslationRefOut] = omitted(description="Every translation of the post, itself included")


class PostsData(OutSchema):
    posts: list[PostSummaryOut]
    pagination: PaginationOut


class PostsReply(SuccessOut):
    """GET posts, posts/category/{slug}, posts/tag/{slug} (request.posts_reply)"""

    message: Literal["Posts retrieved successfully"]
    data: PostsData


class PostData(OutSchema):
    post: PostOut


class PostReply(SuccessOut):
    """GET posts/slug/{slug} (request.post_reply)"""

    message: Literal["Post retrieved successfully"]
    data: PostData


class PagesData(OutSchema):
    """(+) A page is a post's object (apps.content.kinds)."""

    pages: list[PostSummaryOut]
    pagination: PaginationOut


class PagesReply(SuccessOut):
    """(+) GET pages (request.posts_reply of pages)"""

    message: Literal["Pages retrieved successfully"]
    data: PagesData


class PageData(OutSchema):
    page: PostOut


class PageReply(SuccessOut):
    """(+) GET pages/slug/{slug} (request.post_reply of a page)"""

    message: Literal["Page retrieved successfully"]
    data: PageData


class CategoriesData(OutSchema):
    categories: list[CategoryOut]


class CategoriesReply(SuccessOut):
    """GET categories (request.categories_reply)"""

    message: Literal["Categories retrieved successfully"]
    data: CategoriesData


class TagsData(OutSchema):
    tags: list[TagOut]


class TagsReply(SuccessOut):
    """GET tags (request.tags_reply)"""

    message: Literal["Tags retrieved successfully"]
    data: TagsData


class RedirectOut(OutSchema):
    """An old address of an imported post (a path of the old site, with its query) and the post's
    slug now (docs/import-export.md)."""

    oldPath: str  # noqa: N815
    slug: str
    kind: Literal["post", "page"]  # (+) a post's address, or a page's (apps.content.kinds)


class RedirectsData(OutSchema):
    redirects: list[RedirectOut]


class RedirectsReply(SuccessOut):
    """GET redirects (request.redirects_reply): the old addresses of published posts"""

    message: Literal["Redirects retrieved successfully"]
    data: RedirectsData
