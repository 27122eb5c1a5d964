"""Writes of the content app. Every write sanitises post HTML, checks the actor's role through
apps.core.permissions, runs in one transaction and publishes what it did as one domain event
(apps.core.events: the revision, audit log, content version, cache purges and webhooks follow).

Publishing rules:
- only roles with `post.publish` (editor, admin) may set status "published";
- "published" with a scheduledPublishDate in the future schedules the post: it stays a draft
  with `publish_scheduled` set until the scheduler (tasks.publish_scheduled_posts) publishes it;
- publishedAt is set the first time a post becomes published and kept afterwards;
- authors edit and delete their own posts only, and cannot change or delete a post once it is
  published or scheduled (`post.change_live`);
- a write to an object that a concurrent request deleted is 404 (rows are locked, then re-read);
- post slugs of one family (`launch`, `launch-2`, ...) are given out one transaction at a time
  (a transaction-scoped advisory lock), so parallel creates with one slug all succeed.
"""
from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.content import kinds
from apps.content.models import Category, Post, PostAutosave, PostRevision, PreviewLink, Tag
from apps.content.rules import FEATURED_REQUIRED, post_values
from apps.content.selectors import CATEGORY_NOT_FOUND, POST_NOT_FOUND, TAG_NOT_FOUND, preview_token, preview_token_hash
from apps.core import db, events
from apps.core.errors import Conflict, ErrorCode, NotFound, PermissionDenied, ValidationFailed
from apps.core.html import sanitize_html
from apps.core.permissions import can, require
from apps.core.text import slugify
from apps.plans.rules import plan_check, plan_release, plan_spend
from apps.media.models import Media
from apps.core import languages as company_languages

CANNOT_CREATE = "You don't have permission to create posts"
CANNOT_EDIT = "You don't have permission to edit this post"
CANNOT_DELETE = "You don't have permission to delete this post"
CANNOT_PUBLISH = "Authors cannot publish posts. Ask an editor or admin to publish it."
CANNOT_EDIT_PUBLISHED = "Authors cannot change a published post. Ask an editor or admin to make the change."
CANNOT_EDIT_SCHEDULED = "Authors cannot change a scheduled post. Ask an editor or admin to make the change."
CANNOT_DELETE_LIVE = "Authors cannot delete a published or scheduled post. Ask an editor or admin to remove it."
CANNOT_REVIEW = "Only editors and admins can send a post back from review"
REVIEW_ONLY_DRAFTS = "Only a draft that is not scheduled can be submitted for review"
NOT_WAITING = "This post is not waiting for review"
POST_SLUG_TAKEN = "A post with this slug already exists"
UNKNOWN_CATEGORIES = "One or more selected categories do not exist"
UNKNOWN_TAGS = "One or more selected tags do not exist"
UNKNOWN_FEATURED = "The featured image does not exist in the media library"
UNKNOWN_IMAGE = "The image does not exist in the media library"
CATEGORY_SLUG_TAKEN = "A category with this slug already exists"
# The category of a post whose writer names none (an import, the Ghost Admin API): posts need one.
DEFAULT_CATEGORY = ("Uncategorized", "uncategorized")
TAG_SLUG_TAKEN = "A tag with this slug already exists"
SLUG_MAX = 200
TRANSLATION_EXISTS = "This post already has a translation in that language"
SAME_LANGUAGE = "Choose a language other than the post's own"
TRANSLATIONS_EXIST = ("This post has translations. Delete them too (translations=delete) or make one of them the "
                      "default-language post (promote=<language>).")
PROMOTE_INVALID = "There is no translation of this post in that language"
_SLUG_SUFFIX = re.compile(r"-(\d+)$")


# --- helpers -------------------------------------------------------------------------------------
def _uuids(ids: list[str], message: str, field: str) -> list[uuid.UUID]:
    parsed = []
    for value in ids:
        try:
            parsed.append(uuid.UUID(str(value)))
        except (TypeError, ValueError) as exc:
            raise ValidationFailed(message, field=field) from exc
    return list(dict.fromkeys(parsed))


def _lock_existing(table: str, ids: list[uuid.UUID], message: str, field: str) -> list[uuid.UUID]:
    """Check every id exists, holding a KEY SHARE lock on the rows until commit so a concurrent
    delete of one of them waits for us (and then sees it in use) instead of racing."""
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT id FROM "{table}" WHERE id = ANY(%s) FOR KEY SHARE', [ids])
        found = {row[0] for row in cursor.fetchall()}
    if len(found) != len(ids):
        raise ValidationFailed(message, field=field)
    return ids


def _media_id(value: str | None, *, message: str, field: str) -> uuid.UUID | None:
    if not value:
        return None
    ids = _uuids([value], message, field)
    return _lock_existing(Media._meta.db_table, ids, message, field)[0]


def _unique_post_slug(source: str, *, language: str, exclude_id=None) -> str:
    """The spec's slug of `source`, with -2, -3, ... appended when another post of the language has it."""
    base = slugify(source, allow_unicode=True)[:SLUG_MAX].strip("-") or "post"
    taken = Post.objects.filter(slug__startswith=base, language=language)
    if exclude_id is not None:
        taken = taken.exclude(pk=exclude_id)
    slugs = set(taken.values_list("slug", flat=True))
    if base not in slugs:
        return base
    suffixes = [int(match.group(1)) for slug in slugs
                if slug.startswith(base + "-") and (match := _SLUG_SUFFIX.match(slug[len(base):]))]
    return f"{base}-{max([1, *suffixes]) + 1}"


