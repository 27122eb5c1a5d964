"""Ghost's posts and pages on the Admin API: Ghost's JSON to the content services' arguments, and the
rows back to Ghost's post object (docs/publishing-from-tools.md, field by field).

In:
- content: `html` (Ghost reads it with `?source=html`; taken here without it too when no `lexical`
  or `mobiledoc` is given), else `lexical`, else `mobiledoc`, turned into HTML by the Ghost import's
  converters (apps.portability.parsers); the services sanitise it as every post's HTML;
- status: `draft`, `published` (now: a post is never back-dated) or `scheduled` (with a
  `published_at` in the future);
- tags: names, `{name}`, `{slug}` or `{id}`; a category of that slug (or name) is the post's
  category, else a tag of it, else a new tag is made through the term services. A post with no
  category is put in the company's default category (apps.content.services.category_default);
- authors: the first one, by id, email or slug, a member of the company's staff (the post's author);
  none given: the company's first admin;
- feature_image, og_image, twitter_image: an address of an image of the company's media library
  (what images/upload answers), else 422; feature_image_alt is the image's alt text in the library;
- visibility: `public` or `members` (docs/content.md#members-only-posts); Ghost's `paid` and `tiers`
  are taken as `members` (there are no paid tiers here: every member reads them); anything else 422.
Edits (PUT) must carry the `updated_at` they were read with (409 UpdateCollisionError otherwise).

Out: the Content API's post object (apps.ghost_api.shapes.post) for every status, with its tags and
authors always, `status` (archived posts read as drafts), `published_at` (a scheduled post's date),
`featured`, `visibility` (public or members; a members-only post's whole body: the staff read it),
and `lexical` / `mobiledoc` (the HTML in one html card) when `formats` asks for them.
"""
from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from functools import cached_property
from urllib.parse import unquote

from django.db.models import Count, Q
from django.utils import timezone
from pydantic import ValidationError as SchemaError

from apps.accounts.models import User
from apps.content import kinds
from apps.content import services as content
from apps.content.models import MEMBERS_VISIBILITY, PUBLIC_VISIBILITY, Category, Post, Tag
from apps.content.rules import clean_publish_date
from apps.content.schemas import TagIn
from apps.core.errors import Conflict
from apps.core.permissions import Role, require
from apps.core.text import slugify
from apps.ghost_api import ids, nql, selectors, shapes
from apps.ghost_api.errors import GhostError
from apps.ghost_api.nql import NOTHING, equality
from apps.ghost_api.query import GhostQuery
from apps.media.models import Media
from apps.media.services import media_update
from apps.media.storage import MediaUrls
from apps.members.models import Label
from apps.newsletters.models import Newsletter, Send
from apps.newsletters.selectors import recipients_count
from apps.newsletters.services import send_create
from apps.portability.parsers import ParseFailed
from apps.portability.parsers import _html_of_lexical as html_of_lexical  # the Ghost import's converters
from apps.portability.parsers import _html_of_mobiledoc as html_of_mobiledoc

UNTITLED = "(Untitled)"
STATUSES = ("draft", "published", "scheduled")
FORMATS = frozenset({"html", "plaintext", "lexical", "mobiledoc"})
DEFAULT_FORMATS = frozenset({"html", "lexical"})
_TEXT_FIELDS = {"custom_excerpt": "excerpt", "meta_title": "meta_title", "meta_description": "meta_description",
                "og_title": "og_title", "og_description": "og_description", "twitter_title": "twitter_title",
                "twitter_description": "twitter_description", "canonical_url": "canonical_url"}
_IMAGE_FIELDS = {"feature_image": "featured_image_id", "og_image": "og_image_id", "twitter_image": "twitter_image_id"}


def invalid(message: str, prop: str | None = None) -> GhostError:
    return GhostError(422, message, prop=prop)


# --- reads ---------------------------------------------------------------------------------------
class StaffReads(selectors.Reads):
    """A request's reads, with every member of the staff as an author (the Content API's are only
    those with published posts): a draft's author is shown too."""

    @cached_property
    def authors(self) -> list[selectors.Author]:
        return staff()


