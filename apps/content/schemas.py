"""Ninja schemas of the content app: the wire shapes of docs/api/index.md (camelCase), and the input
schemas carrying the spec's validation messages (spec §5). The shapes the public API shares (a post,
its author, images and terms) are apps.content.post_schemas', re-exported here; the rest is the
dashboard's, which a content web process does not import."""
from __future__ import annotations

import re
import unicodedata
from datetime import datetime, time, timezone as dt_timezone
from typing import Annotated, Literal
from urllib.parse import parse_qs, urlparse

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from pydantic import BeforeValidator, StrictBool, field_validator, model_validator

from apps.content import post_fields
from apps.content.models import POST_STATUSES
from apps.content.selectors import post_translations, preview_token
from apps.core.html import is_blank_html
from apps.core.languages import clean_code
from apps.core.languages import current as current_languages
from apps.core.schemas import InSchema, OutSchema, PaginationOut, SuccessOut, omitted, service_name
from apps.core.text import slugify
from apps.core.validation import OptionalDateTime, clean_required, clean_url, text

from apps.content.rules import (  # noqa: F401 - the field rules, re-exported for the schemas' users
    CATEGORIES_INVALID, CATEGORY_REQUIRED, CONTENT_REQUIRED, DATE_INVALID, EXCERPT_REQUIRED, FEATURED_REQUIRED,
    IMAGE_INVALID, NAME_REQUIRED, SEO_DESCRIPTION_REQUIRED, SEO_TITLE_REQUIRED, SLUG_REQUIRED, STATUS_INVALID,
    TAGS_INVALID, TITLE_REQUIRED, VIDEO_INVALID, MediaRef, clean_id_list, clean_max, clean_media_ref,
    clean_publish_date, clean_status, clean_video_id,
)
from apps.content.rules import POST_RULES, clean_canonical_url, clean_visibility
from apps.content.post_schemas import (  # noqa: F401 - the shared reply shapes, re-exported for the dashboard's users
    AuthorOut, CategoryOut, FeaturedImageOut, PostOut, PostSummaryOut, TagOut, TermRefOut, TermTranslationOut,
    _values, media_urls,
)


def _optional_text(value, label: str, maximum: int | None = None) -> str | None:
    if value is None:
        return None
    value = text(value, f"{label} must be text").strip()
    return clean_max(value, maximum, label) if maximum else value


def _review(post) -> dict:
    return {"reviewRequestedAt": post.review_requested_at, "reviewNote": post.review_note}


class TranslationOut(OutSchema):
    """(+) A translation of a post (docs/translations.md)."""

    id: str
    language: str
    slug: str
    title: str
    status: str
    isScheduled: bool


def _multilingual() -> bool:
    """The company writes in more than one language: posts show theirs (a company with one
    language gets the replies it always got)."""
    return not current_languages().single


def _language(post, *, translations: bool = False) -> dict:
    if not _multilingual():
        return {}
    found = {"language": post.language, "translationGroup": str(post.translation_group)}
    if translations:
        found["translations"] = [
            TranslationOut(id=str(other.pk), language=other.language, slug=other.slug, title=other.title,
                           status=other.status, isScheduled=other.is_scheduled)
            for other in post_translations(post)]
    return found


class DashboardPostSummaryOut(PostSummaryOut):
    """(+) A post in the dashboard's list: the summary and its review state (never public)."""

    reviewRequestedAt: datetime | None  # set while the post waits for review
    reviewNote: str  # the editor's note when the post was sent back
    # (+) Companies with more than one language only (docs/translations.md)
    language: str = omitted(description="The post's language (BCP 47)")
    translationGroup: str = omitted(description="The id shared by the post's translations")

    @classmethod
    def from_post(cls, post, urls=None) -> "DashboardPostSummaryOut":
        return cls(**PostSummaryOut.fields_of(post, urls), **_review(post), **_language(post))