def _lock_slug_family(base: str, language: str) -> None:
    """Hold, until this transaction ends, the lock of the slugs `base` can become (`base`,
    `base-2`, ...). The family is named by `base` without a numeric suffix, so `launch` and
    `launch-2` share one lock: a custom slug `launch-2` cannot race the second `launch`."""
    family = _SLUG_SUFFIX.sub("", base) or base
    db.company_lock("post-slug", language, family)


def _save_with_unique_slug(post: Post, source: str, *, force_insert: bool = False) -> None:
    """Save with the first free slug of `source`. Parallel saves of one family wait for each
    other (each sees the slugs the ones before it committed); the unique index stays the
    last word: a clash it still reports is retried, then answered 409, never 500."""
    _lock_slug_family(slugify(source, allow_unicode=True)[:SLUG_MAX].strip("-") or "post", post.language)
    for _attempt in range(5):
        post.slug = _unique_post_slug(source, language=post.language, exclude_id=None if force_insert else post.pk)
        try:
            with transaction.atomic():
                post.save(force_insert=force_insert)
            return
        except IntegrityError as exc:
            if _translation_taken(post):
                raise _translation_exists() from exc
            if not Post.objects.filter(slug=post.slug, language=post.language).exclude(pk=post.pk).exists():
                raise
            error = exc
    raise Conflict(POST_SLUG_TAKEN, errors=[{"field": "customSlug", "message": POST_SLUG_TAKEN}],
                   detail=ErrorCode.SLUG_TAKEN) from error


def _translation_taken(post: Post) -> bool:
    return Post.objects.filter(translation_group=post.translation_group, language=post.language).exclude(
        pk=post.pk).exists()


def _translation_exists() -> Conflict:
    return Conflict(TRANSLATION_EXISTS, errors=[{"field": "language", "message": TRANSLATION_EXISTS}],
                    detail=ErrorCode.TRANSLATION_EXISTS)


def _lock_group(group) -> None:
    """Hold, until this transaction ends, the lock of a translation group: two requests adding
    the same translation (or moving posts of one group between languages) wait for each other,
    the second then sees the first's row (409)."""
    db.company_lock("post-group", group)


def languages() -> company_languages.Languages:
    """The languages of the company of this request or task (apps.core.languages)."""
    return company_languages.current()


def _language(value: str | None) -> str:
    """A language of the company (its default when None); 400 otherwise."""
    offered = languages()
    if value is None:
        return offered.default
    code = company_languages.normalize(value)
    if code is None:
        raise ValidationFailed(company_languages.LANGUAGE_INVALID, field="language")
    if code not in offered.codes:
        raise ValidationFailed(company_languages.LANGUAGE_NOT_OFFERED, field="language")
    return code


def _locked(queryset, pk, message: str):
    """The row, locked until commit and read after any concurrent write to it committed; 404
    when a concurrent request deleted it meanwhile."""
    try:
        return queryset.select_for_update().get(pk=pk)
    except queryset.model.DoesNotExist as exc:
        raise NotFound(message) from exc


def _is_owner(actor, post: Post) -> bool:
    return post.author_id is not None and actor is not None and post.author_id == actor.pk


def _apply_status(post: Post, *, actor, status: str, now: datetime) -> None:
    if status == Post.Status.PUBLISHED:
        require(actor, "post.publish", CANNOT_PUBLISH)
        post.review_requested_at, post.review_note = None, ""  # reviewed: published or scheduled
        due = post.scheduled_publish_date
        if post.status != Post.Status.PUBLISHED and due is not None and due > now:
            post.status = Post.Status.DRAFT
            post.publish_scheduled = True
            return
        post.status = Post.Status.PUBLISHED
        post.publish_scheduled = False
        if post.published_at is None:
            post.published_at = now
        return
    post.status = status
    post.publish_scheduled = False