def staff(*, with_counts: bool = False) -> list[selectors.Author]:
    """Every member of the staff in sign-up order, each with a slug of its own (the slug of the
    username; a clash: -2, -3 by sign-up order, as the Content API's authors), and its posts (any
    status) when `with_counts`."""
    users = User.objects.order_by("created_at", "id")
    if with_counts:
        users = users.annotate(post_total=Count("posts", filter=Q(posts__kind=kinds.POST.name)))
    taken: set[str] = set()
    found = []
    for user in users:
        base = slugify(user.username) or f"author-{ids.ghost_id(user.id)[:8]}"
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        taken.add(slug)
        found.append(selectors.Author(user, slug, getattr(user, "post_total", 0)))
    return found


def _status_q(value) -> Q:
    word = value.lower() if isinstance(value, str) else ""
    if word == "published":
        return Q(status=Post.Status.PUBLISHED)
    if word == "scheduled":
        return Q(status=Post.Status.DRAFT, publish_scheduled=True)
    if word == "draft":
        return Q(status__in=(Post.Status.DRAFT, Post.Status.ARCHIVED), publish_scheduled=False)
    return NOTHING


def matching(reads: StaffReads, filter_tree, kind: kinds.Kind):
    """Every post (or page) of the company a filter matches, whatever its status."""
    found = Post.objects.of_kind(kind)
    if filter_tree is not None:
        fields = {**selectors.post_fields(reads, kind), "status": equality(_status_q, name="status")}
        if {"primary_tag", "primary_tag.slug"} & nql.fields_of(filter_tree):
            found = found.annotate(ghost_primary_tag=selectors._primary_tag_slug())
        found = found.filter(nql._compile(filter_tree, fields))
    return found


_EXTRA_COLUMNS = ("status", "publish_scheduled", "scheduled_publish_date", "featured")


def rows(queryset) -> list[dict]:
    columns = tuple(dict.fromkeys((*selectors.POST_COLUMNS, *_EXTRA_COLUMNS)))
    return list(queryset.annotate(terms=selectors._terms_json()).values(*columns, "terms"))


def find(kind: kinds.Kind, *, ghost_id: str | None = None, slug: str | None = None) -> Post | None:
    found = Post.objects.of_kind(kind).defer("search_vector")
    if ghost_id is not None:
        return found.filter(ids.id_q(ghost_id)).first()
    return found.filter(slug=(slug or "").strip().lower()).order_by("created_at").first()


def ghost_status(row: dict) -> str:
    if row["status"] == Post.Status.PUBLISHED:
        return "published"
    return "scheduled" if row["publish_scheduled"] else "draft"


def _lexical(html: str) -> str:
    return json.dumps({"root": {"children": [{"type": "html", "version": 1, "html": html}], "direction": None,
                                "format": "", "indent": 0, "type": "root", "version": 1}})


def _mobiledoc(html: str) -> str:
    return json.dumps({"version": "0.3.1", "atoms": [], "cards": [["html", {"html": html}]], "markups": [],
                       "sections": [[10, 0]]})


def post_out(row: dict, wanted: GhostQuery, formats: frozenset[str], *, site, reads, images) -> dict:
    """A post row (`rows`) as Ghost's Admin API post."""
    base = dataclasses.replace(wanted, include=frozenset({"tags", "authors"}), fields=None,
                               formats=frozenset(formats & {"html", "plaintext"}))
    data = shapes.post(row, base, site=site, reads=reads, images=images, member=True)  # the staff read every body
    status = ghost_status(row)
    data["status"] = status
    data["featured"] = bool(row.get("featured"))
    if status == "scheduled":
        data["published_at"] = shapes.ghost_time(row["scheduled_publish_date"])
    elif status == "draft":
        data["published_at"] = None
    if "lexical" in formats:
        data["lexical"] = _lexical(row["content"] or "")
    if "mobiledoc" in formats:
        data["mobiledoc"] = _mobiledoc(row["content"] or "")
    data.update(email_only=False, newsletter=None, email=None, tiers=[], email_segment="all")
    return shapes.only(data, wanted)


