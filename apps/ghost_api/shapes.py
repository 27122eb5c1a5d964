"""Ghost 5's JSON of each resource from ours (the field-by-field map is in
docs/coming-from-ghost.md; the JSON Schemas of schemas/ describe the result).

Fields Ghost has and the product does not (code injection, custom templates, a tag's accent color,
newsletters, members) are sent as Ghost sends them unset: null, false or empty.
"""
from __future__ import annotations

import html as html_lib
import re
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone as dt_timezone

from apps.accounts.profiles import author_name
from apps.content import kinds
from apps.content.rules import body_visible
from apps.ghost_api import ids
from apps.ghost_api.query import GhostQuery
from apps.ghost_api.selectors import Author, GhostTag, Reads
from apps.media.storage import MediaUrls
from apps.site.rules import ghost_handle
from apps.site.selectors import site_view
from tenants.addresses import tenant_base_url

WORDS_PER_MINUTE = 275  # Ghost's reading speed
EXCERPT_LENGTH = 500  # Ghost's generated excerpt: the first 500 characters of the text


def ghost_time(value: datetime | None) -> str | None:
    """Ghost's time format: ISO 8601 with milliseconds, in UTC (`2024-01-02T03:04:05.000+00:00`)."""
    if value is None:
        return None
    return value.astimezone(dt_timezone.utc).isoformat(timespec="milliseconds")


def _row_time(row: dict, field: str) -> str | None:
    """A post row's time in Ghost's form: as PostgreSQL wrote it (`<field>_text`, a page's rows:
    apps.ghost_api.selectors._ghost_times) or from the datetime (a post read alone)."""
    name = f"{field}_text"
    return row[name] if name in row else ghost_time(row[field])


# A post's content is the sanitiser's output (apps.core.html: nh3 escapes `<` and `>` in text and in
# attribute values), so every `<...>` in it is exactly one tag. Block ends become line ends.
_BLOCK_END = re.compile(r"</(?:p|h[1-6]|li|blockquote|pre|figure|figcaption|div|tr)>|<br\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")


def plaintext(html: str) -> str:
    """The text of a post's HTML: tags dropped, entities decoded, one line per block."""
    text = html_lib.unescape(_TAG.sub("", _BLOCK_END.sub("\n", html)))
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def reading_time(text: str) -> int:
    return round(len(text.split()) / WORDS_PER_MINUTE)


class Site:
    """The company's addresses: where its posts, tags and authors live on its website."""

    def __init__(self, client) -> None:
        self.client = client
        self.base = (client.website_url or "").rstrip("/") or tenant_base_url(client.subdomain)

    def post_url(self, slug: str, language: str | None = None) -> str:
        """The company's postUrlTemplate (tenants.models.Client.post_url), else {website}/{slug}/. A
        post in another language than the company's default carries it (docs/translations.md: the
        template's `{locale}`, else `?locale=`, else `/{locale}/` before the slug)."""
        if self.client.post_url_template or self.client.website_url:
            url = self.client.post_url(slug, language)
            if url.startswith(("http://", "https://")):
                return url
        return f"{self.base}{self._locale_path(language)}/{slug}/"

    def page_url(self, slug: str, language: str | None = None) -> str:
        """A page lives at the website's root, as Ghost's pages do: {website}/{slug}/ (in another
        language than the default: {website}/{locale}/{slug}/)."""
        return f"{self.base}{self._locale_path(language)}/{slug}/"

    def _locale_path(self, language: str | None) -> str:
        return f"/{language}" if language and language != (self.client.default_language or "en") else ""

    def url_of(self, row: dict) -> str:
        """A row's address: a post's (post_url), or a page's (page_url), as its kind says, in its
        own language."""
        return kinds.of(row.get("kind") or kinds.POST.name).url(self, row["slug"], row.get("language"))

    def tag_url(self, slug: str) -> str:
        return f"{self.base}/tag/{slug}/"

    def author_url(self, slug: str) -> str:
        return f"{self.base}/author/{slug}/"


