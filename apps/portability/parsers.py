"""Read a blog export into one neutral shape (`Blog`): a WordPress export (WXR 1.0-1.2, the XML of
Tools -> Export) or a Ghost export (the JSON of Labs -> Export, 1.x-5.x, alone or in its zip with
the images). Nothing here writes; the importer (apps.portability.importer) maps a Blog to posts.

Safety: XML is parsed by defusedxml (entity declarations, external entities and DTD network access
refused: a "billion laughs" or an XXE file is a ParseFailed, never expanded); a zip's members are
read only when their names stay inside the archive (no absolute paths, no `..`), and their
declared and actual sizes count against the file size limit. Every failure is a ParseFailed whose
message names the line (XML) or the key (JSON) that failed.
"""
from __future__ import annotations

import html as html_lib
import io
import json
import math
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone as dt_timezone
from urllib.parse import unquote
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XMLParseError

from apps.core.text import TextRefused, input_text
from apps.portability.html import markdown_html
from apps.portability.phpdata import php_unserialize

WXR_VERSIONS = ("1.0", "1.1", "1.2")
WORDPRESS, GHOST = "wordpress", "ghost"
_NS_WP = re.compile(r"^https?://wordpress\.org/export/1\.[0-2]/$")
_NS_EXCERPT = re.compile(r"^https?://wordpress\.org/export/1\.[0-2]/excerpt/$")
_NS_CONTENT = "http://purl.org/rss/1.0/modules/content/"
_NS_DC = "http://purl.org/dc/elements/1.1/"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp")
# Why a post is not public at its source (SourcePost.restricted).
RESTRICTED_PRIVATE, RESTRICTED_PASSWORD, RESTRICTED_MEMBERS = "private", "password-protected", "members-only"
# What a post that is not public at its source becomes here, decided in this one place
# (apps.portability.importer reads it for the dry run and the import): members-only, its status
# kept (Ghost's members, paid and tiers posts, which every member reads here; WordPress's
# password-protected posts, whose password was a key handed to readers:
# docs/content.md#members-only-posts), or a draft (WordPress's private posts, which only their
# site's staff could read). Never public.
RESTRICTED_AS = {RESTRICTED_MEMBERS: "members", RESTRICTED_PASSWORD: "members", RESTRICTED_PRIVATE: "draft"}


class ParseFailed(Exception):
    """The file cannot be read: `message` says where (a line of the XML, a key of the JSON)."""

    def __init__(self, message: str, *, where: str = ""):
        super().__init__(message)
        self.message = message
        self.where = where


@dataclass
class SourceAuthor:
    source_id: str
    email: str
    name: str
    login: str = ""
    # The author profile (PROFILE_KEYS): display_name, bio, website, location, profile_image,
    # cover_image (addresses, or paths inside a Ghost zip), facebook, twitter (handles or addresses)
    profile: dict[str, str] = field(default_factory=dict)


@dataclass
class SourceTerm:
    kind: str  # "category" or "tag"
    source_id: str
    name: str
    slug: str
    description: str = ""
    parent: str = ""  # the parent's source id (categories of WordPress)


@dataclass
class SourcePost:
    source_id: str
    kind: str  # "post" or "page"
    title: str
    slug: str
    html: str
    excerpt: str
    status: str  # published, draft, scheduled
    # Why the post is not public at the source, when it is not ("private", "password-protected",
    # "members-only"): it is imported as a draft, whatever its status there, and reported.
    restricted: str = ""
    # Its language as the source names it (Polylang's language slug, WPML's code; "": the
    # company's default) and the key of its group of translations in the source ("": none)
    language: str = ""
    translation_key: str = ""
    published_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    author: str = ""  # the author's source id
    categories: list[str] = field(default_factory=list)  # source ids
    tags: list[str] = field(default_factory=list)  # source ids
    parent: str = ""  # a WordPress page's parent page (its source id): pages are imported flat, this is reported
    featured_image: str = ""  # URL, or a path inside a Ghost zip
    featured_alt: str = ""
    featured: bool = False  # Ghost's `featured` (true or 1): a featured post (docs/content.md#featured-posts)
    seo: dict[str, str] = field(default_factory=dict)  # meta_title, og_image (a URL), ...
    old_urls: list[str] = field(default_factory=list)  # absolute URLs or paths of the old site


@dataclass
class Blog:
    source: str  # wordpress or ghost
    version: str
    site_url: str = ""
    authors: list[SourceAuthor] = field(default_factory=list)
    terms: list[SourceTerm] = field(default_factory=list)
    posts: list[SourcePost] = field(default_factory=list)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, source id or title, why)
    files: dict[str, bytes] = field(default_factory=dict)  # images of a Ghost zip, by path ("content/images/...")
    image_alts: dict[str, str] = field(default_factory=dict)  # image address -> alt text (our own exports)
    # WordPress attachments: id -> (url, alt text, id of the post it belongs to), for [gallery]
    attachments: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    # The site's settings (SETTINGS_KEYS): text, except navigation and secondary_navigation (lists of
    # {"label", "url"} of text); images are addresses or paths inside a Ghost zip
    settings: dict[str, object] = field(default_factory=dict)
    # The source's languages (WordPress with Polylang): its name for each (a slug) -> its locale
    # ("fr_FR"), as the language's term describes it ("" when it does not)
    languages: dict[str, str] = field(default_factory=dict)
    # What the file holds that is not brought over, counted by kind (comment, custom_field, member...)
    left_out: dict[str, int] = field(default_factory=dict)


def parse_export(data: bytes, *, file_name: str = "", max_bytes: int) -> Blog:
    """The blog in a WXR file, a Ghost JSON file or a Ghost zip (told apart by their first bytes)."""
    if len(data) > max_bytes:
        raise ParseFailed(f"The file is larger than the limit of {max_bytes // (1024 * 1024) or 1} MB", where="size")
    head = data[:512].lstrip()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # a byte order mark of UTF-16 (XML in UTF-16: WordPress)
        head = data[2:512].decode("utf-16-le" if data[:1] == b"\xff" else "utf-16-be", "replace").lstrip().encode()
    if data[:4] == b"PK\x03\x04" or file_name.lower().endswith(".zip"):
        return parse_ghost_zip(data, max_bytes=max_bytes)
    if head.startswith((b"{", b"\xef\xbb\xbf{")):
        return parse_ghost_json(data)
    if head.startswith((b"<", b"\xef\xbb\xbf<")):
        return parse_wxr(data)
    raise ParseFailed("This is neither a WordPress export (XML) nor a Ghost export (JSON or zip)", where="line 1")