# --- posts ---------------------------------------------------------------------------------------
@transaction.atomic
def post_create(
    *,
    author,
    title: str,
    content: str,
    excerpt: str,
    category_ids: list[str],
    featured_image_id: str,
    status: str = Post.Status.DRAFT,
    custom_slug: str = "",
    tag_ids: list[str] | None = None,
    allow_indexing: bool = True,
    scheduled_publish_date: datetime | None = None,
    video_id: str = "",
    meta_title: str = "",
    meta_description: str = "",
    canonical_url: str = "",
    focus_keyword: str = "",
    og_title: str = "",
    og_description: str = "",
    og_image_id: str | None = None,
    twitter_title: str = "",
    twitter_description: str = "",
    twitter_image_id: str | None = None,
    language: str | None = None,
    kind: str | kinds.Kind = kinds.POST,
    featured: bool = False,
    visibility: str = "public",
    actor=None,
    featured_image_required: bool = True,
) -> Post:
    """`language`: one of the company's (its default when None); the post is its own translation group.
    `kind`: a post or a page (apps.content.kinds: a page needs no category). `tag_ids`: in the post's
    order (the first is Ghost's primary tag: _set_tags). `actor`: who writes it, when not its author
    (an integration writing through the Ghost Admin API for a member of the staff: its rights are
    checked and it is named in the post's events). `featured_image_required`: the dashboard editor's
    form asks for a featured image; a writer whose format has none (Ghost's posts) says False."""
    actor = author if actor is None else actor
    kind = kinds.of(kind)
    values = post_values({
        "title": title, "content": content, "excerpt": excerpt, "status": status or Post.Status.DRAFT,
        "custom_slug": custom_slug, "allow_indexing": allow_indexing, "featured": featured,
        "visibility": visibility, "scheduled_publish_date": scheduled_publish_date,
        "video_id": video_id, "meta_title": meta_title, "meta_description": meta_description,
        "canonical_url": canonical_url, "focus_keyword": focus_keyword, "og_title": og_title,
        "og_description": og_description, "twitter_title": twitter_title, "twitter_description": twitter_description,
    })
    language = _language(language)
    categories = _lock_existing(
        Category._meta.db_table, _uuids(category_ids, UNKNOWN_CATEGORIES, "categories"), UNKNOWN_CATEGORIES,
        "categories",
    )
    if not categories and kind.categories_required:
        raise ValidationFailed("At least one category is required", field="categories")
    tags = _lock_existing(Tag._meta.db_table, _uuids(tag_ids or [], UNKNOWN_TAGS, "tags"), UNKNOWN_TAGS, "tags")
    if not featured_image_id and featured_image_required:
        raise ValidationFailed(FEATURED_REQUIRED, field="featuredMediaId")
    status = values.pop("status")
    post = Post(
        kind=kind.name,
        language=language,
        author=author,
        **{**values, "content": sanitize_html(values["content"])},
        featured_image_id=_media_id(featured_image_id, message=UNKNOWN_FEATURED, field="featuredMediaId"),
        og_image_id=_media_id(og_image_id, message=UNKNOWN_IMAGE, field="ogImageId"),
        twitter_image_id=_media_id(twitter_image_id, message=UNKNOWN_IMAGE, field="twitterImageId"),
    )
    post.translation_group = post.id
    _apply_status(post, actor=actor, status=status, now=timezone.now())
    plan_spend("posts")
    _save_with_unique_slug(post, post.custom_slug or post.title, force_insert=True)
    post.categories.set(categories)
    _set_tags(post, tags)
    autosave_clear(user=actor, post=None, kind=kind)
    events.publish(events.PostChanged(post=post, before=None, after=_state(post), actor=actor))
    return post


_PLAIN_FIELDS = (
    "title", "excerpt", "allow_indexing", "featured", "scheduled_publish_date", "video_id", "meta_title", "meta_description",
    "canonical_url", "focus_keyword", "og_title", "og_description", "twitter_title", "twitter_description", "visibility",
)


def _check_can_change_live(actor, post: Post, *, published: str, scheduled: str) -> None:
    """A published or scheduled post is changed or deleted only with `post.change_live`."""
    if can(actor, "post.change_live"):
        return
    if post.status == Post.Status.PUBLISHED:
        raise PermissionDenied(published)
    if post.publish_scheduled:
        raise PermissionDenied(scheduled)


def _check_can_edit(actor, post: Post) -> None:
    if not can(actor, "post.edit_any"):
        if not (can(actor, "post.edit_own") and _is_owner(actor, post)):
            raise PermissionDenied(CANNOT_EDIT)
    _check_can_change_live(actor, post, published=CANNOT_EDIT_PUBLISHED, scheduled=CANNOT_EDIT_SCHEDULED)