class Images:
    def __init__(self) -> None:
        self._urls = None

    def url(self, storage_key: str | None) -> str | None:
        if not storage_key:
            return None
        if self._urls is None:
            self._urls = MediaUrls.current()
        return self._urls.cdn(storage_key)


def tag(term: GhostTag, site: Site, *, count: int | None = None) -> dict:
    data = {
        "id": ids.ghost_id(term.row_id), "name": term.name, "slug": term.slug, "description": term.description or None,
        "feature_image": None, "visibility": "public", "og_image": None, "og_title": None, "og_description": None,
        "twitter_image": None, "twitter_title": None, "twitter_description": None, "meta_title": None,
        "meta_description": None, "codeinjection_head": None, "codeinjection_foot": None, "canonical_url": None,
        "accent_color": None, "url": site.tag_url(term.slug),
    }
    if count is not None:
        data["count"] = {"posts": count}
    return data


def author(found: Author, site: Site, *, with_count: bool = False) -> dict:
    """A staff member with published posts, with their author profile (apps.accounts.profiles)."""
    user = found.user
    data = {
        "id": ids.ghost_id(user.id), "name": author_name(user.display_name, user.username), "slug": found.slug,
        "profile_image": user.profile_image or None, "cover_image": user.cover_image or None, "bio": user.bio or None,
        "website": user.website or None, "location": user.location or None,
        "facebook": ghost_handle("facebook", user.facebook), "twitter": ghost_handle("twitter", user.twitter),
        "meta_title": None, "meta_description": None, "url": site.author_url(found.slug),
    }
    if with_count:
        data["count"] = {"posts": found.count}
    return data


@dataclass(frozen=True)
class Text:
    """What Ghost derives from a post's HTML: its text, the excerpt made of it, the reading time."""
    plaintext: str
    excerpt: str
    reading_time: int


# The Text of each post's content a worker has served (by the post's id and a hash of its HTML,
# whatever path changed it), so a list of the newest posts reads their HTML once, not on each
# reply-cache miss. Bounded: a worker keeps at most _TEXTS_MAX posts' texts (a few MB).
_TEXTS: OrderedDict[tuple, Text] = OrderedDict()
_TEXTS_MAX = 2048


def text_of(row: dict) -> Text:
    content = row["content"] or ""
    key = (row["id"], len(content), hash(content))
    found = _TEXTS.get(key)
    if found is None:
        text = plaintext(content)
        found = Text(text, text[:EXCERPT_LENGTH], reading_time(text))
        _TEXTS[key] = found
        while len(_TEXTS) > _TEXTS_MAX:
            _TEXTS.popitem(last=False)
    return found