# --- WordPress ------------------------------------------------------------------------------------
def _kind(tag: str) -> tuple[str, str]:
    """(namespace kind, local name) of an ElementTree tag: wp, excerpt, content, dc or ''."""
    if not tag.startswith("{"):
        return "", tag
    namespace, _, local = tag[1:].partition("}")
    if _NS_WP.match(namespace):
        return "wp", local
    if _NS_EXCERPT.match(namespace):
        return "excerpt", local
    if namespace == _NS_CONTENT:
        return "content", local
    if namespace == _NS_DC:
        return "dc", local
    return namespace, local


def _fields(element: Element) -> dict[tuple[str, str], list[Element]]:
    found: dict[tuple[str, str], list[Element]] = {}
    for child in element:
        found.setdefault(_kind(child.tag), []).append(child)
    return found


def _text(fields: dict, kind: str, name: str) -> str:
    elements = fields.get((kind, name))
    return (elements[0].text or "").strip() if elements else ""


def _wp_slug(value: str) -> str:
    """A WordPress slug as its letters: WordPress stores the slugs of titles in other scripts
    percent-encoded (`%d8%b9%d8%b1%d8%a8%db%8c` for `عربی`); a value that is not UTF-8 once
    decoded is kept as written."""
    if "%" not in value:
        return value
    try:
        decoded = unquote(value, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        return value
    try:
        return input_text(decoded)
    except TextRefused:
        return value


def _unescaped(text: str) -> str:
    """A WordPress title or term name as its text: WordPress stores them HTML-escaped (a title
    `Tom &amp; Jerry`, written so inside CDATA), so their entities are decoded once."""
    if "&" not in text:
        return text
    try:
        return input_text(html_lib.unescape(text))
    except TextRefused:  # an entity of NUL or a lone surrogate: the text as written
        return text


def _wp_date(value: str) -> datetime | None:
    """A WordPress date (UTC, `post_date_gmt`), None for its empty `0000-00-00 00:00:00`."""
    value = (value or "").strip()
    if not value or value.startswith("0000"):
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt_timezone.utc)
    except ValueError:
        return None


# The encodings an export may be written in: expat's own (UTF-8, UTF-16, ISO-8859-1, US-ASCII) and
# the single-byte code pages WordPress sites were set to (Windows-125x, ISO-8859-x, KOI8, Mac). Any
# other (UTF-7, the multi-byte Asian encodings, the codecs Python names that are no text encodings)
# is refused by name before the parser sees it.
_XML_ENCODINGS = re.compile(r"utf-8|utf-8-sig|utf-16|utf-16-[lb]e|ascii|iso8859-\d{1,2}|cp125[0-8]|cp874|tis-620"
                            r"|koi8-[ru]|mac-(?:roman|latin2|cyrillic|greek|turkish|iceland)")
_XML_DECLARATION = re.compile(r"\s*<\?xml\s[^>]{0,200}?\bencoding\s*=\s*[\"']([^\"']{0,80})[\"']")


def _declared_encoding(data: bytes) -> str | None:
    """The encoding the XML declaration names, or None."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = data[2:600].decode("utf-16-le" if data[:1] == b"\xff" else "utf-16-be", "replace")
    else:
        head = data[3:600] if data.startswith(b"\xef\xbb\xbf") else data[:600]
        head = head.decode("latin-1")
    match = _XML_DECLARATION.match(head)
    return match.group(1) if match else None


def _xml_encoding_refused(name: str) -> ParseFailed:
    return ParseFailed(f"The XML declares the encoding {name[:80]}, which is not supported: export the file "
                       "as UTF-8 (or UTF-16, ISO-8859-1, Windows-1252)", where="line 1")


def _xml_root(data: bytes) -> Element:
    import codecs

    import defusedxml.ElementTree as safe_xml
    from defusedxml import DefusedXmlException

    encoding = _declared_encoding(data)
    if encoding is not None:
        try:
            known = codecs.lookup(encoding).name
        except LookupError:
            known = ""
        if not _XML_ENCODINGS.fullmatch(known):
            raise _xml_encoding_refused(encoding)
    try:
        return safe_xml.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ParseFailed("The file declares XML entities, which are refused (an entity-expansion "
                          f"or external-entity attack): {type(exc).__name__}", where="entities") from exc
    except XMLParseError as exc:
        line, column = exc.position
        raise ParseFailed(f"The XML is not well-formed at line {line}, column {column + 1}",
                          where=f"line {line}") from exc
    except (ValueError, LookupError) as exc:  # an encoding the parser cannot read after all
        raise _xml_encoding_refused(encoding or "(undeclared)") from exc


# WordPress statuses: publish, future (scheduled), draft, pending (waiting for review), private, trash,
# auto-draft, inherit (attachments, revisions).
_WP_STATUS = {"publish": "published", "future": "scheduled", "draft": "draft", "pending": "draft",
              "private": "draft"}
# SEO postmeta of Yoast SEO and Rank Math, and the field each fills.
_SEO_META = {
    "_yoast_wpseo_title": "meta_title", "_yoast_wpseo_metadesc": "meta_description",
    "_yoast_wpseo_focuskw": "focus_keyword", "_yoast_wpseo_canonical": "canonical_url",
    "_yoast_wpseo_opengraph-title": "og_title", "_yoast_wpseo_opengraph-description": "og_description",
    "_yoast_wpseo_opengraph-image": "og_image", "_yoast_wpseo_twitter-title": "twitter_title",
    "_yoast_wpseo_twitter-description": "twitter_description", "_yoast_wpseo_twitter-image": "twitter_image",
    "rank_math_title": "meta_title", "rank_math_description": "meta_description",
    "rank_math_focus_keyword": "focus_keyword", "rank_math_canonical_url": "canonical_url",
    "rank_math_facebook_title": "og_title", "rank_math_facebook_description": "og_description",
    "rank_math_facebook_image": "og_image", "rank_math_twitter_title": "twitter_title",
    "rank_math_twitter_description": "twitter_description", "rank_math_twitter_image": "twitter_image",
}
# Postmeta read (or WordPress's own, underscored): any other key is a custom field, not brought over.
_KNOWN_META = {*(k for k in ("rank_math_title", "rank_math_description", "rank_math_focus_keyword",
                             "rank_math_canonical_url", "rank_math_facebook_title", "rank_math_facebook_description",
                             "rank_math_facebook_image", "rank_math_twitter_title", "rank_math_twitter_description",
                             "rank_math_twitter_image")), "wpml_language", "wpml_translation_group"}
_SEO_VARIABLE = re.compile(r"%%[a-z_]+%%|%[a-z_]+%")


def _seo_value(value: str, *, title: str, field_name: str) -> str:
    """Yoast and Rank Math titles hold template variables (%%title%% %%sep%% %%sitename%%): the
    post's title is put in, the rest dropped."""
    if field_name in ("og_image", "twitter_image", "canonical_url"):
        return value.strip()
    value = value.replace("%%title%%", title).replace("%title%", title)
    value = _SEO_VARIABLE.sub("", value)
    return re.sub(r"\s{2,}", " ", value).strip(" -|")


