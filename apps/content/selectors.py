"""Reads of the content app. Each returns a QuerySet (or object) with the joins and prefetches
its output needs, so a list costs a fixed number of queries whatever its length.

The public content API has reads of its own (apps.public_api.selectors, one SQL statement a
page); it shares `search_matches` and the rules of apps.content.models: which posts are public
(`PostQuerySet.public`, `public_sql`) and the status filters (`STATUS_FILTERS`).
"""
from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import BooleanField, Count, F, Prefetch, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.core import signing
from django.utils import timezone

from apps.content import kinds
from apps.content.models import (PUBLIC_VISIBILITY, SEARCH_CONFIG, STATUS_FILTER_INVALID, STATUS_FILTERS, Category,
                                 Post, PostAutosave, PostRevision, PreviewLink, Tag, search_configs)
from apps.core.errors import NotFound, ValidationFailed
from apps.core.languages import LANGUAGE_INVALID, normalize
from apps.core.languages import current as current_languages
from apps.core.selectors import as_uuid, get_or_404
from apps.core.text import slug_lookup

POST_NOT_FOUND = "Post not found"
CATEGORY_NOT_FOUND = "Category not found"
TAG_NOT_FOUND = "Tag not found"

LIST_STATUSES = (*STATUS_FILTERS, "scheduled")  # the dashboard's list also shows the scheduled drafts
REVIEW_WAITING = "waiting"
REVIEW_FILTER_INVALID = "Review must be waiting"
DATE_RANGES = {"week": 7, "month": 30, "year": 365}
SEARCH_MIN_LENGTH = 2
SEARCH_LIMITS = {"posts": 10, "categories": 5, "tags": 5}
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


# --- posts ---------------------------------------------------------------------------------------
def post_queryset(*, with_content: bool = True) -> QuerySet[Post]:
    """Posts with author, featured image, categories and tags loaded (4 queries for any list)."""
    queryset = (
        Post.objects.select_related("author", "featured_image")
        .prefetch_related(
            Prefetch("categories", queryset=Category.objects.only("id", "name", "slug").order_by("name")),
            Prefetch("tags", queryset=Tag.objects.only("id", "name", "slug").order_by("name")),
        )
        .defer("search_vector")
    )
    # The full post (PostOut) also shows its OG and Twitter images.
    return queryset.select_related("og_image", "twitter_image") if with_content else queryset.defer(
        "content", "search_vector")


def search_condition(query: str) -> RawSQL:
    """Full-text match on title and content (every word, as a prefix: `djan` finds Django,
    `running` finds run) or a partial match anywhere in the title.

    Written as `id = ANY(ARRAY(<ids by title> UNION <ids by full text>))`: each branch is planned
    on its own and uses its GIN index (trigram / tsvector), and the ids are collected once. A
    plain `title LIKE .. OR search_vector @@ ..` makes PostgreSQL pick a sequential scan that
    de-TOASTs every row's tsvector (0.6 s at 10,000 posts instead of ~15 ms)."""
    sql, params = search_matches(query).query.get_compiler(using=Post.objects.db).as_sql()
    return RawSQL(f'"{Post._meta.db_table}"."id" = ANY(ARRAY({sql}))', params, output_field=BooleanField())


def search_matches(query: str, fields: tuple[str, ...] = ("id",), configs: tuple[str, ...] | None = None, *,
                   members_bodies: bool = True) -> QuerySet:
    """The posts a search matches (see search_condition), as `values(*fields)` of each index's
    matches, united: the fields come from the rows each index scan reads anyway. `configs`: the
    text search configurations of the languages searched (each post's vector is made with its
    language's: apps.content.models.search_config), OR'd; the company's languages' when None.
    `members_bodies=False` (a public search: apps.public_api): a members-only post is found by its
    title only, never by words of the body its reader does not get (TEXT_FOR_EVERYONE)."""
    by_title, by_text = search_parts(query, configs)
    matches = Post.objects.filter(by_title).order_by().values(*fields)
    if by_text is not None:
        by_body = Post.objects.filter(search_vector=by_text)
        if not members_bodies:
            by_body = by_body.filter(TEXT_FOR_EVERYONE)
        matches = matches.union(by_body.order_by().values(*fields))
    return matches