def _check_not_stale(post: Post, base_updated_at: datetime | None) -> None:
    """A save made from an older copy of the post (its `updatedAt` when the editor opened it)
    is refused: nothing is silently overwritten."""
    def to_ms(value: datetime) -> datetime:  # replies carry times to the millisecond (Django's JSON encoder)
        return value.replace(microsecond=value.microsecond // 1000 * 1000)

    if base_updated_at is None or to_ms(post.updated_at) == to_ms(base_updated_at):
        return
    last = post.revisions.select_related("author").order_by("-number").first()
    who = last.author.username if last is not None and last.author is not None else "someone else"
    when = post.updated_at.strftime("%Y-%m-%d %H:%M UTC")
    raise Conflict(f"This post was changed by {who} at {when} since you opened it. Reload it or compare the "
                   "changes before saving.", detail=ErrorCode.EDIT_CONFLICT)


@transaction.atomic
def post_update(*, actor, post: Post, base_updated_at: datetime | None = None, action: str | None = None,
                featured_image_required: bool = True, **changes) -> Post:
    """Partial update: only the keyword arguments given change (names as in post_create).
    `base_updated_at`: the post's updatedAt the change was made from (409 when it moved on).
    `featured_image_required`: as post_create's (False: the featured image may be taken off)."""
    changes = post_values(changes)
    post = _locked(Post.objects.defer("search_vector"), post.pk, POST_NOT_FOUND)
    _check_can_edit(actor, post)
    _check_not_stale(post, base_updated_at)
    before = _state(post)
    terms_before = _term_ids(post) if before.public and {"category_ids", "tag_ids"} & changes.keys() else None
    language_before, slug_before, featured_before = post.language, post.slug, post.featured
    for name in _PLAIN_FIELDS:
        if name in changes:
            value = changes[name]
            setattr(post, name, value.strip() if isinstance(value, str) and name in {"title", "excerpt"} else value)
    if "content" in changes:
        post.content = sanitize_html(changes["content"])
    if "featured_image_id" in changes:
        post.featured_image_id = _media_id(
            changes["featured_image_id"], message=UNKNOWN_FEATURED, field="featuredImage"
        )
        if post.featured_image_id is None and featured_image_required:
            raise ValidationFailed(FEATURED_REQUIRED, field="featuredImage")
    for name, field in (("og_image_id", "ogImageId"), ("twitter_image_id", "twitterImageId")):
        if name in changes:
            setattr(post, name, _media_id(changes[name], message=UNKNOWN_IMAGE, field=field))
    categories = tags = None
    if "category_ids" in changes:
        categories = _lock_existing(
            Category._meta.db_table, _uuids(changes["category_ids"], UNKNOWN_CATEGORIES, "categories"),
            UNKNOWN_CATEGORIES, "categories",
        )
        if not categories and kinds.of(post.kind).categories_required:
            raise ValidationFailed("At least one category is required", field="categories")
    if "tag_ids" in changes:
        tags = _lock_existing(
            Tag._meta.db_table, _uuids(changes["tag_ids"] or [], UNKNOWN_TAGS, "tags"), UNKNOWN_TAGS, "tags"
        )

    now = timezone.now()
    if changes.get("status"):
        _apply_status(post, actor=actor, status=changes["status"], now=now)
    elif "scheduled_publish_date" in changes and post.publish_scheduled:
        # Moving the date of a scheduled post re-evaluates it (a past date publishes now).
        _apply_status(post, actor=actor, status=Post.Status.PUBLISHED, now=now)

    new_slug_source = (changes.get("custom_slug") or "").strip()
    new_language = _language(changes["language"]) if changes.get("language") else post.language
    if new_language != post.language:
        # Another language: one post per language in the group, the slug free in that language.
        _lock_group(post.translation_group)
        post.language = new_language
        if _translation_taken(post):
            raise _translation_exists()
        post.custom_slug = new_slug_source or post.custom_slug
        _save_with_unique_slug(post, post.custom_slug or post.slug)
    elif new_slug_source and slugify(new_slug_source, allow_unicode=True) != post.slug:
        post.custom_slug = new_slug_source
        _save_with_unique_slug(post, new_slug_source)
    else:
        if new_slug_source:
            post.custom_slug = new_slug_source
        post.save()
    if categories is not None:
        post.categories.set(categories)
    if tags is not None:
        _set_tags(post, tags)
    autosave_clear(user=actor, post=post)
    # A public post in another language, or with another slug that its translations' replies name,
    # or featured or no longer (the featured lists), is not where the cached replies have it
    # (apps.core.edge_cache: the company's replies are purged).
    moved = before.public and (post.language != language_before or post.featured != featured_before or (
        post.slug != slug_before and Post.objects.filter(translation_group=post.translation_group)
        .exclude(pk=post.pk).exists()))
    events.publish(events.PostChanged(
        post=post, before=before, after=_state(post), actor=actor, restored=action == PostRevision.Action.RESTORE,
        terms_changed=terms_before is not None and terms_before != _term_ids(post), moved=moved))
    return post


def _state(post: Post) -> events.PostState:
    return events.PostState(public=post.status == Post.Status.PUBLISHED, scheduled=post.is_scheduled)


def _term_ids(post: Post) -> tuple[set, list]:
    """Its categories, and its tags in its order (a new order is a new primary tag: _set_tags)."""
    return set(post.categories.values_list("pk", flat=True)), tag_ids_in_order(post.pk)


def tag_ids_in_order(post_id) -> list:
    """A post's tag ids in the post's order: the order its links were made in (_set_tags)."""
    return list(Post.tags.through.objects.filter(post_id=post_id).order_by("id").values_list("tag_id", flat=True))


def _set_tags(post: Post, tag_ids: list) -> None:
    """The post's tags, in the order given: the links are kept in the order they were made (the
    link table's id), and the first tag is the post's primary tag (Ghost's `primary_tag`,
    docs/coming-from-ghost.md). Links from the first difference on are made again, in order; the
    ones before it are kept (adding a tag at the end adds one link)."""
    wanted = list(dict.fromkeys(uuid.UUID(str(pk)) for pk in tag_ids))
    current = tag_ids_in_order(post.pk)
    if current == wanted:
        return
    keep = 0
    while keep < min(len(current), len(wanted)) and current[keep] == wanted[keep]:
        keep += 1
    through = Post.tags.through
    if current[keep:]:
        through.objects.filter(post_id=post.pk, tag_id__in=current[keep:]).delete()
    through.objects.bulk_create([through(post_id=post.pk, tag_id=pk) for pk in wanted[keep:]])


def _check_can_delete(actor, post: Post) -> None:
    allowed = can(actor, "post.delete_any") or (can(actor, "post.delete_own") and _is_owner(actor, post))
    if not allowed:
        raise PermissionDenied(CANNOT_DELETE)
    _check_can_change_live(actor, post, published=CANNOT_DELETE_LIVE, scheduled=CANNOT_DELETE_LIVE)


_DELETE_FIELDS = ("id", "kind", "slug", "title", "author_id", "status", "publish_scheduled", "language",
                  "translation_group")


@transaction.atomic
def post_delete(*, actor, post: Post, translations: str | None = None, promote: str | None = None) -> None:
    """Removes the post and its category/tag links; never the categories, tags or media. The
    rules are checked on the locked row (a concurrent publish or delete has committed by then).

    A post in the company's default language whose group has translations is deleted only when
    the caller says what becomes of them: `translations="delete"` deletes the whole group (each
    post by the same rules), `promote="<language>"` moves that translation to the default
    language (it becomes the group's default-language post). Otherwise 409 `translations_exist`."""
    post = _locked(Post.objects.only(*_DELETE_FIELDS), post.pk, POST_NOT_FOUND)
    _check_can_delete(actor, post)
    others = []
    if post.language == languages().default:
        _lock_group(post.translation_group)
        others = list(Post.objects.select_for_update().only(*_DELETE_FIELDS)
                      .filter(translation_group=post.translation_group).exclude(pk=post.pk).order_by("language"))
    heir = None
    if others:
        if translations == "delete":
            for other in others:
                _check_can_delete(actor, other)
        elif promote:
            code = company_languages.normalize(promote)
            heir = next((other for other in others if other.language == code), None)
            if heir is None:
                raise ValidationFailed(PROMOTE_INVALID, field="promote")
            _check_can_edit(actor, heir)
        else:
            raise Conflict(TRANSLATIONS_EXIST, detail=ErrorCode.TRANSLATIONS_EXIST,
                           extra={"translations": [{"language": o.language, "id": str(o.pk), "slug": o.slug}
                                                   for o in others]})
    Post.objects.filter(pk=post.pk).delete()
    plan_release("posts")  # each deleted row gives back its post (a translation took one)
    events.publish(events.PostChanged(post=post, before=_state(post), after=None, actor=actor))
    if heir is not None:
        post_update(actor=actor, post=heir, language=post.language)
    elif translations == "delete":
        for other in others:
            Post.objects.filter(pk=other.pk).delete()
            plan_release("posts")
            events.publish(events.PostChanged(post=other, before=_state(other), after=None, actor=actor))


def post_translation_check(*, actor, source: Post, language: str) -> str:
    """What post_translation_create would refuse, checked before a machine translation is asked
    for (the create checks again, under the group's lock). Returns the language, normalised."""
    require(actor, "post.create", CANNOT_CREATE)
    check_can_see_history(actor, source)
    language = _language(language)
    if language == source.language:
        raise ValidationFailed(SAME_LANGUAGE, field="language")
    if Post.objects.filter(translation_group=source.translation_group, language=language).exists():
        raise _translation_exists()
    plan_check("posts")  # a translation is a post: refused before a machine translation is asked for
    return language


@transaction.atomic
def post_translation_create(*, actor, source: Post, language: str, machine_made: bool = False,
                            fields: dict | None = None) -> Post:
    """A translation of `source` in `language`: a draft copy (title, excerpt, content, SEO and
    social fields, images, video) in the same translation group, with the group's categories and
    tags, by `actor`. 409 `translation_exists` when the group has that language (also when two
    requests add it at once: the group is locked, the unique index is the last word). `fields`:
    replacements of the copied text fields (a machine translation's). Never published here."""
    require(actor, "post.create", CANNOT_CREATE)
    source = _locked(Post.objects.defer("search_vector"), source.pk, POST_NOT_FOUND)
    check_can_see_history(actor, source)
    language = _language(language)
    if language == source.language:
        raise ValidationFailed(SAME_LANGUAGE, field="language")
    _lock_group(source.translation_group)
    if Post.objects.filter(translation_group=source.translation_group, language=language).exists():
        raise _translation_exists()
    copied = {name: getattr(source, name) for name in (
        "title", "excerpt", "content", "custom_slug", "allow_indexing", "video_id", "meta_title", "meta_description",
        "canonical_url", "focus_keyword", "og_title", "og_description", "twitter_title", "twitter_description",
        "featured_image_id", "og_image_id", "twitter_image_id",
        "visibility")}  # a members-only post's translation is members-only too (its body is the same text)
    copied.update(post_values(fields or {}))
    copied["content"] = sanitize_html(copied["content"])
    post = Post(kind=source.kind, language=language, translation_group=source.translation_group, author=actor,
                status=Post.Status.DRAFT, **copied)
    plan_spend("posts")  # a translation is a post of the plan's limit (403 plan_limit)
    _save_with_unique_slug(post, post.custom_slug or source.slug, force_insert=True)
    post.categories.set(list(source.categories.values_list("pk", flat=True)))
    _set_tags(post, tag_ids_in_order(source.pk))
    events.publish(events.PostChanged(post=post, before=None, after=_state(post), actor=actor))
    return post


def publish_due_posts(*, now: datetime | None = None) -> list[uuid.UUID]:
    """Publish this tenant's scheduled posts whose date has come. Idempotent: a post is
    published once (rows are locked and skipped when another run holds them)."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Post.objects.select_for_update(skip_locked=True)
            .filter(publish_scheduled=True, status=Post.Status.DRAFT, scheduled_publish_date__lte=now)
            .values_list("id", "published_at")
        )
        if not due:
            return []
        Post.objects.filter(pk__in=[pk for pk, _ in due]).update(
            status=Post.Status.PUBLISHED,
            publish_scheduled=False,
            published_at=Coalesce("published_at", Value(now)),
            updated_at=now,
        )
        posts = tuple(Post.objects.filter(pk__in=[pk for pk, _ in due]).defer("search_vector"))
        events.publish(events.PostsPublishedOnSchedule(posts=posts))
    return [pk for pk, _ in due]


def pages_from_category(*, category: Category, actor=None) -> int:
    """The posts of `category` made pages (apps.content.kinds), each with its translations (a
    translation group is of one kind), and the category taken off them; the category is deleted
    once nothing uses it. For the pages earlier imports kept as posts of a "Pages" category
    (manage.py pages_from_category). One batch scope: one audit entry, one webhook, one content
    version bump; each page keeps a revision of the change. Returns how many rows became pages."""
    with events.batch(summary=f'Pages from the category "{category.name}"', actor=actor):
        category = _locked(Category.objects, category.pk, CATEGORY_NOT_FOUND)
        links = Post.categories.through.objects.filter(category_id=category.pk)
        groups = Post.objects.filter(pk__in=links.values("post_id")).values("translation_group")
        rows = list(Post.objects.select_for_update().defer("search_vector")
                    .filter(translation_group__in=groups).exclude(kind=kinds.PAGE.name).order_by("pk"))
        Post.objects.filter(pk__in=[row.pk for row in rows]).update(kind=kinds.PAGE.name, updated_at=timezone.now())
        links.filter(post_id__in=[row.pk for row in rows]).delete()
        for row in rows:
            row.kind = kinds.PAGE.name
            state = _state(row)
            # moved: it left the posts' lists for the pages' (the cached replies are purged)
            events.publish(events.PostChanged(post=row, before=state, after=state, actor=actor, moved=True))
        if not links.exists():
            _term_delete(category, actor=actor)
    return len(rows)


# --- review ---------------------------------------------------------------------------------------
@transaction.atomic
def post_review_request(*, actor, post: Post) -> Post:
    """The writer marks a draft ready for review (whoever may edit it). Asking again keeps the
    first time; the note of an earlier send-back is cleared."""
    post = _locked(Post.objects.defer("search_vector"), post.pk, POST_NOT_FOUND)
    _check_can_edit(actor, post)
    if post.status != Post.Status.DRAFT or post.publish_scheduled:
        raise Conflict(REVIEW_ONLY_DRAFTS)
    if post.review_requested_at is None:
        post.review_requested_at = timezone.now()
        post.review_note = ""
        Post.objects.filter(pk=post.pk).update(review_requested_at=post.review_requested_at, review_note="")
        events.publish(events.PostReviewChanged(post=post, actor=actor, requested=True))
    return post


@transaction.atomic
def post_review_return(*, actor, post: Post, note: str) -> Post:
    """An editor sends a waiting post back to its writer with a note (it stays a draft)."""
    post = _locked(Post.objects.defer("search_vector"), post.pk, POST_NOT_FOUND)
    if post.review_requested_at is None:
        raise Conflict(NOT_WAITING)
    post.review_requested_at, post.review_note = None, note
    Post.objects.filter(pk=post.pk).update(review_requested_at=None, review_note=note)
    events.publish(events.PostReviewChanged(post=post, actor=actor, requested=False, note=note))
    return post


# --- revisions ----------------------------------------------------------------------------------
# What a revision keeps of a post: every field a writer can change, as JSON.
REVISION_FIELDS = (
    "title", "content", "excerpt", "slug", "custom_slug", "status", "publish_scheduled", "scheduled_publish_date",
    "published_at", "allow_indexing", "video_id", "meta_title", "meta_description", "canonical_url",
    "focus_keyword", "og_title", "og_description", "twitter_title", "twitter_description",
    "featured_image_id", "og_image_id", "twitter_image_id", "featured", "visibility",
)
_REVISION_TIMES = ("scheduled_publish_date", "published_at")


def _snapshot(post: Post) -> dict:
    data = {}
    for name in REVISION_FIELDS:
        value = getattr(post, name)
        data[name] = value.isoformat() if isinstance(value, datetime) else (
            str(value) if isinstance(value, uuid.UUID) else value)
    # Categories in the order a reader sees them (by name), so two snapshots of the same post compare
    # equal; tags in the post's order (its first is its primary tag: _set_tags).
    data["category_ids"] = [str(pk) for pk in post.categories.order_by("name", "id").values_list("id", flat=True)]
    data["tag_ids"] = [str(pk) for pk in tag_ids_in_order(post.pk)]
    return data


def revision_record(*, post: Post, actor, action: str) -> PostRevision:
    """One more revision of a post, numbered after the last (the post's row is locked or new).
    Written after each save by the revisions subscriber (apps.content.subscribers)."""
    last = PostRevision.objects.filter(post=post).order_by("-number").values_list("number", flat=True).first()
    return PostRevision.objects.create(
        post=post, number=(last or 0) + 1, action=action, author=actor if getattr(actor, "pk", None) else None,
        published=post.status == Post.Status.PUBLISHED, data=_snapshot(post),
    )


def revisions_record_created(*, posts: list[Post], actor) -> None:
    """The first revision of each of many posts just created (an import), in a few statements: the
    same snapshot revision_record writes, terms read for all the posts at once."""
    if not posts:
        return
    ids = [post.pk for post in posts]
    terms: dict[str, dict] = {"category_ids": {}, "tag_ids": {}}
    for name, through, column, order in (("category_ids", Post.categories.through, "category",
                                          ("category__name", "category_id")),
                                         ("tag_ids", Post.tags.through, "tag", ("id",))):  # as _snapshot
        rows = through.objects.filter(post_id__in=ids).order_by(*order).values_list("post_id", f"{column}_id")
        for post_id, term_id in rows:
            terms[name].setdefault(post_id, []).append(str(term_id))
    author = actor if getattr(actor, "pk", None) else None
    revisions = []
    for post in posts:
        data = {}
        for name in REVISION_FIELDS:
            value = getattr(post, name)
            data[name] = value.isoformat() if isinstance(value, datetime) else (
                str(value) if isinstance(value, uuid.UUID) else value)
        data["category_ids"] = terms["category_ids"].get(post.pk, [])
        data["tag_ids"] = terms["tag_ids"].get(post.pk, [])
        revisions.append(PostRevision(post=post, number=1, action=PostRevision.Action.CREATE, author=author,
                                      published=post.status == Post.Status.PUBLISHED, data=data))
    PostRevision.objects.bulk_create(revisions, batch_size=1000)


def check_can_see_history(actor, post: Post) -> None:
    """The history of a post is for whoever may edit it (an author: their own posts)."""
    if not (can(actor, "post.edit_any") or (can(actor, "post.edit_own") and _is_owner(actor, post))):
        raise PermissionDenied(CANNOT_EDIT)


def revision_restore(*, actor, post: Post, revision: PostRevision) -> Post:
    """The post as the revision left it, saved as a new revision ("restore") through the same
    rules as any edit. Categories, tags and images deleted since are left out (with no category
    or featured image left, the post keeps its own); an author's restore is a draft (authors
    cannot publish)."""
    data = revision.data
    changes = {name: data[name] for name in REVISION_FIELDS  # (a field newer than the revision: kept)
               if name in data and name not in ("slug", "status", "publish_scheduled", "published_at", "featured_image_id",
                               "og_image_id", "twitter_image_id")}
    for name in _REVISION_TIMES:
        if changes.get(name):
            changes[name] = datetime.fromisoformat(changes[name])
    changes["custom_slug"] = data.get("custom_slug") or data["slug"]
    categories = [str(pk) for pk in Category.objects.filter(pk__in=data["category_ids"]).values_list("id", flat=True)]
    # None left (all deleted since): a post keeps its own (a page may have none).
    if categories or not kinds.of(post.kind).categories_required:
        changes["category_ids"] = categories
    changes["tag_ids"] = [str(pk) for pk in Tag.objects.filter(pk__in=data["tag_ids"]).values_list("id", flat=True)]
    images = {pk for pk in (data.get(n) for n in ("featured_image_id", "og_image_id", "twitter_image_id")) if pk}
    existing = {str(pk) for pk in Media.objects.filter(pk__in=images).values_list("id", flat=True)}
    for name in ("featured_image_id", "og_image_id", "twitter_image_id"):
        # Gone since, or never set: the post keeps what it has (a featured image is never removed).
        if data.get(name) in existing or (data.get(name) is None and name != "featured_image_id"):
            changes[name] = data.get(name)
    wanted = Post.Status.PUBLISHED if data["status"] == Post.Status.PUBLISHED or data["publish_scheduled"] else (
        data["status"])
    changes["status"] = wanted if can(actor, "post.publish") else Post.Status.DRAFT
    return post_update(actor=actor, post=post, action=PostRevision.Action.RESTORE, **changes)


def revisions_prune(*, keep: int) -> int:
    """Per post, the newest `keep` revisions and every published one stay; returns how many went."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {PostRevision._meta.db_table} r USING ("
            f"  SELECT id, row_number() OVER (PARTITION BY post_id ORDER BY number DESC) AS rank "
            f"  FROM {PostRevision._meta.db_table}) ranked "
            "WHERE r.id = ranked.id AND ranked.rank > %s AND NOT r.published",
            [keep],
        )
        return cursor.rowcount