# --- writes --------------------------------------------------------------------------------------
def default_author() -> User | None:
    """The author of a post whose writer names none: the company's first active admin (Ghost's owner)."""
    return (User.objects.filter(role=Role.ADMIN, status=User.Status.ACTIVE).order_by("created_at", "id").first())


def _author(value) -> User:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise invalid("A post needs an author", "authors")
    first = items[0]
    found = None
    if isinstance(first, str):
        first = {"email": first} if "@" in first else {"id": first}
    if isinstance(first, dict):
        staff_users = User.objects.filter(status=User.Status.ACTIVE)
        if isinstance(first.get("id"), str) and ids.is_ghost_id(first["id"].lower()):
            found = staff_users.filter(ids.id_q(first["id"])).first()
        elif isinstance(first.get("email"), str):
            found = staff_users.filter(email=first["email"].strip().lower()).first()
        elif isinstance(first.get("slug"), str):
            wanted = first["slug"].strip().lower()
            match = next((member for member in staff() if member.slug == wanted), None)
            found = match.user if match is not None and match.user.status == User.Status.ACTIVE else None
    if found is None:
        raise invalid("The author must be an active member of the company's staff (by id, email or slug)", "authors")
    return found


def _media_id(url, prop: str) -> str | None:
    """The id of the media library's image at `url` (what images/upload answered), None for none."""
    if url is None or url == "":
        return None
    if not isinstance(url, str):
        raise invalid(f"{prop} must be an address", prop)
    urls = MediaUrls.current()
    key = next((unquote(url[len(base):]) for base in (urls.cdn_base, urls.link_base) if url.startswith(base)), None)
    media = Media.objects.filter(storage_key=key).only("id").first() if key else None
    if media is None:
        raise invalid(f"{prop} must be an image of this site's media library: upload it with images/upload first",
                      prop)
    return str(media.id)


def _term(item, actor, made: dict) -> tuple[str, object]:
    """("category" or "tag", its row) for one of Ghost's tags: found by id, slug or name, else made."""
    if isinstance(item, str):
        item = {"name": item}
    if not isinstance(item, dict):
        raise invalid("Each tag is a name, or an object with its id, slug or name", "tags")
    ghost_id = item.get("id")
    if isinstance(ghost_id, str) and ghost_id:
        for kind, model in (("category", Category), ("tag", Tag)):
            row = model.objects.filter(ids.id_q(ghost_id)).first()
            if row is not None:
                return kind, row
        raise invalid(f"Tag not found: {ghost_id[:40]}", "tags")
    name = item.get("name") if isinstance(item.get("name"), str) else None
    slug = item.get("slug") if isinstance(item.get("slug"), str) else None
    try:
        wanted = TagIn.model_validate({"name": name or slug or "", "slug": slug or name or ""})
    except SchemaError as exc:
        raise invalid(f"Tag: {exc.errors()[0]['msg'].removeprefix('Value error, ')}", "tags") from None
    for kind, model in (("category", Category), ("tag", Tag)):
        row = (model.objects.filter(slug=wanted.slug).first()
               or (model.objects.filter(name__iexact=wanted.name).order_by("created_at").first() if name else None))
        if row is not None:
            return kind, row
    if wanted.slug in made:
        return "tag", made[wanted.slug]
    require(actor, "taxonomy.create", "This integration may not create tags")
    try:
        made[wanted.slug] = content.tag_create(name=wanted.name, slug=wanted.slug, actor=actor)
    except Conflict:  # made meanwhile by another request
        made[wanted.slug] = Tag.objects.get(slug=wanted.slug)
    return "tag", made[wanted.slug]


def _terms(value, actor, kind: kinds.Kind) -> dict:
    if value is None:
        value = []
    if not isinstance(value, list):
        raise invalid("tags must be a list", "tags")
    if len(value) > 100:
        raise invalid("A post has at most 100 tags", "tags")
    categories, tags, made = [], [], {}
    for item in value:
        which, row = _term(item, actor, made)
        (categories if which == "category" else tags).append(str(row.pk))
    if not categories and kind.categories_required:
        categories = [str(content.category_default(actor=actor).pk)]
    return {"category_ids": list(dict.fromkeys(categories)), "tag_ids": list(dict.fromkeys(tags))}