class DashboardPostOut(PostOut):
    """(+) The full post on the dashboard API, with its review state (never public)."""

    reviewRequestedAt: datetime | None
    reviewNote: str
    # (+) Companies with more than one language only (docs/translations.md)
    language: str = omitted(description="The post's language (BCP 47)")
    translationGroup: str = omitted(description="The id shared by the post's translations")
    translations: list[TranslationOut] = omitted(description="Every post of its group, this one included")

    @classmethod
    def from_post(cls, post, urls=None) -> "DashboardPostOut":
        return cls(**PostSummaryOut.fields_of(post, urls), **_values(post, post_fields.DETAIL, urls), **_review(post),
                   **_language(post, translations=True))


class ReviewReturnIn(InSchema):
    note: str = ""

    @field_validator("note", mode="before")
    @classmethod
    def _note(cls, value):
        if not isinstance(value, str) or not value.strip():
            raise ValueError("Please write a note for the writer")
        if len(value.strip()) > REVIEW_NOTE_MAX:
            raise ValueError(f"The note must be at most {REVIEW_NOTE_MAX} characters")
        return value.strip()


REVIEW_NOTE_MAX = 2000


# --- replies (docs/api/index.md; keys in the order they are sent) ----------------------------------
class PostListOut(SuccessOut):
    posts: list[DashboardPostSummaryOut]
    page: int
    limit: int
    totalPosts: int
    pagination: PaginationOut


class PostReplyOut(SuccessOut):
    """GET posts/{id}"""

    post: DashboardPostOut


class PostSavedOut(SuccessOut):
    """POST posts/upload (201), PUT posts/{id}"""

    message: str
    post: DashboardPostOut


class PostBySlugOut(PostOut, SuccessOut):
    """GET posts/slug/{slug}: the Post object at the top level, `success` first."""


class CategoryListOut(SuccessOut):
    categories: list[CategoryOut]


class CategoryReplyOut(SuccessOut):
    category: CategoryOut


class CategorySavedOut(SuccessOut):
    message: str
    category: CategoryOut


class TagListOut(SuccessOut):
    tags: list[TagOut]
    pagination: PaginationOut
    total: int


class TagReplyOut(SuccessOut):
    tag: TagOut


class TagSavedOut(SuccessOut):
    message: str
    tag: TagOut


class SearchResultsOut(OutSchema):
    posts: list[PostSummaryOut]
    categories: list[CategoryOut]
    tags: list[TagOut]


class SearchOut(SuccessOut):
    query: str  # (+) the query as searched (trimmed)
    results: SearchResultsOut


# --- input: field types (each rule and its message once; create and update share them) ----------
def _content(value) -> str:
    value = text(value, CONTENT_REQUIRED)
    if is_blank_html(value):
        raise ValueError(CONTENT_REQUIRED)
    return value


def _category_ids(value) -> list[str]:
    ids = clean_id_list(value, CATEGORIES_INVALID)
    if not ids:
        raise ValueError(CATEGORY_REQUIRED)
    return ids


def _featured(value) -> str:
    value = clean_media_ref(value, FEATURED_REQUIRED)
    if not value:
        raise ValueError(FEATURED_REQUIRED)
    return value


def _trimmed(label: str, maximum: int):
    return lambda value: clean_max(text(value, f"{label} must be text").strip(), maximum, label)


# `X | None` of these (an update, or an optional key): null means "not sent", nothing is checked.
PostTitle = Annotated[str, BeforeValidator(POST_RULES["title"].clean)]
PostContent = Annotated[str, BeforeValidator(_content)]
PostExcerpt = Annotated[str, BeforeValidator(lambda value: clean_required(value, EXCERPT_REQUIRED))]
CustomSlug = Annotated[str, BeforeValidator(POST_RULES["custom_slug"].clean)]
PostStatusIn = Annotated[str, BeforeValidator(lambda value: clean_status(value))]
CategoryIds = Annotated[list[str], BeforeValidator(_category_ids)]
TagIds = Annotated[list[str], BeforeValidator(lambda value: clean_id_list(value, TAGS_INVALID))]
FeaturedRef = Annotated[MediaRef, BeforeValidator(_featured)]
PostVisibility = Annotated[Literal["public", "members"], BeforeValidator(clean_visibility)]
SeoTitle = Annotated[str, BeforeValidator(
    lambda value: POST_RULES["meta_title"].clean(clean_required(value, SEO_TITLE_REQUIRED)))]