# --- autosaved copies ----------------------------------------------------------------------------
def check_can_autosave(actor, post: Post | None) -> None:
    """The copy of a new post is the writer's own (routes declare who may write); of a post, as its history."""
    if post is not None:
        check_can_see_history(actor, post)


def _autosave_kind(post: Post | None, kind: str | kinds.Kind) -> str:
    """The kind of an unsaved copy: its post's, or (a post not created yet) the one asked for."""
    return post.kind if post is not None else kinds.of(kind).name


def autosave_put(*, actor, post: Post | None, data: dict, base_updated_at: datetime | None,
                 kind: str | kinds.Kind = kinds.POST) -> PostAutosave:
    """Keep the editor's unsaved copy of `post` (None: a `kind` not created yet), replacing their
    previous one. The post itself is not changed. Parallel saves of one copy: the last wins."""
    check_can_autosave(actor, post)
    values = {"data": data, "base_updated_at": base_updated_at, "updated_at": timezone.now()}
    kind = _autosave_kind(post, kind)
    mine = PostAutosave.objects.filter(post=post, user=actor, kind=kind)
    for _attempt in range(3):
        if mine.update(**values):
            return mine.get()
        try:
            with transaction.atomic():
                return PostAutosave.objects.create(post=post, user=actor, kind=kind, **values)
        except IntegrityError:  # made meanwhile by a parallel save: update it
            continue
    raise Conflict("The unsaved copy changed while it was being saved. Try again.")