# The posts whose full text (title and body: Post.search_vector) a public search may match: a
# members-only post's body is its members' (docs/content.md#members-only-posts), and a match on it
# would tell a visitor which words it holds.
TEXT_FOR_EVERYONE = Q(visibility=PUBLIC_VISIBILITY)


def search_parts(query: str, configs: tuple[str, ...] | None = None) -> tuple[Q, SearchQuery | None]:
    """The two halves of a search (search_condition): a post matches when its title holds the
    query, or when its full text has every word of it as a prefix (the full-text query; None when
    the query has no word). `configs` as search_matches'."""
    query = query.strip()
    words = _WORD.findall(query.lower())[:16]
    return Q(title__icontains=query), (_prefix_query(words, configs or company_search_configs()) if words else None)


def company_search_configs() -> tuple[str, ...]:
    """The text search configurations of the languages of this request's company."""
    return search_configs(current_languages().codes)


def _prefix_query(words: list[str], configs: tuple[str, ...] = (SEARCH_CONFIG,)) -> SearchQuery:
    raw = " & ".join(f"{word}:*" for word in words)
    query = SearchQuery(raw, search_type="raw", config=configs[0])
    for config in configs[1:]:
        query = query | SearchQuery(raw, search_type="raw", config=config)
    return query


def _term_condition(relation: str, value: str) -> Q:
    """A category/tag filter given by id or by slug, as a semi-join on the link table (no
    duplicate rows, and a small plan whatever other filters are combined with it)."""
    value = value.strip()
    through = getattr(Post, relation).through
    term = "category" if relation == "categories" else "tag"
    term_id = as_uuid(value)
    if term_id is not None:
        links = through.objects.filter(**{f"{term}_id": term_id})
    else:
        links = through.objects.filter(**{f"{term}__slug": value.lower()})
    return Q(id__in=links.values("post_id"))


def post_list(
    *,
    status: str | None = "all",
    search: str | None = None,
    category: str | None = None,
    tag: str | None = None,
    review: str | None = None,
    with_content: bool = False,
    language: str | None = None,
    missing: str | None = None,
    kind: str | kinds.Kind = kinds.POST,
) -> QuerySet[Post]:
    """The rows of one `kind` (posts, or pages: apps.content.kinds).
    `review="waiting"`: only the posts waiting for review, longest waiting first.
    `language`: the posts in that language; `missing`: the posts whose group has no translation
    in that language (with `language`, e.g. the English posts not translated to French)."""
    status = (status or "all").strip().lower()
    if status not in LIST_STATUSES:
        raise ValidationFailed(STATUS_FILTER_INVALID, field="status")
    queryset = post_queryset(with_content=with_content).of_kind(kind)
    if language is not None and language.strip():
        queryset = queryset.filter(language=_list_language(language, "language"))
    if missing is not None and missing.strip():
        code = _list_language(missing, "missing")
        queryset = queryset.exclude(language=code).exclude(
            translation_group__in=Post.objects.filter(language=code).values("translation_group"))
    if status == "scheduled":
        queryset = queryset.filter(status=Post.Status.DRAFT, publish_scheduled=True)
    elif status != "all":
        queryset = queryset.filter(status=status)
    if search and search.strip():
        queryset = queryset.filter(search_condition(search))
    if category and category.strip():
        queryset = queryset.filter(_term_condition("categories", category))
    if tag and tag.strip():
        queryset = queryset.filter(_term_condition("tags", tag))
    review = (review or "").strip().lower()
    if review:
        if review != REVIEW_WAITING:
            raise ValidationFailed(REVIEW_FILTER_INVALID, field="review")
        return queryset.filter(review_requested_at__isnull=False).order_by("review_requested_at", "id")
    return queryset.order_by("-created_at", "-id")