SeoDescription = Annotated[str, BeforeValidator(lambda value: clean_required(value, SEO_DESCRIPTION_REQUIRED))]
CanonicalUrl = Annotated[str, BeforeValidator(clean_canonical_url)]
FocusKeyword = Annotated[str, BeforeValidator(POST_RULES["focus_keyword"].clean)]
PublishDate = Annotated[datetime | None, BeforeValidator(clean_publish_date)]
VideoId = Annotated[str, BeforeValidator(clean_video_id)]
TermName = Annotated[str, BeforeValidator(lambda value: _clean_name(value))]
TermSlug = Annotated[str, BeforeValidator(lambda value: _clean_term_slug(value))]
TermDescription = Annotated[str, BeforeValidator(_trimmed("Description", 2000))]


# --- input: posts --------------------------------------------------------------------------------
def _clean_language(value) -> str | None:
    return None if value is None else clean_code(value)


Language = Annotated[str | None, BeforeValidator(_clean_language)]


class TranslationIn(InSchema):
    """(+) POST posts/{id}/translations: the language of the new translation."""

    language: Language = None

    @model_validator(mode="after")
    def _required(self):
        if self.language is None:
            raise ValueError("Choose the language of the translation")
        return self


class SeoMetadataIn(InSchema):
    """Absent (or null) title/description default to the post's title/excerpt; a title or
    description sent as an empty string is refused with the spec's message."""

    title: SeoTitle | None = None
    description: SeoDescription | None = None
    canonicalUrl: CanonicalUrl = ""
    focusKeyword: FocusKeyword = ""


class _SocialFields(InSchema):
    """(+) Open Graph and Twitter card fields, optional on create and update."""

    ogTitle: str | None = None
    ogDescription: str | None = None
    ogImageId: MediaRef | None = None
    twitterTitle: str | None = None
    twitterDescription: str | None = None
    twitterImageId: MediaRef | None = None

    @field_validator("ogTitle", "twitterTitle", mode="before")
    @classmethod
    def _social_title(cls, value, info):
        return None if value is None else POST_RULES["og_title" if info.field_name == "ogTitle" else "twitter_title"].clean(value)

    @field_validator("ogDescription", "twitterDescription", mode="before")
    @classmethod
    def _social_description(cls, value, info):
        name = "og_description" if info.field_name == "ogDescription" else "twitter_description"
        return None if value is None else POST_RULES[name].clean(value)

    @field_validator("ogImageId", "twitterImageId", mode="before")
    @classmethod
    def _social_image(cls, value):
        return None if value is None else clean_media_ref(value)