def autosave_clear(*, user, post: Post | None, kind: str | kinds.Kind = kinds.POST) -> None:
    """Forget the user's unsaved copy (the post was saved, or the copy was discarded)."""
    if getattr(user, "pk", None) is not None:
        PostAutosave.objects.filter(post=post, user=user, kind=_autosave_kind(post, kind)).delete()


def autosave_discard(*, actor, post: Post | None, kind: str | kinds.Kind = kinds.POST) -> None:
    check_can_autosave(actor, post)
    autosave_clear(user=actor, post=post, kind=kind)


# --- preview links -------------------------------------------------------------------------------
PREVIEW_ONLY_DRAFTS = "Preview links are made for drafts and scheduled posts; a published post is already public."


@transaction.atomic
def preview_link_create(*, actor, post: Post) -> PreviewLink:
    """A link that reads the post through the public API until it expires (PREVIEW_LINK_DAYS)
    or is revoked; by whoever may edit the post, from a draft or scheduled post."""
    post = _locked(Post.objects.defer("search_vector"), post.pk, POST_NOT_FOUND)
    check_can_see_history(actor, post)
    if post.status != Post.Status.DRAFT:
        raise Conflict(PREVIEW_ONLY_DRAFTS, detail=ErrorCode.PREVIEW_NOT_DRAFT)
    link = PreviewLink(id=uuid.uuid4(), post=post, created_by=actor,
                       expires_at=timezone.now() + timedelta(days=settings.PREVIEW_LINK_DAYS))
    link.token_hash = preview_token_hash(preview_token(link.id))
    link.save(force_insert=True)
    return link