def parse_wxr(data: bytes) -> Blog:
    root = _xml_root(data)
    if root.tag != "rss":
        raise ParseFailed(f"A WordPress export starts with <rss>, this file with <{root.tag}>", where="line 1")
    channel = root.find("channel")
    if channel is None:
        raise ParseFailed("The WordPress export has no <channel> element", where="rss/channel")
    head = _fields(channel)
    version = _text(head, "wp", "wxr_version")
    if version not in WXR_VERSIONS:
        raise ParseFailed(f"WordPress export version {version or '(missing)'} is not supported "
                          f"(supported: {', '.join(WXR_VERSIONS)})", where="channel/wp:wxr_version")
    blog = Blog(source=WORDPRESS, version=f"WXR {version}",
                site_url=_text(head, "wp", "base_blog_url") or _text(head, "", "link"))
    for element in head.get(("wp", "author"), []):
        f = _fields(element)
        login = _text(f, "wp", "author_login")
        blog.authors.append(SourceAuthor(source_id=login, login=login, email=_text(f, "wp", "author_email").lower(),
                                         name=_text(f, "wp", "author_display_name") or login))
    categories_by_slug: dict[str, SourceTerm] = {}
    for element in head.get(("wp", "category"), []):
        f = _fields(element)
        slug = _text(f, "wp", "category_nicename")
        term = SourceTerm(kind="category", source_id=slug, slug=_wp_slug(slug),
                          name=_unescaped(_text(f, "wp", "cat_name")) or slug,
                          description=_text(f, "wp", "category_description"), parent=_text(f, "wp", "category_parent"))
        categories_by_slug[slug] = term
    tags_by_slug: dict[str, SourceTerm] = {}
    for element in head.get(("wp", "tag"), []):
        f = _fields(element)
        slug = _text(f, "wp", "tag_slug")
        tags_by_slug[slug] = SourceTerm(kind="tag", source_id=slug, slug=_wp_slug(slug),
                                        name=_unescaped(_text(f, "wp", "tag_name")) or slug,
                                        description=_text(f, "wp", "tag_description"))
    translated = _polylang(blog, head)
    attachments = blog.attachments
    items = []
    for item in channel.findall("item"):
        f = _fields(item)
        post_type = _text(f, "wp", "post_type")
        meta = {}
        for element in f.get(("wp", "postmeta"), []):
            mf = _fields(element)
            meta[_text(mf, "wp", "meta_key")] = _text(mf, "wp", "meta_value")
        if post_type == "attachment":
            attachments[_text(f, "wp", "post_id")] = (_text(f, "wp", "attachment_url"),
                                                      meta.get("_wp_attachment_image_alt", ""),
                                                      _text(f, "wp", "post_parent"))
            continue
        items.append((item, f, post_type, meta))
        comments = len(f.get(("wp", "comment"), []))
        if comments:
            blog.left_out["comment"] = blog.left_out.get("comment", 0) + comments
        fields = sum(1 for key in meta if key and not key.startswith("_") and key not in _KNOWN_META)
        if fields and post_type in ("post", "page"):
            blog.left_out["custom_field"] = blog.left_out.get("custom_field", 0) + fields
    for item, f, post_type, meta in items:
        source_id = _text(f, "wp", "post_id")
        title = _unescaped(_text(f, "", "title"))
        if post_type not in ("post", "page"):
            blog.skipped.append((post_type or "item", title or source_id, f"WordPress {post_type or 'item'} (not a post or page)"))
            continue
        wp_status = _text(f, "wp", "status")
        status = _WP_STATUS.get(wp_status)
        if status is None:
            blog.skipped.append((post_type, title or source_id, f"status {wp_status or '(none)'} is not imported"))
            continue
        post = SourcePost(
            source_id=source_id, kind=post_type, title=title or "(untitled)", slug=_wp_slug(_text(f, "wp", "post_name")),
            html=_text(f, "content", "encoded"), excerpt=_text(f, "excerpt", "encoded"), status=status,
            author=_text(f, "dc", "creator"),
            published_at=_wp_date(_text(f, "wp", "post_date_gmt")),
        )
        post.created_at = post.published_at
        if wp_status == "private":
            post.restricted = RESTRICTED_PRIVATE
        elif _text(f, "wp", "post_password"):
            post.restricted = RESTRICTED_PASSWORD
        parent = _text(f, "wp", "post_parent")
        if post_type == "page" and parent not in ("", "0"):
            post.parent = parent
        for element in f.get(("", "category"), []):
            domain, slug = element.get("domain", ""), element.get("nicename", "")
            name = _unescaped((element.text or "").strip())
            if not slug:
                continue
            if domain == "language":  # Polylang: the post's language
                post.language = slug
                continue
            if domain == "post_translations":  # Polylang: the post's group of translations
                post.translation_key = f"polylang:{slug}"
                continue
            registry, kind = ((categories_by_slug, "category") if domain == "category"
                              else (tags_by_slug, "tag") if domain == "post_tag" else (None, ""))
            if registry is None:
                continue
            registry.setdefault(slug, SourceTerm(kind=kind, source_id=slug, slug=_wp_slug(slug), name=name or slug))
            (post.categories if kind == "category" else post.tags).append(slug)
        thumbnail = meta.get("_thumbnail_id", "")
        if thumbnail:
            if thumbnail in attachments:
                post.featured_image, post.featured_alt, _ = attachments[thumbnail]
            else:
                blog.skipped.append(("image", f"attachment {thumbnail}", f"featured image of \"{post.title}\" is not in the file"))
        for key, field_name in _SEO_META.items():
            if meta.get(key) and not post.seo.get(field_name):
                post.seo[field_name] = _seo_value(meta[key], title=post.title, field_name=field_name)
        for url in (_text(f, "", "link"), _text(f, "", "guid")):
            if url and url not in post.old_urls:
                post.old_urls.append(url)
        if not post.translation_key and source_id in translated:
            post.translation_key = translated[source_id]
        _wpml(post, meta)
        blog.posts.append(post)
    _wpml_duplicates(blog.posts, {item_id: meta for item_id, meta in (
        (_text(f, "wp", "post_id"), meta) for _item, f, _type, meta in items)})
    blog.terms = list(categories_by_slug.values()) + list(tags_by_slug.values())
    _wxr_site(blog, head)
    return blog


