"""The reply shapes of a post, its author, images and terms (docs/api/index.md, camelCase), shared by
the public API (apps.public_api.schemas), the webhooks' payloads and the dashboard (apps.content.schemas
re-exports them beside the dashboard's own replies and input schemas). A content web process
(WEB_ROUTES=content) imports this module, not the dashboard's schemas: built, those are 2 MB in every
content worker (docs/performance.md)."""
from __future__ import annotations

from apps.accounts.profiles import author_fields_of
from apps.content import post_fields
from apps.core.schemas import OutSchema, omitted
from apps.media.storage import MediaUrls


# --- output --------------------------------------------------------------------------------------
def media_urls(schema: str | None = None):
    """The media app's URL builder (absolute `link` of a storage key), made once per response:
    of the connection's company, or of the company of `schema`."""
    return MediaUrls.current(schema)


class AuthorOut(OutSchema):
    """A post's author: `id` and `username`, then (+) their author profile (apps.accounts.profiles)."""

    id: str
    username: str
    name: str  # (+) the display name, else the username
    bio: str  # (+)
    profileImage: str | None  # (+) absolute addresses
    coverImage: str | None  # (+)
    website: str  # (+)
    location: str  # (+)
    facebook: str  # (+) the profiles' addresses
    twitter: str  # (+)


class TermRefOut(OutSchema):
    id: str
    name: str
    slug: str


class FeaturedImageOut(OutSchema):
    """An image of a post (featured, OG, Twitter). `link` is the image's absolute address and
    `cdnUrl` its address behind MEDIA_CDN_BASE_URL (`link` when none is set), as in the media
    library; `spacesKey` is the storage key, not an address."""

    id: str
    spacesKey: str
    altText: str
    link: str
    cdnUrl: str


def _terms(items) -> list[TermRefOut]:
    return [TermRefOut(id=str(item.id), name=item.name, slug=item.slug) for item in items]


def _author(post, urls) -> AuthorOut | None:
    return AuthorOut(**author_fields_of(post.author)) if post.author else None


def _image(image, urls) -> FeaturedImageOut | None:
    if image is None:
        return None
    urls = urls or media_urls()
    return FeaturedImageOut(id=str(image.id), spacesKey=image.storage_key, altText=image.alt_text or "",
                            link=urls.link(image.storage_key), cdnUrl=urls.cdn(image.storage_key))


# The fields of apps.content.post_fields built from joins, from ORM objects: (type, value of a post).
_JOINED = {
    "author": (AuthorOut | None, _author),
    "categories": (list[TermRefOut], lambda post, urls: _terms(post.categories.all())),
    "tags": (list[TermRefOut], lambda post, urls: _terms(post.tags.all())),
    "featured_image": (FeaturedImageOut | None, lambda post, urls: _image(post.featured_image, urls)),
    "og_image": (FeaturedImageOut | None, lambda post, urls: _image(post.og_image, urls)),
    "twitter_image": (FeaturedImageOut | None, lambda post, urls: _image(post.twitter_image, urls)),
    "scheduled": (bool, lambda post, urls: post.is_scheduled),
}


def _annotations(fields) -> dict:
    return {field.name: _JOINED[field.kind][0] if field.column is None else field.type for field in fields}


def _values(post, fields, urls) -> dict:
    return {field.name: _JOINED[field.kind][1](post, urls) if field.column is None
            else field.from_column(getattr(post, field.column)) for field in fields}


class PostSummaryOut(OutSchema):
    # The fields, their order and types: apps.content.post_fields.SUMMARY.
    __annotations__ = _annotations(post_fields.SUMMARY)

    @staticmethod
    def fields_of(post, urls=None) -> dict:
        """Needs author, featured_image (select_related) and categories, tags (prefetched).
        `urls`: a media_urls() shared by every post of one response."""
        return _values(post, post_fields.SUMMARY, urls)

    @classmethod
    def from_post(cls, post, urls=None) -> "PostSummaryOut":
        return cls(**cls.fields_of(post, urls))

    @classmethod
    def many(cls, posts) -> list["PostSummaryOut"]:
        urls = media_urls() if any(post.featured_image_id for post in posts) else None
        return [cls.from_post(post, urls) for post in posts]


class PostOut(PostSummaryOut):
    # The summary's fields, then apps.content.post_fields.DETAIL.
    __annotations__ = _annotations(post_fields.DETAIL)

    @classmethod
    def from_post(cls, post, urls=None) -> "PostOut":
        return cls(**PostSummaryOut.fields_of(post, urls), **_values(post, post_fields.DETAIL, urls))


class TermTranslationOut(OutSchema):
    name: str
    slug: str


def _term_translations(term) -> dict:
    translations = getattr(term, "translations", None)
    return {"translations": translations} if translations else {}


class CategoryOut(OutSchema):
    id: str
    name: str
    slug: str
    description: str
    postCount: int
    # (+) its name and slug per language, when it has any (docs/translations.md)
    translations: dict[str, TermTranslationOut] = omitted(description="Its name and slug in other languages")

    @staticmethod
    def from_category(category) -> "CategoryOut":
        return CategoryOut(
            id=str(category.id), name=category.name, slug=category.slug, description=category.description,
            postCount=getattr(category, "post_count", 0), **_term_translations(category),
        )


class TagOut(OutSchema):
    id: str
    name: str
    slug: str
    postCount: int
    translations: dict[str, TermTranslationOut] = omitted(description="Its name and slug in other languages")

    @staticmethod
    def from_tag(tag) -> "TagOut":
        return TagOut(id=str(tag.id), name=tag.name, slug=tag.slug, postCount=getattr(tag, "post_count", 0),
                      **_term_translations(tag))