def preview_link_revoke(*, actor, post: Post, link: PreviewLink) -> PreviewLink:
    """The link stops working at once (public replies of a preview are never cached)."""
    check_can_see_history(actor, post)
    PreviewLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    link.refresh_from_db(fields=["revoked_at"])
    return link


# --- categories ----------------------------------------------------------------------------------
def _used_in_posts(count: int) -> str:
    return f"{count} post" if count == 1 else f"{count} posts"


def _slug_conflict(message: str) -> Conflict:
    return Conflict(message, errors=[{"field": "slug", "message": message}], detail=ErrorCode.SLUG_TAKEN)


def _kind(model) -> str:
    return "category" if model is Category else "tag"


def _term_changed(model, action: str, *, term_id, name: str, actor, data: dict | None = None) -> None:
    """Publish a change of a category or tag (`data`: what identified it, once it is gone)."""
    events.publish(events.TermChanged(kind=_kind(model), change=action, term_id=term_id, name=name, actor=actor,
                                      gone=data))


def _term_translations(translations: dict | None) -> dict | None:
    """A term's names per language (checked by the schema): languages of the company only."""
    if translations is None:
        return None
    return {_language(code): entry for code, entry in translations.items()}


def _term_create(model, *, taken: str, actor, translations: dict | None = None, **fields):
    """Create a category or tag; a slug in use is 409 `taken` (also when a parallel create wins)."""
    fields["translations"] = _term_translations(translations) or {}
    if model.objects.filter(slug=fields["slug"]).exists():
        raise _slug_conflict(taken)
    try:
        with transaction.atomic():
            term = model.objects.create(**fields)
    except IntegrityError as exc:
        raise _slug_conflict(taken) from exc
    term.post_count = 0
    _term_changed(model, "created", term_id=term.pk, name=term.name, actor=actor)
    return term