def _list_language(value: str, field: str) -> str:
    code = normalize(value)
    if code is None:
        raise ValidationFailed(LANGUAGE_INVALID, field=field)
    return code


def post_translations(post: Post) -> list[Post]:
    """Every post of the post's translation group (itself included), by language."""
    return list(Post.objects.filter(translation_group=post.translation_group)
                .only("id", "language", "slug", "title", "status", "publish_scheduled").order_by("language"))


def post_get(post_id, *, kind: str | kinds.Kind | None = kinds.POST) -> Post:
    """A row of `kind` by id (a page's id asked for as a post's, or the other way round: 404);
    `kind=None`: a post or a page (what works on either, e.g. a machine translation)."""
    if kind is None:
        return get_or_404(post_queryset(), post_id, POST_NOT_FOUND)
    kind = kinds.of(kind)
    return get_or_404(post_queryset().of_kind(kind), post_id, kind.not_found)


def post_get_by_slug(slug: str, *, published_only: bool = False, kind: str | kinds.Kind = kinds.POST) -> Post:
    kind = kinds.of(kind)
    queryset = post_queryset().of_kind(kind).filter(slug=slug_lookup(slug))  # percent-encoded or not
    if published_only:
        queryset = queryset.public()
    post = queryset.first()
    if post is None:
        raise NotFound(kind.not_found)
    return post


# --- categories and tags -------------------------------------------------------------------------
def category_list() -> QuerySet[Category]:
    return Category.objects.annotate(post_count=Count("posts")).order_by("name", "id")


def category_get(category_id) -> Category:
    return get_or_404(category_list(), category_id, CATEGORY_NOT_FOUND)


def tag_list(*, search: str | None = None) -> QuerySet[Tag]:
    queryset = Tag.objects.annotate(post_count=Count("posts"))
    if search and search.strip():
        queryset = queryset.filter(Q(name__icontains=search.strip()) | Q(slug__icontains=search.strip()))
    return queryset.order_by("name", "id")


def tag_get(tag_id) -> Tag:
    return get_or_404(tag_list(), tag_id, TAG_NOT_FOUND)


def term_slug_q(slug: str, language: str | None = None) -> Q:
    """A category or tag of this slug: its own, or (with `language`) its slug in that language
    (docs/translations.md; the public API's statements write the same rule in SQL)."""
    found = Q(slug=slug)
    return found | Q(**{f"translations__{language}__slug": slug}) if language else found


def term_by_slug(model, slug: str, language: str | None = None):
    """The category or tag (`model`) of this slug, or None. With `language`: the one whose slug in
    that language it is first (translated slugs are not unique), then the one whose own slug it is."""
    if language:
        translated = model.objects.filter(**{f"translations__{language}__slug": slug}).order_by("name", "id").first()
        if translated is not None:
            return translated
    return model.objects.filter(slug=slug).first()


# --- GET /api/search -----------------------------------------------------------------------------
SEARCH_TYPES = ("posts", "categories", "tags")
_TYPE_ALIASES = {"post": "posts", "posts": "posts", "category": "categories", "categories": "categories",
                 "tag": "tags", "tags": "tags"}


def parse_search_types(types: str | None) -> tuple[str, ...]:
    raw = [part.strip().lower() for part in (types or "").split(",") if part.strip()]
    if not raw or "all" in raw:
        return SEARCH_TYPES
    chosen = []
    for part in raw:
        if part not in _TYPE_ALIASES:
            raise ValidationFailed("Types must be posts, categories, tags or all", field="types")
        if _TYPE_ALIASES[part] not in chosen:
            chosen.append(_TYPE_ALIASES[part])
    return tuple(chosen)


