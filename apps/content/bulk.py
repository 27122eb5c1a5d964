"""The bulk form of the content services, for writers of many rows at once (an import): the same
rules as apps.content.services, in a few statements. The caller holds one `events.batch` scope
(one audit entry, one webhook, one content version bump for the whole write) and maps its own
format to these calls; it never writes posts, pages, categories or tags itself.

The rules, as for one post:
- each field under its rule (apps.content.rules), repaired and reported rather than refused (an
  outside file's values: `post_values_repaired`), the HTML sanitised (apps.core.html);
- a slug per language: the wanted slug when free in that language, else `-2`, `-3`...; rows are
  inserted with ON CONFLICT DO NOTHING on the (slug, language) index, and a row a concurrent writer
  took the slug of meanwhile is given the next free one. (No family locks here: an import of ten
  thousand posts would hold ten thousand advisory locks, past PostgreSQL's lock table. A single
  writer racing the import waits on the index and retries, as its own loop does.)
- status: published (publishedAt kept from the source, else now), scheduled (a draft waiting for
  its date) or draft; publishing needs `post.publish` of a signed-in actor (an operator's command
  has none);
- the plan's posts limit spent for the whole batch (403 plan_limit, before anything is written);
- each row a PostChanged event (collapsed by the caller's batch scope) and a first revision.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from apps.content import kinds
from apps.content.models import Category, Post, Tag
from apps.content.rules import post_values_repaired
from apps.content.services import (CANNOT_PUBLISH, SLUG_MAX, _set_tags, _state, category_create, category_update,
                                   languages, revisions_record_created, tag_create, tag_update, tag_ids_in_order)
from apps.core import events
from apps.core.html import sanitize_html
from apps.core.permissions import require
from apps.core.text import slugify
from apps.plans.rules import plan_spend

PUBLISHED, SCHEDULED, DRAFT = "published", "scheduled", "draft"


@dataclass
class PostIn:
    """One post or page of a bulk write, in the services' names."""

    kind: str  # "post" or "page"
    values: dict  # title, content, excerpt, meta_title, featured... (apps.content.rules.POST_RULES' names)
    status: str = DRAFT  # published, scheduled or draft
    published_at: datetime | None = None  # a published row's first publication; a scheduled row's date
    created_at: datetime | None = None
    updated_at: datetime | None = None
    author_id: object = None
    category_ids: list = field(default_factory=list)
    tag_ids: list = field(default_factory=list)  # in the post's order (the first: its primary tag)
    slug: str = ""  # the wanted slug (made from the title when empty)
    language: str | None = None  # the company's default when None
    # The group of translations it joins (a post's translation_group, or the id of an item of the
    # same write); None: a group of its own. A group that has a post of its language already (here
    # or in the same write) is not joined: the row gets a group of its own (Written.group_refused).
    translation_group: uuid.UUID | None = None
    id: uuid.UUID = field(default_factory=uuid.uuid4)  # known before the write (redirects name it)


@dataclass
class Written:
    post: Post
    repairs: list[tuple[str, str]]  # (field, what was done) for the caller's report
    slug_taken: str = ""  # the wanted slug, when it was taken and a suffix added
    group_refused: bool = False  # its group has a post of its language already: a group of its own


def post_values_of(item: PostIn, *, now: datetime) -> tuple[dict, list[tuple[str, str]]]:
    """The columns of `item` as the services' rules make them (a new row's or a change's)."""
    values, repairs = post_values_repaired(item.values)
    values.pop("status", None)
    if "content" in values:
        values["content"] = sanitize_html(values["content"])
    kind = kinds.of(item.kind)
    values["kind"] = kind.name
    values["author_id"] = item.author_id
    if item.status == PUBLISHED:
        values.update(status=Post.Status.PUBLISHED, published_at=item.published_at or now, publish_scheduled=False,
                      scheduled_publish_date=None)
    elif item.status == SCHEDULED and item.published_at is not None:
        values.update(status=Post.Status.DRAFT, published_at=None, publish_scheduled=True,
                      scheduled_publish_date=item.published_at)
    else:
        values.update(status=Post.Status.DRAFT, published_at=None, publish_scheduled=False,
                      scheduled_publish_date=None)
    return values, repairs


def _check_publish(actor, items) -> None:
    if actor is not None and any(item.status in (PUBLISHED, SCHEDULED) for item in items):
        require(actor, "post.publish", CANNOT_PUBLISH)


def _wanted(item: PostIn) -> str:
    return slugify(item.slug or item.values.get("title") or "", allow_unicode=True)[:SLUG_MAX].strip("-") or item.kind