def _content(data: dict, source_html: bool) -> str | None:
    try:
        if source_html and "html" in data:
            return _text(data.get("html"), "html")
        if data.get("lexical"):
            return html_of_lexical(data["lexical"], where="lexical")
        if data.get("mobiledoc"):
            return html_of_mobiledoc(data["mobiledoc"], where="mobiledoc")
    except ParseFailed as exc:
        raise invalid(str(exc), exc.where.split(".")[0] if getattr(exc, "where", "") else None) from None
    if "html" in data:
        return _text(data.get("html"), "html")
    return None


# Ghost's visibilities (its posts' `isIn` validation) and what each is here: members-only posts are
# read by every member (no paid tiers), so Ghost's paid and tiers posts are members-only.
GHOST_VISIBILITIES = {"public": PUBLIC_VISIBILITY, "members": MEMBERS_VISIBILITY, "paid": MEMBERS_VISIBILITY,
                      "tiers": MEMBERS_VISIBILITY}


def _visibility(value) -> str:
    if not isinstance(value, str) or value not in GHOST_VISIBILITIES:
        raise invalid("Validation (isIn) failed for visibility", "visibility")
    return GHOST_VISIBILITIES[value]


def _text(value, prop: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise invalid(f"{prop} must be text", prop)
    return value


def _date(value, prop: str) -> datetime | None:
    try:
        return clean_publish_date(value)
    except ValueError:
        raise invalid(f"{prop} must be an ISO 8601 date", prop) from None


def _status(data: dict, *, creating: bool, post: Post | None) -> dict:
    """The services' status arguments of Ghost's status and published_at."""
    if "status" not in data:
        if creating:
            return {"status": Post.Status.DRAFT}
        if post is not None and post.publish_scheduled and data.get("published_at"):
            return {"scheduled_publish_date": _date(data["published_at"], "published_at")}  # a new date
        return {}
    status = data.get("status") or "draft"
    if status not in STATUSES:
        raise invalid("Validation (isIn) failed for status", "status")
    if status == "scheduled":
        due = _date(data.get("published_at"), "published_at")
        if due is None or due <= timezone.now():
            raise invalid("A scheduled post needs a published_at in the future", "published_at")
        return {"status": Post.Status.PUBLISHED, "scheduled_publish_date": due}
    if status == "published":
        if post is not None and post.status == Post.Status.PUBLISHED:
            return {"status": Post.Status.PUBLISHED}
        return {"status": Post.Status.PUBLISHED, "scheduled_publish_date": None}  # now
    return {"status": Post.Status.DRAFT}


def changes_of(data, *, source_html: bool, kind: kinds.Kind, actor, creating: bool, post: Post | None = None) -> dict:
    """The services' keyword arguments of a Ghost post (`data`): only what it names, when editing."""
    if not isinstance(data, dict):
        raise invalid(f"Each of {kind.plural} is an object", kind.plural)
    changes: dict = {}
    if data.get("visibility") is not None:
        changes["visibility"] = _visibility(data["visibility"])
    if "title" in data or creating:
        changes["title"] = _text(data.get("title"), "title").strip() or UNTITLED
    html = _content(data, source_html)
    if html is not None:
        changes["content"] = html
    elif creating:
        changes["content"] = ""
    if "slug" in data and data["slug"]:
        changes["custom_slug"] = _text(data["slug"], "slug")
    for ghost, name in _TEXT_FIELDS.items():
        if ghost in data:
            changes[name] = _text(data[ghost], ghost)
    if creating:
        changes.setdefault("excerpt", "")
    if "featured" in data:
        if not isinstance(data["featured"], bool):
            raise invalid("featured must be true or false", "featured")
        changes["featured"] = data["featured"]
    for ghost, name in _IMAGE_FIELDS.items():
        if ghost in data:
            changes[name] = _media_id(data[ghost], ghost)
    if creating:
        changes.setdefault("featured_image_id", None)
    changes.update(_status(data, creating=creating, post=post))
    if "tags" in data or creating:
        changes.update(_terms(data.get("tags"), actor, kind))
    return changes


def alt_text_set(post: Post, data: dict, actor) -> None:
    """Ghost's feature_image_alt: the alt text of the post's featured image in the media library."""
    alt = data.get("feature_image_alt")
    if "feature_image_alt" not in data or post.featured_image_id is None:
        return
    alt = _text(alt, "feature_image_alt")
    current = Media.objects.filter(pk=post.featured_image_id).values_list("alt_text", flat=True).first()
    if current is not None and current != alt:
        media_update(actor=actor, media_id=str(post.featured_image_id), alt_text=alt)


def create(data, *, kind: kinds.Kind, actor, source_html: bool) -> Post:
    changes = changes_of(data, source_html=source_html, kind=kind, actor=actor, creating=True)
    author = _author(data["authors"]) if data.get("authors") else default_author()
    if author is None:
        raise invalid("The company has no active admin to be the author: name one in authors", "authors")
    post = content.post_create(author=author, actor=actor, kind=kind, featured_image_required=False, **changes)
    alt_text_set(post, data, actor)
    return post


def edit(post: Post, data, *, kind: kinds.Kind, actor, source_html: bool) -> Post:
    if not isinstance(data, dict):
        raise invalid(f"Each of {kind.plural} is an object", kind.plural)
    if not data.get("updated_at"):
        raise invalid("updated_at is required: send the updated_at the post was read with", "updated_at")
    base = _date(data["updated_at"], "updated_at")
    if data.get("authors"):
        author = _author(data["authors"])
        if author.pk != post.author_id:
            raise invalid("A post's author cannot be changed here: change it in the dashboard", "authors")
    changes = changes_of(data, source_html=source_html, kind=kind, actor=actor, creating=False, post=post)
    post = content.post_update(actor=actor, post=post, base_updated_at=base, featured_image_required=False,
                               **changes)
    alt_text_set(post, data, actor)
    return post


# --- sending by email (Ghost's ?newsletter=&email_segment=) ----------------------------------------
def _segment_label(segment: str):
    """Ghost's `email_segment`: `all` (the default) or `label:<label>` (a members label, by its
    name or its slug); anything else is Ghost's 422."""
    if segment in ("", "all"):
        return None
    if segment.startswith("label:"):
        wanted = segment[len("label:"):].strip()
        for label in Label.objects.all():
            if wanted and (label.name.lower() == wanted.lower() or slugify(label.name) == wanted.lower()):
                return label
        raise invalid(f"No members label matches {wanted!r}", "email_segment")
    raise invalid("email_segment is 'all' or 'label:<label>'", "email_segment")


def email(post: Post, params, actor) -> None:
    """`?newsletter=<slug>[&email_segment=]` on an add or edit, as Ghost's Admin API: a published
    post is sent to the newsletter's members now, a scheduled one when it publishes; a draft is not
    sent. A post already sent to that newsletter is not sent again (Ghost ignores it too). Written
    in the caller's transaction: a refused send (the month's emails) leaves the post unwritten."""
    slug = params.get("newsletter")
    if not slug:
        return
    if post.kind != kinds.POST.name:
        raise invalid("Only posts are sent by email", "newsletter")
    require(actor, "newsletters.send")
    newsletter = Newsletter.objects.filter(slug=slug, status=Newsletter.Status.ACTIVE).first()
    if newsletter is None:
        raise invalid(f"No active newsletter has the slug {slug!r}", "newsletter")
    label = _segment_label(params.get("email_segment", "all").strip())
    if post.status != Post.Status.PUBLISHED and not post.publish_scheduled:
        return
    if Send.objects.filter(post=post, newsletter=newsletter).exclude(
            status__in=[Send.Status.FAILED, Send.Status.CANCELLED]).exists():
        return
    send_create(post=post, newsletter=newsletter, label=label, actor=actor if isinstance(actor, User) else None,
                recipients=recipients_count(newsletter=newsletter, label=label))