# --- WordPress's multilingual plugins --------------------------------------------------------------
# Polylang keeps languages and translations in taxonomies, which a WXR export carries: each post's
# `<category domain="language" nicename="fr">` and `<category domain="post_translations"
# nicename="pll_...">`; the channel's `wp:term` of taxonomy `language` (slug: its code, description:
# a PHP-serialized array with its `locale`) and of taxonomy `post_translations` (description: a
# PHP-serialized array of language -> post id).
# WPML keeps them in its own tables, which a WXR export does not carry; its "Export and Import"
# add-on writes them as postmeta, and older tools as `wpml_*` keys: the language, the group and, for
# a duplicate, the post it duplicates.
_WPML_LANGUAGE = ("_wpml_import_language_code", "wpml_language", "_wpml_language")
_WPML_GROUP = ("_wpml_import_translation_group", "wpml_translation_group", "_wpml_translation_group")
_WPML_DUPLICATE = "_icl_lang_duplicate_of"
_CODE = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8}){0,3}")


def _polylang(blog: Blog, head: dict) -> dict[str, str]:
    """The source's languages (into blog.languages) and, per post id, its Polylang group."""
    translated: dict[str, str] = {}
    for element in head.get(("wp", "term"), []):
        f = _fields(element)
        taxonomy, slug = _text(f, "wp", "term_taxonomy"), _text(f, "wp", "term_slug")
        description = _text(f, "wp", "term_description")
        if taxonomy == "language" and _CODE.fullmatch(slug):
            locale = _php_value(description).get("locale") if description else None
            blog.languages[slug] = locale if isinstance(locale, str) and _CODE.fullmatch(locale) else ""
        elif taxonomy == "post_translations" and slug:
            for post_id in _php_value(description).values():
                if isinstance(post_id, (int, str)) and not isinstance(post_id, bool) and str(post_id).isdigit():
                    translated.setdefault(str(post_id), f"polylang:{slug}")
    return translated


def _php_value(text: str) -> dict:
    """A term description's PHP-serialized array ({} when it is none: such a term is read without)."""
    try:
        value = php_unserialize(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _wpml(post: SourcePost, meta: dict[str, str]) -> None:
    for key in _WPML_LANGUAGE:
        if _CODE.fullmatch(meta.get(key, "")) and not post.language:
            post.language = meta[key]
    for key in _WPML_GROUP:
        if meta.get(key) and not post.translation_key:
            post.translation_key = f"wpml:{meta[key][:200]}"


def _wpml_duplicates(posts: list[SourcePost], meta_of: dict[str, dict[str, str]]) -> None:
    """A WPML duplicate joins the group of the post it duplicates (their group: that post's)."""
    by_id = {post.source_id: post for post in posts}
    for post in posts:
        original = by_id.get((meta_of.get(post.source_id) or {}).get(_WPML_DUPLICATE, ""))
        if original is None or original is post or post.translation_key:
            continue
        original.translation_key = original.translation_key or f"wpml-post:{original.source_id}"
        post.translation_key = original.translation_key


# --- Ghost ----------------------------------------------------------------------------------------
# Every value read from a Ghost export is checked against the type of its column, where the table
# is read (`_rows`), so that the Blog this parser returns holds only what its fields say: text is
# a str (a number written where text is expected is its digits; a list, an object or a boolean is
# refused), an order an int, a time an aware datetime in UTC (a NaN, an infinity or a time Python
# cannot hold is refused). Text follows the product's input rule (apps.core.text: a NUL or an
# unpaired surrogate, which PostgreSQL cannot hold, is refused). Every refusal names its key path.
_TEXT, _ORDER, _TIME, _DOCUMENT, _FLAG = "text", "order", "time", "document", "flag"
_GHOST_STATUS = {"published": "published", "draft": "draft", "scheduled": "scheduled", "sent": "published"}
_GHOST_SEO = ("meta_title", "meta_description", "og_title", "og_description", "og_image", "twitter_title",
              "twitter_description", "twitter_image", "canonical_url", "focus_keyword")
_POST_COLUMNS = {
    **dict.fromkeys(("id", "title", "slug", "type", "status", "html", "custom_excerpt", "feature_image", "author_id",
                     "feature_image_alt", "visibility", *_GHOST_SEO), _TEXT),
    "page": _FLAG, "featured": _FLAG, "mobiledoc": _DOCUMENT, "lexical": _DOCUMENT,
    "markdown": _TEXT, "image": _TEXT,  # Ghost 0.x's columns
    **dict.fromkeys(("published_at", "created_at", "updated_at"), _TIME),
}
# The tables read, and of each the columns read (any other column is not looked at).
_GHOST_TABLES: dict[str, dict[str, str]] = {
    "users": dict.fromkeys(("id", "email", "name", "slug"), _TEXT),
    "tags": dict.fromkeys(("id", "name", "slug", "description", "visibility"), _TEXT),
    "categories": dict.fromkeys(("id", "name", "slug", "description"), _TEXT),  # our own exports
    "media": dict.fromkeys(("path", "alt_text"), _TEXT),  # our own exports
    "posts_tags": {"post_id": _TEXT, "tag_id": _TEXT, "sort_order": _ORDER},
    "posts_categories": {"post_id": _TEXT, "category_id": _TEXT, "sort_order": _ORDER},  # our own exports
    "posts_authors": {"post_id": _TEXT, "author_id": _TEXT, "sort_order": _ORDER},
    "posts_meta": dict.fromkeys(("post_id", "feature_image_alt", *_GHOST_SEO), _TEXT),
    "posts_cms": {"post_id": _TEXT, **{k: v for k, v in _POST_COLUMNS.items() if k != "id"}},  # our own exports
    "posts": _POST_COLUMNS,
}
_GHOST_0X = re.compile(r"0(?:0\d|\.\d{1,3}(?:\.\d{1,3})?)", re.ASCII)  # "003".."009", "0.11.14"
LEXICAL_DEPTH_MAX = 64  # levels of nodes in a lexical document (Ghost's editor nests a few)
_JSON_DEPTH_SHOWN = 64  # where a JSON document nested too deeply is said to go too deep
_LONG_NUMBER = re.compile(r"-?\d{4000,}")
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"\s*:?|[\[\]{},]')


def _shown(value) -> str:
    """A short description of a value for a message (never the whole of a long or nested one)."""
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value if not isinstance(value, str) else value[:40])[:60]


def _text_value(value, where: str) -> str:
    """A text column: None (and the 1.x exports' "None") is empty; a number is its digits."""
    if value is None or value == "None":
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise ParseFailed(f"{where} must be text, not {_shown(value)}", where=where)
    return _clean(value if isinstance(value, str) else str(value), where).strip()


def _clean(text: str, where: str) -> str:
    """`text` under the product's input rule (apps.core.text.input_text), a refusal as ParseFailed."""
    try:
        return input_text(text)
    except TextRefused as exc:
        raise ParseFailed(f"{where}: {exc}", where=where) from exc


