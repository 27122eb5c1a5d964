"""Posts, categories and tags (tenant schema).

Search: `Post.search_vector` is a stored generated column (title weighted A, content B, in the
text search configuration of the post's language: `search_config_sql`, e.g. english, french,
german, `simple` for languages PostgreSQL has no stemmer for; HTML tags are skipped by
PostgreSQL's text parser) with a GIN index, and
UPPER(title) has a pg_trgm GIN index (migration 0001) so `title__icontains` (partial matching) uses an index.
"""
from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import Func, Q
from django.db.models.functions import Upper

from apps.content import kinds

SEARCH_CONFIG = "english"  # the configuration of English, the language of a company that never chose
# PostgreSQL's text search configurations (its snowball stemmers), by primary language subtag.
SEARCH_CONFIGS = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "da": "danish", "nl": "dutch",
    "en": "english", "fi": "finnish", "fr": "french", "de": "german", "el": "greek", "hi": "hindi",
    "hu": "hungarian", "id": "indonesian", "ga": "irish", "it": "italian", "lt": "lithuanian", "ne": "nepali",
    "nb": "norwegian", "nn": "norwegian", "no": "norwegian", "pt": "portuguese", "ro": "romanian",
    "ru": "russian", "sr": "serbian", "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish",
    "yi": "yiddish",
}
FALLBACK_SEARCH_CONFIG = "simple"  # no stemming: words as written, lowercased


def search_config(language: str) -> str:
    """The text search configuration of a language code (its primary subtag's; else simple)."""
    return SEARCH_CONFIGS.get(language.split("-", 1)[0].lower(), FALLBACK_SEARCH_CONFIG)


def search_configs(languages) -> tuple[str, ...]:
    """The configurations of these languages, each once, in their order."""
    return tuple(dict.fromkeys(search_config(code) for code in languages))