def _free(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}"[:SLUG_MAX] in taken:
        n += 1
    return f"{base}-{n}"[:SLUG_MAX]


def posts_bulk_create(*, actor, items: list[PostIn]) -> list[Written]:
    """Create many posts and pages (in the caller's transaction and batch scope). Returns each
    row with what was repaired and whether its slug was taken, in the order given."""
    if not items:
        return []
    _check_publish(actor, items)
    plan_spend("posts", len(items))  # the plan's post limit, for the whole batch (403 plan_limit)
    now = timezone.now()
    default = languages().default
    by_language: dict[str, set[str]] = {}
    written: list[Written] = []
    groups = {item.translation_group for item in items if item.translation_group is not None}
    in_groups = set(Post.objects.filter(translation_group__in=groups).values_list("translation_group", "language"))
    for item in items:
        language = item.language or default
        values, repairs = post_values_of(item, now=now)
        group, refused = item.translation_group or item.id, False
        if (group, language) in in_groups:  # one post per language in a group
            group, refused = item.id, True
        in_groups.add((group, language))
        post = Post(id=item.id, language=language, translation_group=group, **values)
        wanted = _wanted(item)
        post.custom_slug = wanted
        written.append(Written(post=post, repairs=repairs, group_refused=refused))
        by_language.setdefault(language, set())
    for language in by_language:
        by_language[language] = set(Post.objects.filter(language=language).values_list("slug", flat=True))
    pending = list(written)
    for _attempt in range(5):
        for row in pending:
            post = row.post
            taken = by_language[post.language]
            post.slug = _free(post.custom_slug, taken)
            if post.slug != post.custom_slug:
                row.slug_taken = post.custom_slug
            taken.add(post.slug)
        Post.objects.bulk_create([row.post for row in pending], ignore_conflicts=True, batch_size=500)
        stored = set(Post.objects.filter(pk__in=[row.post.pk for row in pending]).values_list("pk", flat=True))
        lost = [row for row in pending if row.post.pk not in stored]
        if not lost:
            break
        for row in lost:  # a concurrent writer took these slugs after they were read
            by_language[row.post.language].update(
                Post.objects.filter(language=row.post.language, slug__startswith=row.post.custom_slug)
                .values_list("slug", flat=True))
        pending = lost
    else:
        raise RuntimeError("slugs kept being taken by concurrent writers")
    for row, item in zip(written, items):
        post = row.post
        if row.slug_taken:
            post.custom_slug = ""  # the slug was made, not chosen
        post.created_at = item.created_at or item.published_at or now
        post.updated_at = item.updated_at or post.created_at
    # The source's dates and the chosen custom slugs (auto_now_add and auto_now set the dates at insert).
    Post.objects.bulk_update([row.post for row in written], ["created_at", "updated_at", "custom_slug"],
                             batch_size=500)
    through_c, through_t = Post.categories.through, Post.tags.through
    through_c.objects.bulk_create([through_c(post_id=item.id, category_id=c) for item in items
                                   for c in dict.fromkeys(item.category_ids)], batch_size=1000)
    through_t.objects.bulk_create([through_t(post_id=item.id, tag_id=t) for item in items
                                   for t in dict.fromkeys(item.tag_ids)], batch_size=1000)
    for row in written:
        events.publish(events.PostChanged(post=row.post, before=None, after=_state(row.post), actor=actor,
                                          revision_written=True))  # posts_revisions_created, once its images are in
    return written


def posts_revisions_created(*, actor, posts: list[Post]) -> None:
    """The first revision of each row posts_bulk_create made, once the caller has set its images."""
    revisions_record_created(posts=posts, actor=actor)


def tag_orders(post_ids) -> dict:
    """Each post's tag ids in its order (apps.content.services.tag_ids_in_order), for many posts in
    one statement: what post_bulk_update compares an item's tags with."""
    found: dict = {}
    for post_id, tag_id in (Post.tags.through.objects.filter(post_id__in=list(post_ids)).order_by("id")
                            .values_list("post_id", "tag_id")):
        found.setdefault(post_id, []).append(tag_id)
    return found