def _order_value(value, where: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,18}\s*", value, re.ASCII):
        return int(value)
    raise ParseFailed(f"{where} must be a number, not {_shown(value)}", where=where)


def _ghost_date(value, where: str) -> datetime | None:
    """A time of a Ghost export (ISO 8601, or milliseconds since 1970) in UTC; a time without an
    offset is UTC (Ghost writes UTC)."""
    if value in (None, "", "None"):
        return None
    try:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise ValueError(value)
            return datetime.fromtimestamp(value / 1000, tz=dt_timezone.utc)
        if not isinstance(value, str):
            raise ValueError(value)
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        return (parsed if parsed.tzinfo else parsed.replace(tzinfo=dt_timezone.utc)).astimezone(dt_timezone.utc)
    except (ValueError, OverflowError, OSError) as exc:
        raise ParseFailed(f"{where} is not a date: {_shown(value)}", where=where) from exc


def _document_value(value, where: str):
    """A mobiledoc or lexical column: its JSON text, or (as some tools write it) the document itself."""
    if value is None or value == "None":
        return ""
    if not isinstance(value, (str, dict)):
        raise ParseFailed(f"{where} must be a JSON document in a string, not {_shown(value)}", where=where)
    return value


def _flag_value(value, where: str) -> bool:
    return value in (True, 1, "1", "true")


_READERS = {_TEXT: _text_value, _ORDER: _order_value, _TIME: _ghost_date, _DOCUMENT: _document_value,
            _FLAG: _flag_value}


def _rows(data: dict, table: str) -> list[dict]:
    """The rows of a table, each with the columns read (`_GHOST_TABLES`) of the type each must have."""
    rows = data.get(table) or []
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ParseFailed(f"db[0].data.{table} must be a list of objects", where=f"db[0].data.{table}")
    columns = _GHOST_TABLES[table]
    return [{name: _READERS[kind](row[name], f"db[0].data.{table}[{index}].{name}")
             for name, kind in columns.items() if name in row}
            for index, row in enumerate(rows)]