class PostCreateIn(_SocialFields):
    # Field order is the order of the spec's checks: the first failing one is the message.
    postTitle: PostTitle = ""
    postContent: PostContent = ""
    postExcerpt: PostExcerpt = ""
    customSlug: CustomSlug = ""
    postStatus: PostStatusIn = "draft"
    categories: CategoryIds = []
    tags: TagIds = []
    featuredMediaId: FeaturedRef = ""
    seoMetadata: SeoMetadataIn | None = None
    allowIndexing: StrictBool = True  # JSON true/false only (0.0 or "no" were read as false)
    scheduledPublishDate: PublishDate = None
    videoId: VideoId = ""
    language: Language = None  # (+) one of the company's languages; its default when absent
    featured: StrictBool = False  # (+) an editorial mark (docs/content.md#featured-posts)
    visibility: PostVisibility = "public"  # (+) members: the body for members only (docs/content.md#members-only-posts)

    @field_validator("allowIndexing", mode="before")
    @classmethod
    def _indexing(cls, value):
        return True if value is None else value

    @field_validator("featured", mode="before")
    @classmethod
    def _featured(cls, value):
        return False if value is None else value

    @field_validator("visibility", mode="before")
    @classmethod
    def _visibility(cls, value):
        return "public" if value is None else value

    @model_validator(mode="after")
    def _seo_defaults(self):
        if self.seoMetadata is None:
            self.seoMetadata = SeoMetadataIn()
        return self

    def service_kwargs(self) -> dict:
        seo = self.seoMetadata
        return {
            "title": self.postTitle,
            "content": self.postContent,
            "excerpt": self.postExcerpt,
            "custom_slug": self.customSlug,
            "status": self.postStatus,
            "category_ids": self.categories,
            "tag_ids": self.tags,
            "featured_image_id": self.featuredMediaId,
            "allow_indexing": self.allowIndexing,
            "scheduled_publish_date": self.scheduledPublishDate,
            "video_id": self.videoId,
            "meta_title": seo.title if seo.title is not None else self.postTitle,
            "meta_description": seo.description if seo.description is not None else self.postExcerpt,
            "canonical_url": seo.canonicalUrl,
            "focus_keyword": seo.focusKeyword,
            "og_title": self.ogTitle or "",
            "og_description": self.ogDescription or "",
            "og_image_id": self.ogImageId or None,
            "twitter_title": self.twitterTitle or "",
            "twitter_description": self.twitterDescription or "",
            "twitter_image_id": self.twitterImageId or None,
            "language": self.language,
            "featured": self.featured,
            "visibility": self.visibility,
        }


_RENAMED = {"categories": "category_ids", "tags": "tag_ids"}
_CLEARABLE = {"scheduledPublishDate", "videoId", "ogImageId", "twitterImageId"}  # null clears them
_NULL_IS_BLANK = {"videoId", "ogTitle", "ogDescription", "twitterTitle", "twitterDescription", "focusKeyword"}
_NOT_COPIED = {"featuredImage", "featuredMediaId", "baseUpdatedAt"}  # read by service_kwargs itself


class PostUpdateIn(_SocialFields):
    """Partial: a key left out keeps its value. Title, content, excerpt, SEO title and SEO
    description cannot be emptied; categories cannot become empty; the featured image can be
    replaced, not removed."""

    title: PostTitle | None = None
    content: PostContent | None = None
    excerpt: PostExcerpt | None = None
    customSlug: CustomSlug | None = None
    status: PostStatusIn | None = None
    categories: CategoryIds | None = None
    tags: TagIds | None = None
    featuredImage: FeaturedRef | None = None
    # (+) The post's updatedAt when the editor opened it: a save made from an older copy gets 409.
    baseUpdatedAt: OptionalDateTime = None
    featuredMediaId: FeaturedRef | None = None  # (+) the create payload's name, accepted too
    metaTitle: SeoTitle | None = None
    metaDescription: SeoDescription | None = None
    canonicalUrl: CanonicalUrl | None = None
    focusKeyword: FocusKeyword | None = None
    allowIndexing: StrictBool | None = None
    scheduledPublishDate: PublishDate = None
    videoId: VideoId | None = None
    language: Language = None  # (+) move the post to another of the company's languages
    featured: StrictBool | None = None  # (+) feature the post, or no longer
    visibility: PostVisibility | None = None  # (+) public, or members (the body for members only); null: kept

    def service_kwargs(self) -> dict:
        """Only the keys the caller sent, under the service's names (null counts as sent for
        the clearable fields: scheduledPublishDate, videoId, og/twitter images)."""
        changes = {}
        for key in self.model_fields_set - _NOT_COPIED:
            value = getattr(self, key)
            if value is None and key not in _CLEARABLE:
                continue
            if key in _NULL_IS_BLANK:
                value = value or ""
            if key in {"ogImageId", "twitterImageId"}:
                value = value or None
            changes[service_name(key, _RENAMED)] = value
        image = self.featuredImage if self.featuredImage is not None else self.featuredMediaId
        if image is not None:
            changes["featured_image_id"] = image
        if self.baseUpdatedAt is not None:
            changes["base_updated_at"] = self.baseUpdatedAt
        return changes