def content_search(*, query: str | None, types: str | None = None, status: str | None = None,
                   date_range: str | None = None) -> dict[str, list]:
    """Posts (best match first, then newest), categories and tags matching `query`, with the
    spec's limits (10 posts, 5 categories, 5 tags). Status and date range filter posts only."""
    query = (query or "").strip()
    if len(query) < SEARCH_MIN_LENGTH:
        raise ValidationFailed(f"Search query must be at least {SEARCH_MIN_LENGTH} characters", field="q")
    chosen = parse_search_types(types)
    status = (status or "all").strip().lower()
    if status not in STATUS_FILTERS:
        raise ValidationFailed(STATUS_FILTER_INVALID, field="status")
    date_range = (date_range or "").strip().lower()
    if date_range and date_range not in DATE_RANGES and date_range != "all":
        raise ValidationFailed("Date range must be week, month or year", field="dateRange")

    results: dict[str, list] = {"posts": [], "categories": [], "tags": []}
    if "posts" in chosen:
        # the kinds a search finds (apps.content.kinds: posts; pages are not among them)
        posts = post_queryset(with_content=False).having("in_search").filter(search_condition(query))
        if status != "all":
            posts = posts.filter(status=status)
        if date_range in DATE_RANGES:
            posts = posts.filter(created_at__gte=timezone.now() - timedelta(days=DATE_RANGES[date_range]))
        words = _WORD.findall(query.lower())[:16]
        if words:
            posts = posts.annotate(rank=SearchRank(F("search_vector"), _prefix_query(words)))
            posts = posts.order_by("-rank", "-created_at", "-id")
        else:
            posts = posts.order_by("-created_at", "-id")
        results["posts"] = list(posts[: SEARCH_LIMITS["posts"]])
    term_match = Q(name__icontains=query) | Q(slug__icontains=query)
    if "categories" in chosen:
        results["categories"] = list(category_list().filter(term_match)[: SEARCH_LIMITS["categories"]])
    if "tags" in chosen:
        results["tags"] = list(tag_list().filter(term_match)[: SEARCH_LIMITS["tags"]])
    return results


# --- revisions -----------------------------------------------------------------------------------
REVISION_NOT_FOUND = "Revision not found"


def revision_list(post) -> QuerySet:
    """A post's revisions, newest first, with their authors."""
    return PostRevision.objects.filter(post=post).select_related("author").defer("data").order_by("-number")


def revision_get(post, revision_id):
    return get_or_404(PostRevision.objects.filter(post=post).select_related("author"), revision_id,
                      REVISION_NOT_FOUND)


# --- autosaved copies ----------------------------------------------------------------------------
def autosave_get(*, user, post, kind: str | kinds.Kind = kinds.POST) -> PostAutosave | None:
    """The user's own unsaved copy of `post` (None: of the `kind` not created yet), if any."""
    kind = post.kind if post is not None else kinds.of(kind).name
    return PostAutosave.objects.filter(post=post, user=user, kind=kind).first()


# --- preview links -------------------------------------------------------------------------------
PREVIEW_LINK_NOT_FOUND = "Preview link not found"
PREVIEW_NOT_FOUND = "Preview not found"
_PREVIEW_SALT = "content.preview-link"


def preview_token(link_id) -> str:
    """The token of a preview link: its id signed with the secret key (so it can be shown again
    from the id, while the database keeps only its hash)."""
    return signing.Signer(salt=_PREVIEW_SALT).sign(link_id.hex)


def preview_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def preview_link_list(post) -> QuerySet:
    return PreviewLink.objects.filter(post=post).select_related("created_by").order_by("-created_at")


def preview_link_get(post, link_id) -> PreviewLink:
    return get_or_404(PreviewLink.objects.filter(post=post).select_related("created_by"), link_id,
                      PREVIEW_LINK_NOT_FOUND)


def preview_post_id(token: str):
    """The id of the post a preview token reads: a forged, revoked or expired token (or one of
    another company, whose hash is not in this schema) is NotFound."""
    try:
        signing.Signer(salt=_PREVIEW_SALT).unsign(token or "")
    except signing.BadSignature:
        raise NotFound(PREVIEW_NOT_FOUND) from None
    post_id = (PreviewLink.objects.filter(token_hash=preview_token_hash(token), revoked_at__isnull=True,
                                          expires_at__gt=timezone.now())
               .values_list("post_id", flat=True).first())
    if post_id is None:
        raise NotFound(PREVIEW_NOT_FOUND)
    return post_id