def _json(text: str, *, where: str = ""):
    """A JSON document (the export's, `where` empty; or a mobiledoc or lexical in one, at `where`):
    every failure is a ParseFailed naming the line, or the key path."""
    subject = where or "The JSON"
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseFailed(f"{subject} is not valid{' JSON' if where else ''} at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                          where=where or f"line {exc.lineno}") from exc
    except RecursionError:
        path, line = _too_deep(text)
        raise ParseFailed(f"{subject} is nested too deeply: arrays or objects more than {_JSON_DEPTH_SHOWN} "
                          f"levels deep at line {line}", where=_joined(where, path) or f"line {line}") from None
    except ValueError as exc:  # a number of more digits than Python reads
        found = _LONG_NUMBER.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        raise ParseFailed(f"{subject} holds a number of too many digits at line {line}",
                          where=where or f"line {line}") from exc


def _joined(where: str, path: str) -> str:
    return f"{where}{path}" if path.startswith("[") or not where else f"{where}.{path}" if path else where


def _too_deep(text: str) -> tuple[str, int]:
    """The key path and line where a JSON document first nests deeper than _JSON_DEPTH_SHOWN (read
    only when the parser has given up on it: not on the way of any export that parses)."""
    stack: list[list] = []  # [is a list, its index or the object's current key]
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            if token[-1] == ":" and stack and not stack[-1][0]:
                try:
                    stack[-1][1] = json.loads(token[:-1].rstrip())
                except ValueError:
                    stack[-1][1] = "?"
        elif token in "[{":
            stack.append([token == "[", 0 if token == "[" else ""])
            if len(stack) > _JSON_DEPTH_SHOWN:
                parts = [f"[{key}]" if is_list else f".{key}" for is_list, key in stack[:-1]][:8]
                path = "".join(parts).lstrip(".") + ("..." if len(stack) > 9 else "")
                return path, text.count("\n", 0, match.start()) + 1
        elif token in "]}":
            if stack:
                stack.pop()
        elif stack and stack[-1][0]:  # a comma in a list
            stack[-1][1] += 1
    return "", 1


def parse_ghost_json(data: bytes) -> Blog:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseFailed("The JSON file is not UTF-8 text", where=f"byte {exc.start}") from exc
    document = _json(text)
    if not isinstance(document, dict):
        raise ParseFailed("A Ghost export is a JSON object", where="(root)")
    if "db" in document:
        if not isinstance(document["db"], list) or not document["db"] or not isinstance(document["db"][0], dict):
            raise ParseFailed("db must be a list holding one object", where="db")
        database = document["db"][0]
    else:
        database = document
    meta, data_ = database.get("meta"), database.get("data")
    if not isinstance(meta, dict) or not isinstance(data_, dict):
        raise ParseFailed("A Ghost export has db[0].meta and db[0].data objects", where="db[0].data")
    version = _text_value(meta.get("version"), "db[0].meta.version")
    legacy = _GHOST_0X.fullmatch(version) is not None  # Ghost 0.x: its database version, "003" to "009"
    major = re.match(r"(\d{1,4})(?:\.|$)", version, re.ASCII)
    if not legacy and (major is None or not 1 <= int(major.group(1)) <= 5):
        raise ParseFailed(f"Ghost version {version[:40] or '(missing)'} cannot be read here. Export from Ghost 0.x "
                          "(its database version 003 to 009) or Ghost 1.x to 5.x: in Ghost Admin, Settings, Labs, "
                          "Export your content (on Ghost 0.x: Settings, Labs, Export). A Ghost newer than 5.x: "
                          "export from it, then ask us for its version", where="db[0].meta.version")
    # ImportJob.source_version holds 40
    blog = Blog(source=GHOST, version=f"Ghost 0.x (database {version})" if legacy else f"Ghost {version[:32]}")
    for row in _rows(data_, "users"):
        blog.authors.append(SourceAuthor(source_id=row.get("id", ""), email=row.get("email", "").lower(),
                                         name=row.get("name") or row.get("slug", ""), login=row.get("slug", "")))
    tags = {}
    for index, row in enumerate(_rows(data_, "tags")):
        if not row.get("id") or not row.get("name"):
            raise ParseFailed("A tag needs an id and a name", where=f"db[0].data.tags[{index}]")
        if row.get("visibility") == "internal" or row["name"].startswith("#"):
            blog.skipped.append(("tag", row["name"], "internal Ghost tag (#...)"))
            continue
        tag = SourceTerm(kind="tag", source_id=row["id"], name=row["name"], slug=row.get("slug", ""),
                         description=row.get("description", ""))
        tags[tag.source_id] = tag
    # Our own exports (apps.portability.exporter) add tables Ghost has none of: categories, media.
    categories = {}
    for index, row in enumerate(_rows(data_, "categories")):
        if not row.get("id") or not row.get("name"):
            raise ParseFailed("A category needs an id and a name", where=f"db[0].data.categories[{index}]")
        categories[row["id"]] = SourceTerm(kind="category", source_id=row["id"], name=row["name"],
                                           slug=row.get("slug", ""), description=row.get("description", ""))
    for row in _rows(data_, "media"):
        if row.get("path"):
            blog.image_alts[row["path"]] = row.get("alt_text", "")
    post_categories: dict[str, list[tuple[int, str]]] = {}
    for row in _rows(data_, "posts_categories"):
        if row.get("category_id") in categories:
            post_categories.setdefault(row.get("post_id", ""), []).append((row.get("sort_order", 0), row["category_id"]))
    blog.terms = list(categories.values()) + list(tags.values())
    post_tags: dict[str, list[tuple[int, str]]] = {}
    for row in _rows(data_, "posts_tags"):
        if row.get("tag_id") in tags:
            post_tags.setdefault(row.get("post_id", ""), []).append((row.get("sort_order", 0), row["tag_id"]))
    post_authors: dict[str, list[tuple[int, str]]] = {}
    for row in _rows(data_, "posts_authors"):
        post_authors.setdefault(row.get("post_id", ""), []).append((row.get("sort_order", 0), row.get("author_id", "")))
    posts_meta = {row.get("post_id", ""): row for row in _rows(data_, "posts_meta")}
    # Our own exports: the values cut to Ghost's lengths in posts and posts_meta, whole.
    whole = {row.get("post_id", ""): {k: v for k, v in row.items() if k != "post_id" and v not in ("", None)}
             for row in _rows(data_, "posts_cms")}
    for index, row in enumerate(_rows(data_, "posts")):
        where = f"db[0].data.posts[{index}]"
        source_id = row.get("id", "")
        if not source_id:
            raise ParseFailed("A post needs an id", where=f"{where}.id")
        row = {**row, **whole.get(source_id, {})}
        meta = {**(posts_meta.get(source_id) or {}), **whole.get(source_id, {})}
        title = row.get("title") or "(untitled)"
        kind = "page" if row.get("type") == "page" or row.get("page") else "post"
        status = _GHOST_STATUS.get(row.get("status", ""))
        if status is None:
            blog.skipped.append((kind, title, f"status {row.get('status') or '(none)'} is not imported"))
            continue
        html = row.get("html", "")
        if not html and row.get("markdown"):  # Ghost 0.x keeps markdown, and its html when it rendered it
            html = _clean(markdown_html(row["markdown"]), f"{where}.markdown")
        if not html:
            html = _html_of_mobiledoc(row.get("mobiledoc"), where=f"{where}.mobiledoc") \
                or _html_of_lexical(row.get("lexical"), where=f"{where}.lexical")
        post = SourcePost(
            source_id=source_id, kind=kind, title=title, slug=row.get("slug", ""), html=html.strip(),
            excerpt=row.get("custom_excerpt", ""), status=status, published_at=row.get("published_at"),
            created_at=row.get("created_at"), updated_at=row.get("updated_at"),
            featured_image=row.get("feature_image") or row.get("image", ""),  # 0.x: image featured_alt=meta.get("feature_image_alt", ""),
            featured=bool(row.get("featured")),
        )
        authors = sorted(post_authors.get(source_id, []))
        post.author = authors[0][1] if authors else row.get("author_id", "")
        post.tags = [tag_id for _, tag_id in sorted(post_tags.get(source_id, []))]
        post.categories = [category_id for _, category_id in sorted(post_categories.get(source_id, []))]
        seo_source = {**row, **{k: v for k, v in meta.items() if v}}
        post.seo = {name: seo_source[name] for name in _GHOST_SEO if seo_source.get(name)}
        post.old_urls = [f"/{post.slug}/"] if post.slug else []
        # Ghost's visibility: public, or for members, paid members, tiers (Ghost 5) or a filter
        # of tiers (Ghost 4); whatever is not public is members-only here (RESTRICTED_AS).
        if str(row.get("visibility") or "public").strip().lower() not in ("", "public"):
            post.restricted = RESTRICTED_MEMBERS
        blog.posts.append(post)
    _ghost_site(blog, data_)
    for table in ("members", "subscribers"):  # Ghost's readers (2.x+ members, 1.x subscribers)
        rows = data_.get(table)
        if isinstance(rows, list) and rows:
            blog.left_out["member"] = blog.left_out.get("member", 0) + len(rows)
    return blog


def _document(value, *, where: str):
    """A mobiledoc or lexical document (an object), or None for none."""
    if not value or (isinstance(value, str) and not value.strip()):
        return None
    document = _json(value, where=where) if isinstance(value, str) else value
    if not isinstance(document, dict):
        raise ParseFailed(f"{where} must be a JSON object, not {_shown(document)}", where=where)
    return document


def _list_at(parent: dict, key: str, where: str) -> list:
    value = parent.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ParseFailed(f"{where}.{key} must be a list, not {_shown(value)}", where=f"{where}.{key}")
    return value


def _string_at(parent: dict, key: str, where: str) -> str:
    value = parent.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ParseFailed(f"{where}.{key} must be text, not {_shown(value)}", where=f"{where}.{key}")
    return value


def _is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _html_of_mobiledoc(value, *, where: str) -> str:
    """Ghost 1.x-4.x's mobiledoc without `html`: its markdown, html and image cards, and its
    paragraphs' and headings' text, as HTML (the rest of the document is listed in the report by
    the caller's count). A document of another shape than mobiledoc's is refused where it differs."""
    document = _document(value, where=where)
    if document is None:
        return ""
    cards, sections = _list_at(document, "cards", where), _list_at(document, "sections", where)
    atoms = _list_at(document, "atoms", where)
    if not cards and not sections:
        return ""
    parts = []
    for index, section in enumerate(sections):
        at = f"{where}.sections[{index}]"
        if not isinstance(section, list) or not section or not _is_index(section[0]):
            raise ParseFailed(f"{at} must be a list that starts with its type (a number), not {_shown(section)}",
                              where=at)
        if section[0] == 10:  # a card: [10, index of the card]
            if len(section) < 2 or not _is_index(section[1]) or not 0 <= section[1] < len(cards):
                raise ParseFailed(f"{at} must name a card by its index (0 to {len(cards) - 1})", where=at)
            part = _mobiledoc_card(cards[section[1]], f"{where}.cards[{section[1]}]")
            if part is not None:
                parts.append(part)
        elif section[0] == 1:  # a paragraph or heading: [1, tag name, markers]
            if len(section) < 3 or not isinstance(section[1], str) or not isinstance(section[2], list):
                raise ParseFailed(f"{at} must be [1, a tag name, a list of markers]", where=at)
            tag = section[1].lower() if section[1].lower() in ("p", "h1", "h2", "h3", "h4", "h5", "h6",
                                                                "blockquote") else "p"
            text = "".join(_mobiledoc_marker(marker, atoms, f"{at}[2][{n}]") for n, marker in enumerate(section[2]))
            parts.append(f"<{tag}>{html_lib.escape(text)}</{tag}>")
    return _clean("\n".join(parts), where)


def _mobiledoc_card(card, at: str) -> str | None:
    """A card ([name, payload]) as HTML; None for a card that is not read."""
    if not isinstance(card, list) or not card or not isinstance(card[0], str):
        raise ParseFailed(f"{at} must be a list of a card name and its payload, not {_shown(card)}", where=at)
    payload = card[1] if len(card) > 1 else {}
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise ParseFailed(f"{at}'s payload must be an object, not {_shown(payload)}", where=f"{at}[1]")
    name = card[0]
    if name == "html":
        return _string_at(payload, "html", f"{at}[1]")
    if name == "markdown":
        return markdown_html(_string_at(payload, "markdown", f"{at}[1]"))
    if name == "image":
        src = _string_at(payload, "src", f"{at}[1]")
        if src:
            alt = _string_at(payload, "alt", f"{at}[1]")
            return f'<figure><img src="{html_lib.escape(src)}" alt="{html_lib.escape(alt)}"></figure>'
    return None


def _mobiledoc_marker(marker, atoms: list, at: str) -> str:
    """A marker's text: [0 (text), opened markups, closed markups, text] or [1 (atom), ..., atom index]."""
    if not isinstance(marker, list) or len(marker) < 4 or not _is_index(marker[0]):
        raise ParseFailed(f"{at} must be a marker [type, opened, closed, value], not {_shown(marker)}", where=at)
    if marker[0] == 1:
        index = marker[3]
        if not _is_index(index) or not 0 <= index < len(atoms):
            raise ParseFailed(f"{at} must name an atom by its index (0 to {len(atoms) - 1})", where=at)
        atom = atoms[index]
        return atom[1] if isinstance(atom, list) and len(atom) > 1 and isinstance(atom[1], str) else ""
    if not isinstance(marker[3], str):
        raise ParseFailed(f"{at}'s text must be text, not {_shown(marker[3])}", where=at)
    return marker[3]


def _html_of_lexical(value, *, where: str) -> str:
    """Ghost 5.x's lexical without `html`: paragraphs, headings, quotes, images and html cards. A
    document of another shape than lexical's (or nested deeper than LEXICAL_DEPTH_MAX) is refused
    where it differs."""
    document = _document(value, where=where)
    if document is None:
        return ""
    root = document.get("root")
    if root is None:
        return ""
    if not isinstance(root, dict):
        raise ParseFailed(f"{where}.root must be an object, not {_shown(root)}", where=f"{where}.root")
    parts = []
    for index, node in enumerate(_list_at(root, "children", f"{where}.root")):
        at = f"{where}.root.children[{index}]"
        if not isinstance(node, dict):
            raise ParseFailed(f"{at} must be an object, not {_shown(node)}", where=at)
        kind = node.get("type")
        if kind == "heading":
            tag = node.get("tag") if node.get("tag") in ("h1", "h2", "h3", "h4", "h5", "h6") else "h2"
            parts.append(f"<{tag}>{_lexical_text(node, at)}</{tag}>")
        elif kind == "quote":
            parts.append(f"<blockquote>{_lexical_text(node, at)}</blockquote>")
        elif kind == "image":
            src = _string_at(node, "src", at)
            if src:
                alt = _string_at(node, "alt", at)
                parts.append(f'<figure><img src="{html_lib.escape(src)}" alt="{html_lib.escape(alt)}"></figure>')
        elif kind == "html":
            parts.append(_string_at(node, "html", at))
        else:
            parts.append(f"<p>{_lexical_text(node, at)}</p>")
    return _clean("\n".join(parts), where)


def _lexical_text(node: dict, at: str) -> str:
    """The text of a node and its children, in order, escaped (walked without recursion)."""
    found, stack = [], [(node, at, 0)]
    while stack:
        node, where, depth = stack.pop()
        if not isinstance(node, dict):
            raise ParseFailed(f"{where} must be an object, not {_shown(node)}", where=where)
        if node.get("type") == "text":
            found.append(html_lib.escape(_string_at(node, "text", where)))
            continue
        children = _list_at(node, "children", where)
        if children and depth >= LEXICAL_DEPTH_MAX:
            raise ParseFailed(f"{at} nests more than {LEXICAL_DEPTH_MAX} levels of nodes", where=at)
        stack.extend((child, f"{where}.children[{n}]", depth + 1) for n, child in reversed(list(enumerate(children))))
    return "".join(found)


def _zip_members(data: bytes, *, max_bytes: int) -> tuple[zipfile.ZipFile, list[tuple[str, zipfile.ZipInfo]]]:
    """A zip's files (normalised name, member), once every name stays inside the archive and the
    declared sizes add up to at most `max_bytes` (a member is never read past it either)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise ParseFailed(f"The zip file cannot be read: {exc}", where="zip") from exc
    total, found = 0, []
    for member in members:
        name = member.filename
        normalised = posixpath.normpath(name)
        if name.startswith(("/", "\\")) or "\\" in name or normalised.startswith("..") or ":" in name.split("/")[0]:
            raise ParseFailed(f"The zip holds a file outside its folder: {name!r}", where=f"zip:{name}")
        total += member.file_size
        if total > max_bytes:
            raise ParseFailed(f"The zip's files are larger than the limit of {max_bytes // (1024 * 1024) or 1} MB "
                              "once unpacked", where=f"zip:{name}")
        if member.is_dir() or "__MACOSX" in normalised or posixpath.basename(normalised).startswith("._"):
            continue
        found.append((normalised, member))
    return archive, found


def _zip_images(archive: zipfile.ZipFile, members: list, budget: int) -> dict[str, bytes]:
    files, read = {}, 0
    try:
        for normalised, member in members:
            if not normalised.lower().endswith(IMAGE_SUFFIXES):
                continue
            content = _read_member(archive, member, budget - read)
            read += len(content)
            files[normalised] = content
    except (zipfile.BadZipFile, EOFError, OSError, zipfile.LargeZipFile, ValueError) as exc:
        raise ParseFailed(f"The zip file is damaged: {exc}", where="zip") from exc
    return files


def parse_ghost_zip(data: bytes, *, max_bytes: int) -> Blog:
    """A zip of an export and its images: Ghost's (its JSON and content/images/), or a WordPress
    export (its XML) with wp-content/uploads/."""
    archive, members = _zip_members(data, max_bytes=max_bytes)
    export = next(((name, member) for name, member in members if name.lower().endswith(".json")), None) \
        or next(((name, member) for name, member in members if name.lower().endswith(".xml")), None)
    if export is None:
        raise ParseFailed("The zip holds no export: a Ghost export (.json) or a WordPress export (.xml)", where="zip")
    try:
        content = _read_member(archive, export[1], max_bytes)
    except (zipfile.BadZipFile, EOFError, OSError, zipfile.LargeZipFile, ValueError) as exc:
        raise ParseFailed(f"The zip file is damaged: {exc}", where="zip") from exc
    blog = parse_ghost_json(content) if export[0].lower().endswith(".json") else parse_wxr(content)
    files = _zip_images(archive, members, max_bytes - len(content))
    # Ghost's own paths are kept as the content names them (content/images/...)
    blog.files = {(name[name.find("content/images/"):] if "content/images/" in name else name): value
                  for name, value in files.items()}
    return blog


def parse_images_archive(data: bytes, *, max_bytes: int) -> dict[str, bytes]:
    """The images of a zip uploaded beside an export (content/images/, wp-content/uploads/, or
    either folder zipped alone), by their path in the zip. A zip of no image is refused."""
    if len(data) > max_bytes:
        raise ParseFailed(f"The images archive is larger than the limit of {max_bytes // (1024 * 1024) or 1} MB",
                          where="size")
    if data[:4] not in (b"PK\x03\x04", b"PK\x05\x06"):
        raise ParseFailed("The images archive must be a zip file", where="images")
    archive, members = _zip_members(data, max_bytes=max_bytes)
    files = _zip_images(archive, members, max_bytes)
    if not files:
        raise ParseFailed("The images archive holds no image (.jpg, .jpeg, .png, .gif, .webp)", where="images")
    return files


def _read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: int) -> bytes:
    """A member's bytes, never more than `budget` whatever its header says (a zip bomb stops here)."""
    with archive.open(member) as handle:
        content = handle.read(budget + 1)
    if len(content) > budget:
        raise ParseFailed(f"{member.filename} is larger than the limit once unpacked", where=f"zip:{member.filename}")
    return content

# --- the site's settings and the author profiles (docs/import-export.md) -------------------------
# Read after the posts, from the same rows, each value checked for its type here (text, or a list
# of links); whether a value follows the product's rules (apps.site.rules) is the importer's check.
PROFILE_KEYS = ("display_name", "bio", "website", "location", "profile_image", "cover_image", "facebook", "twitter")
SETTINGS_KEYS = ("title", "description", "logo", "icon", "cover_image", "accent_color", "navigation",
                 "secondary_navigation", "facebook", "twitter", "locale", "meta_title", "meta_description")
_SITE_TEXT_MAX = 65535  # a longer value is no setting or profile (refused by the rules anyway)
_SITE_LINKS_MAX = 1000  # links read of one navigation (the rules keep 50)


def _site_text(value, where: str) -> str:
    """A setting's or a profile's text: a text column's rule (_text_value), cut to _SITE_TEXT_MAX."""
    return _text_value(value, where)[:_SITE_TEXT_MAX]


def _site_links(value, where: str) -> list[dict]:
    """Ghost's navigation: a JSON text (or the list itself) of {label, url}; other keys dropped."""
    if value in (None, "", "None"):
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError) as exc:
            raise ParseFailed(f"{where} is not a JSON list of links", where=where) from exc
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value[:_SITE_LINKS_MAX]):
        raise ParseFailed(f"{where} must be a list of links ({{label, url}})", where=where)
    return [{"label": _site_text(item.get("label"), f"{where}[{n}].label"),
             "url": _site_text(item.get("url"), f"{where}[{n}].url")} for n, item in enumerate(value[:_SITE_LINKS_MAX])]