def post(row: dict, wanted: GhostQuery, *, site: Site, reads: Reads, images: Images, member: bool = False) -> dict:
    """A post row (apps.ghost_api.selectors.POST_COLUMNS, with its `terms`) as Ghost's post. A
    members-only post (docs/content.md#members-only-posts) read by anyone but a `member` (or the
    staff, through the Admin API) is answered as Ghost answers a visitor without access: `access`
    false, `html`, `plaintext` and the excerpt made of the body empty (Ghost's free preview, the
    part before a paywall card, does not exist here: the sanitiser keeps no HTML comment); its
    title, `custom_excerpt` (as `excerpt` too), images and `reading_time` (of the whole body, as
    Ghost counts it before gating) stay."""
    visibility = row["visibility"]
    access = body_visible(visibility, member=member)
    content = (row["content"] or "") if access else ""
    text = text_of(row) if access else Text("", "", text_of(row).reading_time)
    ghost_id = ids.ghost_id(row["id"])
    data = {
        "id": ghost_id, "uuid": str(row["id"]), "title": row["title"], "slug": row["slug"], "html": content,
        "comment_id": ghost_id, "feature_image": images.url(row["featured_image__storage_key"]),
        "featured": bool(row["featured"]), "visibility": visibility, "created_at": _row_time(row, "created_at"),
        "updated_at": _row_time(row, "updated_at"), "published_at": _row_time(row, "published_at"),
        "custom_excerpt": row["excerpt"] or None, "codeinjection_head": None, "codeinjection_foot": None,
        "custom_template": None, "canonical_url": row["canonical_url"] or None, "url": site.url_of(row),
        "excerpt": row["excerpt"] or text.excerpt, "reading_time": text.reading_time, "access": access,
        "comments": False, "og_image": images.url(row["og_image__storage_key"]), "og_title": row["og_title"] or None,
        "og_description": row["og_description"] or None, "twitter_image": images.url(row["twitter_image__storage_key"]),
        "twitter_title": row["twitter_title"] or None, "twitter_description": row["twitter_description"] or None,
        "meta_title": row["meta_title"] or None, "meta_description": row["meta_description"] or None,
        "email_subject": None, "frontmatter": None,
        "feature_image_alt": (row["featured_image__alt_text"] or None) if row["featured_image__storage_key"] else None,
        "feature_image_caption": None,
    }
    if "plaintext" in wanted.formats:
        data["plaintext"] = text.plaintext
    if "html" not in wanted.formats:
        del data["html"]
    if "tags" in wanted.include:  # its tags, then its categories; its primary tag: its first tag
        data["tags"], data["primary_tag"] = reads.tags_reply(row["terms"], site, tag)
    if "authors" in wanted.include:
        found = reads.author_by_id.get(row["author_id"])
        people = [author(found, site)] if found is not None else []
        data["authors"], data["primary_author"] = people, (people[0] if people else None)
    return only(data, wanted)


def only(data: dict, wanted: GhostQuery) -> dict:
    """The fields asked for with `fields` (all without it; names the resource lacks are dropped)."""
    if wanted.fields is None:
        return data
    return {name: value for name, value in data.items() if name in wanted.fields}


def settings(client, site: Site, view=None) -> dict:
    """Ghost's site settings from the company's (its name and time zone, its site settings:
    apps.site.selectors.site_view)."""
    view = view or site_view(client)
    row = view.row
    return {
        "title": view.title, "description": row.description, "logo": view.images["logo"],
        "icon": view.images["icon"], "accent_color": row.accent_color or None,
        "cover_image": view.images["cover_image"], "facebook": view.ghost_handle("facebook"),
        "twitter": view.ghost_handle("twitter"), "lang": view.language, "locale": view.language,
        "timezone": client.time_zone or "Etc/UTC", "codeinjection_head": None, "codeinjection_foot": None,
        "navigation": list(row.navigation or []), "secondary_navigation": list(row.secondary_navigation or []),
        "meta_title": row.meta_title or None, "meta_description": row.meta_description or None,
        "og_image": None, "og_title": None, "og_description": None, "twitter_image": None, "twitter_title": None,
        "twitter_description": None, "members_support_address": "noreply", "members_enabled": False,
        "allow_self_signup": False, "members_invite_only": False, "members_signup_access": "none",
        "paid_members_enabled": False, "firstpromoter_account": None, "portal_button_style": "icon-and-text",
        "portal_button_signup_text": "Subscribe", "portal_button_icon": None, "portal_signup_terms_html": None,
        "portal_signup_checkbox_required": False, "portal_plans": ["free"], "portal_default_plan": "yearly",
        "portal_name": False, "portal_button": False, "comments_enabled": "off", "recommendations_enabled": False,
        "outbound_link_tagging": False, "default_email_address": None, "support_email_address": None,
        "editor_default_email_recipients": "disabled", "labs": {}, "url": site.base + "/",
        "version": "5.0",
    }


def free_tier(client, site: Site) -> dict:
    """The one tier of every company: free, public (Ghost's default tier)."""
    return {
        "id": ids.ghost_id(client.uuid), "name": "Free", "description": None, "slug": "free", "active": True,
        "type": "free", "welcome_page_url": None, "created_at": ghost_time(client.created_at),
        "updated_at": ghost_time(client.created_at), "visibility": "public", "trial_days": 0, "currency": None,
        "monthly_price": None, "yearly_price": None, "benefits": [],
    }