def post_bulk_update(*, actor, post: Post, item: PostIn, same_content=None, tag_order: list | None = None) -> bool:
    """Bring an existing row (`post`, read with its categories) to `item`'s values: the fields that
    differ, its terms. `same_content(stored, incoming)`: whether stored content counts as unchanged
    (an import's own rewritten image addresses). `tag_order`: the post's tag ids in its order, when
    the caller read them for many posts at once (tag_orders); else read here. Returns whether
    anything changed."""
    _check_publish(actor, [item])
    values, _repairs = post_values_of(item, now=timezone.now())
    before = _state(post)
    changed = [name for name, value in values.items() if getattr(post, name) != value and not (
        name == "content" and same_content is not None and same_content(getattr(post, name), value))]
    old_categories = {c.pk for c in post.categories.all()}
    # in order: another order is another primary tag
    old_tags = tag_order if tag_order is not None else tag_ids_in_order(post.pk)
    terms_changed = old_categories != set(item.category_ids) or old_tags != list(dict.fromkeys(item.tag_ids))
    if not changed and not terms_changed:
        return False
    for name in changed:
        setattr(post, name, values[name])
    post.save()
    if terms_changed:
        post.categories.set(list(dict.fromkeys(item.category_ids)))
        _set_tags(post, item.tag_ids)
    events.publish(events.PostChanged(post=post, before=before, after=_state(post), actor=actor,
                                      terms_changed=terms_changed))
    return True


def post_images_set(*, post: Post, content: str | None = None, images: dict | None = None) -> None:
    """Set a row's images after a bulk write brought them into the media library: its content
    (with the new image addresses; sanitised) and featured_image / og_image / twitter_image (Media
    or None). Part of the write that made the row: no event of its own."""
    changes = {}
    if content is not None and content != post.content:
        post.content = sanitize_html(content)
        changes["content"] = post.content
    for name, media in (images or {}).items():
        if name not in ("featured_image", "og_image", "twitter_image"):
            raise ValueError(f"not an image of a post: {name}")
        if getattr(post, f"{name}_id") != getattr(media, "pk", None):
            setattr(post, name, media)
            changes[f"{name}_id"] = getattr(media, "pk", None)
    if changes:
        Post.objects.filter(pk=post.pk).update(**changes)


def post_images_repaired(*, actor, post: Post, content: str | None = None, images: dict | None = None) -> bool:
    """An image brought after the write that made the row (an import's "Fetch missing images"):
    its content with the new addresses and its featured / Open Graph / Twitter image, as
    post_images_set, published as a change of the post (its caches and webhooks follow). Whether
    anything changed."""
    post = Post.objects.select_for_update().get(pk=post.pk)
    before = _state(post)
    old = (post.content, post.featured_image_id, post.og_image_id, post.twitter_image_id)
    post_images_set(post=post, content=content, images=images)
    if old == (post.content, post.featured_image_id, post.og_image_id, post.twitter_image_id):
        return False
    events.publish(events.PostChanged(post=post, before=before, after=_state(post), actor=actor))
    return True


# --- categories and tags --------------------------------------------------------------------------
TERM_NAME_MAX, TERM_SLUG_MAX = 100, 120


def term_values(*, name: str, slug: str) -> tuple[str, str]:
    """A term's name and slug as an outside file gives them, made to the editor's rules (a name of
    at most 100 characters, a slug of letters, digits and hyphens of at most 120, of any script)."""
    name = (name or "").strip()[:TERM_NAME_MAX] or slug or "Untitled"
    slug = (slugify(slug or name, allow_unicode=True)[:TERM_SLUG_MAX].strip("-")
            or slugify(name, allow_unicode=True)[:TERM_SLUG_MAX].strip("-") or "term")
    return name, slug


def term_bulk_create(*, actor, kind: str, name: str, slug: str, description: str = ""):
    """A category or tag of a bulk write (the caller picked a free slug)."""
    name, slug = term_values(name=name, slug=slug)
    if kind == "category":
        return category_create(name=name, slug=slug, description=description, actor=actor)
    return tag_create(name=name, slug=slug, actor=actor)


def term_bulk_update(*, actor, term, name: str, description: str | None = None) -> bool:
    """Rename a category or tag of an earlier bulk write (and a category's description); whether
    anything changed."""
    name, _ = term_values(name=name, slug=term.slug)
    if isinstance(term, Category):
        if term.name == name and (description is None or term.description == description):
            return False
        category_update(category=term, name=name, description=description, actor=actor)
        return True
    if term.name == name:
        return False
    tag_update(tag=term, name=name, actor=actor)
    return True


def terms_all() -> dict[str, dict[str, object]]:
    """Every category and tag by slug, per kind (what a bulk write matches against)."""
    return {"category": {obj.slug: obj for obj in Category.objects.all()},
            "tag": {obj.slug: obj for obj in Tag.objects.all()}}