# A page's categories (apps.content.kinds: none needed), checked as a post's otherwise.
PageCategoryIds = Annotated[list[str], BeforeValidator(lambda value: clean_id_list(value, CATEGORIES_INVALID))]


class PageCreateIn(PostCreateIn):
    """(+) POST pages: a post's create payload; `categories` may be left out or empty."""

    categories: PageCategoryIds = []


class PageUpdateIn(PostUpdateIn):
    """(+) PUT pages/{id}: a post's update payload; `categories` may become empty."""

    categories: PageCategoryIds | None = None


# --- input: categories and tags ------------------------------------------------------------------
def _clean_name(value) -> str:
    return clean_max(clean_required(value, NAME_REQUIRED), 100, "Name")


def _clean_term_slug(value) -> str:
    raw = clean_required(value, SLUG_REQUIRED)
    slug = slugify(raw, allow_unicode=True)
    if not slug:
        raise ValueError("Slug must contain letters or numbers")
    return clean_max(slug, 120, "Slug")


TERM_TRANSLATIONS_INVALID = "Translations must map language codes to a name (and an optional slug)"


def clean_term_translations(value) -> dict | None:
    """{"fr": {"name": "Actualités", "slug": "actualites"}}: codes in their usual case, each name
    checked as a name, each slug as a slug (made from the name when absent). The company's
    languages are checked by the service."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError(TERM_TRANSLATIONS_INVALID)
    cleaned = {}
    for code, entry in value.items():
        if not isinstance(entry, dict):
            raise ValueError(TERM_TRANSLATIONS_INVALID)
        name = _clean_name(entry.get("name"))
        # A slug made from the name keeps its letters without their accents (Actualités -> actualites).
        source = entry.get("slug") or "".join(
            c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
        cleaned[clean_code(code)] = {"name": name, "slug": _clean_term_slug(source)}
    return cleaned


TermTranslations = Annotated[dict | None, BeforeValidator(clean_term_translations)]


class CategoryIn(InSchema):
    name: TermName = ""
    slug: TermSlug = ""
    description: TermDescription = ""
    translations: TermTranslations = None  # (+) docs/translations.md


class CategoryUpdateIn(InSchema):
    """As add; a key left out keeps its value."""

    name: TermName | None = None
    slug: TermSlug | None = None
    description: TermDescription | None = None
    translations: TermTranslations = None  # (+) replaces them all when given


class TagIn(InSchema):
    name: TermName = ""
    slug: TermSlug = ""
    translations: TermTranslations = None  # (+) docs/translations.md


class TagUpdateIn(InSchema):
    name: TermName | None = None
    slug: TermSlug | None = None
    translations: TermTranslations = None  # (+) replaces them all when given


# --- revisions -----------------------------------------------------------------------------------
# A revision's fields under their wire names (apps.content.services.REVISION_FIELDS).
_REVISION_NAMES = {
    "title": "title", "content": "content", "excerpt": "excerpt", "slug": "slug", "custom_slug": "customSlug",
    "status": "status", "publish_scheduled": "isScheduled", "scheduled_publish_date": "scheduledPublishDate",
    "published_at": "publishedAt", "allow_indexing": "allowIndexing", "video_id": "videoId",
    "meta_title": "metaTitle", "meta_description": "metaDescription", "canonical_url": "canonicalUrl",
    "focus_keyword": "focusKeyword", "og_title": "ogTitle", "og_description": "ogDescription",
    "twitter_title": "twitterTitle", "twitter_description": "twitterDescription",
    "featured_image_id": "featuredImageId", "og_image_id": "ogImageId", "twitter_image_id": "twitterImageId",
    "category_ids": "categories", "tag_ids": "tags", "featured": "featured", "visibility": "visibility",
}


class RevisionAuthorOut(OutSchema):
    id: str
    username: str


class RevisionSummaryOut(OutSchema):
    id: str
    number: int
    action: str  # create | update | publish | unpublish | schedule | scheduled_publish | restore
    published: bool  # the post was live after this save (such revisions are always kept)
    author: RevisionAuthorOut | None  # null: the scheduler, or a deleted user
    createdAt: datetime

    @classmethod
    def from_revision(cls, revision, **extra):
        author = revision.author
        return cls(id=str(revision.id), number=revision.number, action=revision.action,
                   published=revision.published, createdAt=revision.created_at,
                   author=RevisionAuthorOut(id=str(author.id), username=author.username) if author else None, **extra)


class RevisionOut(RevisionSummaryOut):
    snapshot: dict  # the post's editable fields as this save left them (categories and tags: ids)

    @classmethod
    def from_revision(cls, revision, **extra):
        snapshot = {_REVISION_NAMES[name]: value for name, value in revision.data.items() if name in _REVISION_NAMES}
        return super().from_revision(revision, snapshot=snapshot, **extra)


class RevisionListOut(SuccessOut):
    """GET posts/{id}/revisions (+), newest first"""

    revisions: list[RevisionSummaryOut]
    pagination: PaginationOut


class RevisionReplyOut(SuccessOut):
    """GET posts/{id}/revisions/{rid} (+)"""

    revision: RevisionOut


# --- autosaved copies ----------------------------------------------------------------------------
class AutosaveIn(InSchema):
    fields: dict  # the editor's form values, kept as they are sent (the post is not changed)
    baseUpdatedAt: OptionalDateTime = None  # the post's updatedAt the copy was made from


class AutosaveOut(OutSchema):
    fields: dict
    baseUpdatedAt: datetime | None
    updatedAt: datetime

    @classmethod
    def from_autosave(cls, autosave):
        return cls(fields=autosave.data, baseUpdatedAt=autosave.base_updated_at, updatedAt=autosave.updated_at)


class AutosaveReplyOut(SuccessOut):
    """GET/PUT posts/{id}/autosave (+): the caller's own unsaved copy (null: none)"""

    autosave: AutosaveOut | None