class LanguageSearchConfig(Func):
    """The regconfig of a post's language, as a CASE over constants (`'french'::regconfig`): a
    generated column needs an immutable expression, which a text-to-regconfig cast is not."""

    def as_sql(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        whens = " ".join(f"WHEN '{code}' THEN '{config}'::regconfig" for code, config in SEARCH_CONFIGS.items())
        return (f"CASE split_part({column}, '-', 1) {whens} ELSE '{FALLBACK_SEARCH_CONFIG}'::regconfig END",
                params)


class TranslatedTerm:
    """What categories and tags share about their `translations` (docs/translations.md)."""

    def name_in(self, language: str | None) -> str:
        """Its name in `language` where it has one, else its own."""
        return ((self.translations or {}).get(language) or {}).get("name") or self.name if language else self.name


class Category(TranslatedTerm, models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    slug = models.CharField(max_length=120, unique=True)
    description = models.TextField(blank=True, default="")
    # Its name and slug in other languages (docs/translations.md): {"fr": {"name": ..., "slug": ...}}
    translations = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        indexes = [
            models.Index(Upper("name"), name="content_category_name_idx"),
            models.Index(fields=["-created_at"], name="content_category_created_idx"),
        ]

    def __str__(self) -> str:
        return self.name


class Tag(TranslatedTerm, models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    slug = models.CharField(max_length=120, unique=True)
    # Its name and slug in other languages (docs/translations.md): {"fr": {"name": ..., "slug": ...}}
    translations = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        indexes = [
            models.Index(Upper("name"), name="content_tag_name_idx"),
            models.Index(fields=["-created_at"], name="content_tag_created_idx"),
        ]

    def __str__(self) -> str:
        return self.name


class PostStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"
    ARCHIVED = "archived", "Archived"


# The statuses, in the order messages name them. A post's own status is one of POST_STATUSES;
# a list is filtered by one of STATUS_FILTERS (every status, or "all"); the dashboard's list also
# takes "scheduled" (drafts waiting for their publish date).
POST_STATUSES = tuple(PostStatus.values)  # draft, published, archived
STATUS_FILTERS = (PostStatus.PUBLISHED.value, PostStatus.DRAFT.value, PostStatus.ARCHIVED.value, "all")
STATUS_FILTER_INVALID = "Status must be one of " + ", ".join(STATUS_FILTERS)
# Which posts are public (a website, the public content API, published counts): this status only.
PUBLIC_STATUS = PostStatus.PUBLISHED


def public_sql(table: str) -> str:
    """The SQL condition of a public post of `table` (a quoted table name or an alias), as
    PostQuerySet.public() filters it. Written into the statement: it is a constant."""
    return f"{table}.status = '{PUBLIC_STATUS.value}'"


def public_q(prefix: str = "") -> Q:
    """Public posts as a Q, from a model that reaches the posts through `prefix` (e.g. "posts__")."""
    return Q(**{f"{prefix}status": PUBLIC_STATUS})


class PostQuerySet(models.QuerySet):
    def public(self) -> "PostQuerySet":
        """The posts a website may read (public_sql in raw statements)."""
        return self.filter(public_q())

    def of_kind(self, kind: "str | kinds.Kind") -> "PostQuerySet":
        """The rows of one content kind (apps.content.kinds): posts, or pages."""
        return self.filter(kind=kinds.of(kind).name)

    def having(self, flag: str) -> "PostQuerySet":
        """The rows of the kinds for which `flag` is true (apps.content.kinds.having): `in_feeds`..."""
        return self.filter(kind__in=kinds.having(flag))


# Who reads a post's body (Post.visibility; its rules: apps.content.rules.clean_visibility and
# body_for_reader, docs/content.md#members-only-posts).
PUBLIC_VISIBILITY, MEMBERS_VISIBILITY = "public", "members"
VISIBILITIES = (PUBLIC_VISIBILITY, MEMBERS_VISIBILITY)
VISIBILITY_CHOICES = [(PUBLIC_VISIBILITY, "Everyone"), (MEMBERS_VISIBILITY, "Members only")]


class Post(models.Model):
    Status = PostStatus
    objects = PostQuerySet.as_manager()

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # A post or a page (apps.content.kinds: what differs by kind is declared there). Set when the
    # row is made (a translation takes its source's), never changed by an edit.
    kind = models.CharField(max_length=8, choices=kinds.CHOICES, default=kinds.POST.name,
                            db_default=kinds.POST.name)
    title = models.CharField(max_length=500)
    # Unique per language (content_post_slug_language_uniq), whatever the kind: posts and pages
    # share one slug space (`/about` is a post or a page, not both); `launch` in English and in French.
    slug = models.CharField(max_length=255)
    # A BCP 47 code of the company's languages (apps.core.languages); a company that never chose
    # writes in English. The translations of one post share `translation_group` (a post alone is
    # its own group: the group is its id), at most one per language.
    language = models.CharField(max_length=35, default="en")
    translation_group = models.UUIDField(default=uuid.uuid4)
    # What the writer typed as the slug (the stored `slug` is derived from it, made unique).
    custom_slug = models.CharField(max_length=255, blank=True, default="")
    excerpt = models.TextField(blank=True, default="")
    content = models.TextField(blank=True, default="")  # sanitised HTML (apps.core.html)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    # A publish date. With `publish_scheduled` the post is waiting to be published at this
    # time by the scheduler (status stays draft until then).
    scheduled_publish_date = models.DateTimeField(null=True, blank=True)
    publish_scheduled = models.BooleanField(default=False)
    allow_indexing = models.BooleanField(default=True)
    # An editorial mark (a website's "featured" strip, Ghost's `featured`): set by whoever may edit
    # the post; the public lists take `?featured=true|false`.
    featured = models.BooleanField(default=False, db_default=False)
    # Who reads the post's body (docs/content.md#members-only-posts): everyone, or members only (its
    # title, excerpt and images stay public; its body goes to a request with a member's token of the
    # company: apps.content.rules.body_for_reader).
    visibility = models.CharField(max_length=8, choices=VISIBILITY_CHOICES, default=PUBLIC_VISIBILITY,
                                  db_default=PUBLIC_VISIBILITY)
    video_id = models.CharField(max_length=32, blank=True, default="")

    meta_title = models.CharField(max_length=500, blank=True, default="")
    meta_description = models.TextField(blank=True, default="")
    canonical_url = models.CharField(max_length=2000, blank=True, default="")
    focus_keyword = models.CharField(max_length=500, blank=True, default="")
    og_title = models.CharField(max_length=500, blank=True, default="")
    og_description = models.TextField(blank=True, default="")
    og_image = models.ForeignKey(
        "media.Media", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    twitter_title = models.CharField(max_length=500, blank=True, default="")
    twitter_description = models.TextField(blank=True, default="")
    twitter_image = models.ForeignKey(
        "media.Media", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    # PROTECT: the media library refuses (409) to delete an image that is a featured image.
    featured_image = models.ForeignKey(
        "media.Media", null=True, blank=True, on_delete=models.PROTECT, related_name="featured_in_posts"
    )
    author = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="posts"
    )
    categories = models.ManyToManyField(Category, related_name="posts", blank=True)
    tags = models.ManyToManyField(Tag, related_name="posts", blank=True)

    # Review (dashboard only, never in the public API): a writer marks a draft ready for review
    # (`review_requested_at`); an editor publishes it (which clears both) or sends it back with a
    # note (`review_note`, shown to the writer until the next request).
    review_requested_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True, default="")

    search_vector = models.GeneratedField(
        expression=SearchVector("title", weight="A", config=LanguageSearchConfig("language"))
        + SearchVector("content", weight="B", config=LanguageSearchConfig("language")),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = [
            # Every list is of one kind (posts, or pages): the kind leads each list's index.
            models.Index(fields=["kind", "-created_at"], name="content_post_created_idx"),
            # Lists of a status, newest first; the language and group ride along so that a list
            # along a fallback chain walks the index alone (apps.public_api.selectors._language_where).
            models.Index(fields=["kind", "status", "-created_at", "-id"], include=["language", "translation_group"],
                         name="content_post_status_idx"),
            # the Ghost-compatible browse orders by published_at, then id (apps.ghost_api.selectors)
            models.Index(fields=["kind", "status", "-published_at", "-id"], name="content_post_published_idx"),
            models.Index(fields=["author", "-created_at"], name="content_post_author_idx"),
            models.Index(
                fields=["scheduled_publish_date"], name="content_post_due_idx", condition=Q(publish_scheduled=True)
            ),
            GinIndex(fields=["search_vector"], name="content_post_search_idx"),
            models.Index(fields=["-review_requested_at"], name="content_post_review_idx",
                         condition=Q(review_requested_at__isnull=False)),
            # slug LIKE 'base-%' when finding the next free numeric suffix
            models.Index(fields=["slug"], name="content_post_slug_like_idx", opclasses=["varchar_pattern_ops"]),
            # content_post_title_trgm_idx: GIN (UPPER(title) gin_trgm_ops), created by SQL in
            # migration 0001 (OpClass in Meta needs django.contrib.postgres installed).
            # A language's lists (newest first), and a group's translations.
            models.Index(fields=["kind", "language", "status", "-created_at", "-id"], name="content_post_language_idx"),
            # The featured posts (a few), newest first: a `?featured=true` list (created_at) and Ghost's
            # `filter=featured:true` (published_at) read them without walking every post.
            models.Index(fields=["kind", "status", "-created_at", "-id"], name="content_post_featured_idx",
                         condition=Q(featured=True)),
            models.Index(fields=["kind", "status", "-published_at", "-id"], name="content_post_featured_pub_idx",
                         condition=Q(featured=True)),
        ]
        constraints = [
            models.UniqueConstraint(fields=["slug", "language"], name="content_post_slug_language_uniq"),
            # With the status: a list along a fallback chain asks "is this group published in
            # French?" of the index alone.
            models.UniqueConstraint(fields=["translation_group", "language"], include=["status"],
                                    name="content_post_group_language_uniq"),
            # A body is withheld for `members` and served for `public` only: no third value can be stored.
            # Written as equalities, not IN: PostgreSQL prints an IN list differently for a constraint
            # made by batch migration and by Django's executor (lifecycle's schema comparisons).
            models.CheckConstraint(condition=Q(visibility=VISIBILITIES[0]) | Q(visibility=VISIBILITIES[1]),
                                   name="content_post_visibility_valid"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_scheduled(self) -> bool:
        return self.publish_scheduled and self.status == self.Status.DRAFT


class PostRevision(models.Model):
    """A post as one save left it (apps.content.services.revision_record): who, when, which
    action, and every editable field. Kept: the newest CONTENT_REVISIONS_KEEP of a post and every
    one that left it published (apps.content.tasks.prune_revisions)."""

    class Action(models.TextChoices):
        CREATE = "create", "Created"
        UPDATE = "update", "Updated"
        PUBLISH = "publish", "Published"
        UNPUBLISH = "unpublish", "Unpublished"
        SCHEDULE = "schedule", "Scheduled"
        SCHEDULED_PUBLISH = "scheduled_publish", "Published on schedule"
        RESTORE = "restore", "Restored"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()  # 1, 2, ... per post
    action = models.CharField(max_length=32, choices=Action.choices)
    author = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    published = models.BooleanField(default=False)  # the post was live after this save
    data = models.JSONField()

    class Meta:
        ordering = ("post", "-number")
        constraints = [models.UniqueConstraint(fields=["post", "number"], name="content_revision_number_uniq")]


class PostAutosave(models.Model):
    """The editor's unsaved copy of a post, one per (post, user); `post` is null for a post not
    created yet (one per user and kind: a new page's copy is not a new post's). It never changes
    the post; saving the post clears it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    post = models.ForeignKey(Post, null=True, blank=True, on_delete=models.CASCADE, related_name="autosaves")
    kind = models.CharField(max_length=8, default=kinds.POST.name, db_default=kinds.POST.name)  # its post's
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="+")
    data = models.JSONField()  # the form's editable fields, as the dashboard sends them
    base_updated_at = models.DateTimeField(null=True, blank=True)  # the post's updatedAt it was made from
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["post", "user"], name="content_autosave_post_user_uniq",
                                    condition=Q(post__isnull=False)),
            models.UniqueConstraint(fields=["user", "kind"], name="content_autosave_new_post_uniq",
                                    condition=Q(post__isnull=True)),
        ]


class PreviewLink(models.Model):
    """A revocable, expiring link to read a draft or scheduled post through the public API
    (`GET /api/v1/preview/{token}`). The token is signed (apps.content.services.preview_token)
    and only its SHA-256 is looked up."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="preview_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = [models.Index(fields=["post", "-created_at"], name="content_preview_post_idx")]


class PostCount(models.Model):
    """How many posts have each status, kept by PostgreSQL itself: statement-level triggers on
    the posts table (migration 0003) add what every INSERT, UPDATE, DELETE or TRUNCATE changes,
    in the same transaction. The public content API reads a list's total from here (one row)
    instead of counting the posts (a scan that grows with them). Never written by the app."""

    status = models.CharField(max_length=16, primary_key=True)
    total = models.BigIntegerField(default=0)

    class Meta:
        db_table = "content_post_count"


class PostGroup(models.Model):
    """A translation group's lock row, kept by the posts table's listing triggers (migration
    0014): a statement that changes which posts of a group are published locks its groups' rows
    (in order) before it rewrites their listing rows, so two writers of one group take turns and
    the second reads what the first committed. Row locks, not advisory locks: an import's one
    statement may touch ten thousand groups. Never written by the app."""

    id = models.UUIDField(primary_key=True)

    class Meta:
        db_table = "content_post_group"


class PostListing(models.Model):
    """The published posts as a list along a fallback chain reads them (docs/translations.md),
    kept by PostgreSQL itself in the same transaction as every write (migration 0014): each
    published post with the languages its group is published in (in order) and their slugs.
    `?locale=fr` (fr -> en) shows a French post, and an English one whose group has no published
    French: with the group's languages in the row, a page walks this index alone, however deep,
    instead of looking up each English post's group (apps.public_api.selectors.
    _listed_language_where), and a post's `translations` are read from its row. Never written by
    the app, never backed up (lifecycle.backup: restoring the posts rebuilds it)."""

    post_id = models.UUIDField(primary_key=True)
    kind = models.CharField(max_length=8, default=kinds.POST.name)  # the post's (apps.content.kinds)
    created_at = models.DateTimeField()
    language = models.CharField(max_length=35)
    translation_group = models.UUIDField()
    group_published = ArrayField(models.CharField(max_length=35))
    # The slugs of those posts, language by language: a post's `translations` without a look-up.
    group_slugs = ArrayField(models.CharField(max_length=255))

    class Meta:
        db_table = "content_post_listing"
        indexes = [
            # A list's order (the posts table's) within a kind, the filter's columns in the index.
            models.Index(fields=["kind", "-created_at", "-post_id"], include=["language", "group_published"],
                         name="content_post_listing_order_idx"),
            models.Index(fields=["translation_group"], name="content_post_listing_group_idx"),
        ]