def _wxr_site(blog: Blog, head: dict) -> None:
    """A WordPress channel's title and description; each author's display name (else first and
    last name)."""
    blog.settings = {key: value for key, value in (("title", _text(head, "", "title")),
                                                    ("description", _text(head, "", "description"))) if value}
    by_login = {author.login: author for author in blog.authors}
    for element in head.get(("wp", "author"), []):
        f = _fields(element)
        author = by_login.get(_text(f, "wp", "author_login"))
        if author is None:
            continue
        full = " ".join(part for part in (_text(f, "wp", "author_first_name"), _text(f, "wp", "author_last_name"))
                        if part)
        name = _text(f, "wp", "author_display_name") or full
        if name:
            author.profile["display_name"] = name


_GHOST_PROFILE = {"name": "display_name", "bio": "bio", "website": "website", "location": "location",
                  "profile_image": "profile_image", "cover_image": "cover_image", "facebook": "facebook",
                  "twitter": "twitter", "image": "profile_image", "cover": "cover_image"}  # 0.x: image, cover
_GHOST_SETTINGS = {**{key: key for key in SETTINGS_KEYS}, "lang": "locale",  # Ghost before 4: lang
                   "cover": "cover_image"}  # Ghost 0.x: cover


def _ghost_site(blog: Blog, data: dict) -> None:
    """Ghost's `settings` rows (key, value) and its users' profile columns."""
    rows = data.get("settings") or []
    if not isinstance(rows, list):
        raise ParseFailed("db[0].data.settings must be a list of objects", where="db[0].data.settings")
    settings: dict[str, object] = {}
    for index, row in enumerate(rows):
        where = f"db[0].data.settings[{index}]"
        if not isinstance(row, dict):
            raise ParseFailed(f"{where} must be an object", where=where)
        key = _GHOST_SETTINGS.get(row.get("key")) if isinstance(row.get("key"), str) else None
        if key is None or (key in settings and row.get("key") == "lang"):
            continue
        if key in ("navigation", "secondary_navigation"):
            value = _site_links(row.get("value"), f"{where}.value")
        else:
            value = _site_text(row.get("value"), f"{where}.value")
        if value:
            settings[key] = value
    blog.settings = settings
    by_id = {author.source_id: author for author in blog.authors}
    users = data.get("users") or []
    for index, row in enumerate(users if isinstance(users, list) else []):
        if not isinstance(row, dict):
            continue
        author = by_id.get(_site_text(row.get("id"), f"db[0].data.users[{index}].id"))
        if author is None:
            continue
        for column, key in _GHOST_PROFILE.items():
            value = _site_text(row.get(column), f"db[0].data.users[{index}].{column}")
            if value and not author.profile.get(key):
                author.profile[key] = value