# --- preview links -------------------------------------------------------------------------------
class PreviewLinkOut(OutSchema):
    id: str
    status: str  # active | expired | revoked
    token: str | None  # null once the link no longer works
    url: str | None  # the public API address that reads the post with the content key (x-api-key)
    createdBy: RevisionAuthorOut | None
    createdAt: datetime
    expiresAt: datetime
    revokedAt: datetime | None

    @classmethod
    def from_link(cls, link, *, now: datetime, base_url: str):
        status = "revoked" if link.revoked_at else ("expired" if link.expires_at <= now else "active")
        token = preview_token(link.id) if status == "active" else None
        author = link.created_by
        return cls(id=str(link.id), status=status, token=token,
                   url=f"{base_url}/api/v1/preview/{token}" if token else None,
                   createdBy=RevisionAuthorOut(id=str(author.id), username=author.username) if author else None,
                   createdAt=link.created_at, expiresAt=link.expires_at, revokedAt=link.revoked_at)


class PreviewLinkListOut(SuccessOut):
    """GET posts/{id}/preview-links (+), newest first"""

    links: list[PreviewLinkOut]


class PreviewLinkSavedOut(SuccessOut):
    """POST posts/{id}/preview-links, DELETE posts/{id}/preview-links/{lid} (+)"""

    message: str
    link: PreviewLinkOut