def _term_delete(term, *, actor) -> None:
    gone = {"id": str(term.pk), "name": term.name, "slug": term.slug}
    term.delete()
    _term_changed(type(term), "deleted", term_id=gone["id"], name=gone["name"], actor=actor, data=gone)


@transaction.atomic
def category_create(*, name: str, slug: str, description: str = "", actor=None,
                    translations: dict | None = None) -> Category:
    return _term_create(Category, taken=CATEGORY_SLUG_TAKEN, actor=actor, name=name, slug=slug,
                        description=description, translations=translations)


def category_default(*, actor=None) -> Category:
    """The company's default category (DEFAULT_CATEGORY), created when missing (a concurrent
    create of it wins: its row is read)."""
    name, slug = DEFAULT_CATEGORY
    found = Category.objects.filter(slug=slug).first()
    if found is not None:
        return found
    try:
        return category_create(name=name, slug=slug, actor=actor)
    except Conflict:
        return Category.objects.get(slug=slug)


def _term_update(term, *, taken: str, slug: str | None, actor=None, translations: dict | None = None, **fields):
    """Update a category or tag: a new slug must be free (409 `taken`); None keeps a value."""
    fields["translations"] = _term_translations(translations)
    model = type(term)
    post_count = getattr(term, "post_count", 0)
    term = _locked(model.objects, term.pk, CATEGORY_NOT_FOUND if model is Category else TAG_NOT_FOUND)
    if slug is not None and slug != term.slug:
        if model.objects.filter(slug=slug).exclude(pk=term.pk).exists():
            raise _slug_conflict(taken)
        term.slug = slug
    for field, value in fields.items():
        if value is not None:
            setattr(term, field, value)
    try:
        with transaction.atomic():
            term.save()
    except IntegrityError as exc:
        raise _slug_conflict(taken) from exc
    term.post_count = post_count
    _term_changed(model, "updated", term_id=term.pk, name=term.name, actor=actor)
    return term


@transaction.atomic
def category_update(*, category: Category, name: str | None = None, slug: str | None = None,
                    description: str | None = None, actor=None, translations: dict | None = None) -> Category:
    return _term_update(category, taken=CATEGORY_SLUG_TAKEN, slug=slug, actor=actor, name=name,
                        description=description, translations=translations)


@transaction.atomic
def category_delete(*, category: Category, actor=None) -> None:
    category = _locked(Category.objects, category.pk, CATEGORY_NOT_FOUND)
    count = Post.categories.through.objects.filter(category_id=category.pk).count()
    if count:
        raise Conflict(
            f'Cannot delete category "{category.name}": it is currently used in posts '
            f"({_used_in_posts(count)}). Remove it from those posts first.",
            detail=ErrorCode.CATEGORY_IN_USE,
        )
    _term_delete(category, actor=actor)


# --- tags ----------------------------------------------------------------------------------------
@transaction.atomic
def tag_create(*, name: str, slug: str, actor=None, translations: dict | None = None) -> Tag:
    return _term_create(Tag, taken=TAG_SLUG_TAKEN, actor=actor, name=name, slug=slug, translations=translations)


@transaction.atomic
def tag_update(*, tag: Tag, name: str | None = None, slug: str | None = None, actor=None,
               translations: dict | None = None) -> Tag:
    return _term_update(tag, taken=TAG_SLUG_TAKEN, slug=slug, actor=actor, name=name, translations=translations)


@transaction.atomic
def tag_delete(*, tag: Tag, actor=None) -> None:
    tag = _locked(Tag.objects, tag.pk, TAG_NOT_FOUND)
    count = Post.tags.through.objects.filter(tag_id=tag.pk).count()
    if count:
        raise Conflict(f'Cannot delete tag "{tag.name}": it is currently used in {_used_in_posts(count)}',
                       detail=ErrorCode.TAG_IN_USE)
    _term_delete(tag, actor=actor)
