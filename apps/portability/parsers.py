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

import io
import json
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone as dt_timezone
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XMLParseError

WXR_VERSIONS = ("1.0", "1.1", "1.2")
WORDPRESS, GHOST = "wordpress", "ghost"
_NS_WP = re.compile(r"^https?://wordpress\.org/export/1\.[0-2]/$")
_NS_EXCERPT = re.compile(r"^https?://wordpress\.org/export/1\.[0-2]/excerpt/$")
_NS_CONTENT = "http://purl.org/rss/1.0/modules/content/"
_NS_DC = "http://purl.org/dc/elements/1.1/"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp")


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
    private: bool = False  # private in the source: imported as a draft
    published_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    author: str = ""  # the author's source id
    categories: list[str] = field(default_factory=list)  # source ids
    tags: list[str] = field(default_factory=list)  # source ids
    featured_image: str = ""  # URL, or a path inside a Ghost zip
    featured_alt: str = ""
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


def parse_export(data: bytes, *, file_name: str = "", max_bytes: int) -> Blog:
    """The blog in a WXR file, a Ghost JSON file or a Ghost zip (told apart by their first bytes)."""
    if len(data) > max_bytes:
        raise ParseFailed(f"The file is larger than the limit of {max_bytes // (1024 * 1024) or 1} MB", where="size")
    head = data[:512].lstrip()
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


def _wp_date(value: str) -> datetime | None:
    """A WordPress date (UTC, `post_date_gmt`), None for its empty `0000-00-00 00:00:00`."""
    value = (value or "").strip()
    if not value or value.startswith("0000"):
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt_timezone.utc)
    except ValueError:
        return None


def _xml_root(data: bytes) -> Element:
    import defusedxml.ElementTree as safe_xml
    from defusedxml import DefusedXmlException

    try:
        return safe_xml.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ParseFailed("The file declares XML entities, which are refused (an entity-expansion "
                          f"or external-entity attack): {type(exc).__name__}", where="entities") from exc
    except XMLParseError as exc:
        line, column = exc.position
        raise ParseFailed(f"The XML is not well-formed at line {line}, column {column + 1}",
                          where=f"line {line}") from exc


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
        term = SourceTerm(kind="category", source_id=slug, slug=slug, name=_text(f, "wp", "cat_name") or slug,
                          description=_text(f, "wp", "category_description"), parent=_text(f, "wp", "category_parent"))
        categories_by_slug[slug] = term
    tags_by_slug: dict[str, SourceTerm] = {}
    for element in head.get(("wp", "tag"), []):
        f = _fields(element)
        slug = _text(f, "wp", "tag_slug")
        tags_by_slug[slug] = SourceTerm(kind="tag", source_id=slug, slug=slug, name=_text(f, "wp", "tag_name") or slug,
                                        description=_text(f, "wp", "tag_description"))
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
    for item, f, post_type, meta in items:
        source_id = _text(f, "wp", "post_id")
        title = _text(f, "", "title")
        if post_type not in ("post", "page"):
            blog.skipped.append((post_type or "item", title or source_id, f"WordPress {post_type or 'item'} (not a post or page)"))
            continue
        wp_status = _text(f, "wp", "status")
        status = _WP_STATUS.get(wp_status)
        if status is None:
            blog.skipped.append((post_type, title or source_id, f"status {wp_status or '(none)'} is not imported"))
            continue
        post = SourcePost(
            source_id=source_id, kind=post_type, title=title or "(untitled)", slug=_text(f, "wp", "post_name"),
            html=_text(f, "content", "encoded"), excerpt=_text(f, "excerpt", "encoded"), status=status,
            private=wp_status == "private", author=_text(f, "dc", "creator"),
            published_at=_wp_date(_text(f, "wp", "post_date_gmt")),
        )
        post.created_at = post.published_at
        for element in f.get(("", "category"), []):
            domain, slug = element.get("domain", ""), element.get("nicename", "")
            name = (element.text or "").strip()
            if not slug:
                continue
            registry, kind = ((categories_by_slug, "category") if domain == "category"
                              else (tags_by_slug, "tag") if domain == "post_tag" else (None, ""))
            if registry is None:
                continue
            registry.setdefault(slug, SourceTerm(kind=kind, source_id=slug, slug=slug, name=name or slug))
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
        blog.posts.append(post)
    blog.terms = list(categories_by_slug.values()) + list(tags_by_slug.values())
    return blog


# --- Ghost ----------------------------------------------------------------------------------------
def _ghost_date(value, key: str) -> datetime | None:
    if value in (None, "", "None"):
        return None
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value / 1000, tz=dt_timezone.utc)
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError as exc:
        raise ParseFailed(f"{key} is not a date: {str(value)[:40]!r}", where=key) from exc


def _s(value) -> str:
    """A Ghost string field (None, and the 1.x exports' "None", are empty)."""
    if value is None or value == "None":
        return ""
    return str(value).strip()


def _rows(data: dict, table: str) -> list[dict]:
    rows = data.get(table) or []
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ParseFailed(f"db[0].data.{table} must be a list of objects", where=f"db[0].data.{table}")
    return rows


_GHOST_STATUS = {"published": "published", "draft": "draft", "scheduled": "scheduled", "sent": "published"}
_GHOST_SEO = ("meta_title", "meta_description", "og_title", "og_description", "og_image", "twitter_title",
              "twitter_description", "twitter_image", "canonical_url", "focus_keyword")


def parse_ghost_json(data: bytes) -> Blog:
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ParseFailed("The JSON file is not UTF-8 text", where=f"byte {exc.start}") from exc
    except json.JSONDecodeError as exc:
        raise ParseFailed(f"The JSON is not valid at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                          where=f"line {exc.lineno}") from exc
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
    version = _s(meta.get("version"))
    major = version.split(".")[0]
    if not major.isdigit() or not 1 <= int(major) <= 5:
        raise ParseFailed(f"Ghost version {version or '(missing)'} is not supported (1.x to 5.x)",
                          where="db[0].meta.version")
    blog = Blog(source=GHOST, version=f"Ghost {version}")
    for index, row in enumerate(_rows(data_, "users")):
        blog.authors.append(SourceAuthor(source_id=_s(row.get("id")), email=_s(row.get("email")).lower(),
                                         name=_s(row.get("name")) or _s(row.get("slug")), login=_s(row.get("slug"))))
    tags = {}
    for index, row in enumerate(_rows(data_, "tags")):
        if not _s(row.get("id")) or not _s(row.get("name")):
            raise ParseFailed("A tag needs an id and a name", where=f"db[0].data.tags[{index}]")
        if _s(row.get("visibility")) == "internal" or _s(row.get("name")).startswith("#"):
            blog.skipped.append(("tag", _s(row.get("name")), "internal Ghost tag (#...)"))
            continue
        tag = SourceTerm(kind="tag", source_id=_s(row["id"]), name=_s(row["name"]), slug=_s(row.get("slug")),
                         description=_s(row.get("description")))
        tags[tag.source_id] = tag
    # Our own exports (apps.portability.exporter) add tables Ghost has none of: categories, media.
    categories = {}
    for index, row in enumerate(_rows(data_, "categories")):
        if not _s(row.get("id")) or not _s(row.get("name")):
            raise ParseFailed("A category needs an id and a name", where=f"db[0].data.categories[{index}]")
        categories[_s(row["id"])] = SourceTerm(kind="category", source_id=_s(row["id"]), name=_s(row["name"]),
                                               slug=_s(row.get("slug")), description=_s(row.get("description")))
    for row in _rows(data_, "media"):
        if _s(row.get("path")):
            blog.image_alts[_s(row["path"])] = _s(row.get("alt_text"))
    post_categories: dict[str, list[tuple[int, str]]] = {}
    for row in _rows(data_, "posts_categories"):
        if _s(row.get("category_id")) in categories:
            post_categories.setdefault(_s(row.get("post_id")), []).append(
                (int(row.get("sort_order") or 0), _s(row["category_id"])))
    blog.terms = list(categories.values()) + list(tags.values())
    post_tags: dict[str, list[tuple[int, str]]] = {}
    for row in _rows(data_, "posts_tags"):
        if _s(row.get("tag_id")) in tags:
            post_tags.setdefault(_s(row.get("post_id")), []).append((int(row.get("sort_order") or 0), _s(row["tag_id"])))
    post_authors: dict[str, list[tuple[int, str]]] = {}
    for row in _rows(data_, "posts_authors"):
        post_authors.setdefault(_s(row.get("post_id")), []).append((int(row.get("sort_order") or 0), _s(row.get("author_id"))))
    posts_meta = {_s(row.get("post_id")): row for row in _rows(data_, "posts_meta")}
    # Our own exports: the values cut to Ghost's lengths in posts and posts_meta, whole.
    whole = {_s(row.get("post_id")): {k: v for k, v in row.items() if k != "post_id" and _s(v)}
             for row in _rows(data_, "posts_cms")}
    for index, row in enumerate(_rows(data_, "posts")):
        where = f"db[0].data.posts[{index}]"
        source_id = _s(row.get("id"))
        if not source_id:
            raise ParseFailed("A post needs an id", where=f"{where}.id")
        row = {**row, **whole.get(source_id, {})}
        meta = {**(posts_meta.get(source_id) or {}), **whole.get(source_id, {})}
        title = _s(row.get("title")) or "(untitled)"
        kind = "page" if _s(row.get("type")) == "page" or row.get("page") in (True, 1, "1", "true") else "post"
        status = _GHOST_STATUS.get(_s(row.get("status")))
        if status is None:
            blog.skipped.append((kind, title, f"status {_s(row.get('status')) or '(none)'} is not imported"))
            continue
        html = row.get("html")
        if not _s(html):
            html = _html_of_mobiledoc(row.get("mobiledoc"), where=f"{where}.mobiledoc") \
                or _html_of_lexical(row.get("lexical"), where=f"{where}.lexical")
        post = SourcePost(
            source_id=source_id, kind=kind, title=title, slug=_s(row.get("slug")), html=_s(html),
            excerpt=_s(row.get("custom_excerpt")), status=status,
            published_at=_ghost_date(row.get("published_at"), f"{where}.published_at"),
            created_at=_ghost_date(row.get("created_at"), f"{where}.created_at"),
            updated_at=_ghost_date(row.get("updated_at"), f"{where}.updated_at"),
            featured_image=_s(row.get("feature_image")),
            featured_alt=_s(meta.get("feature_image_alt")),
        )
        authors = sorted(post_authors.get(source_id, []))
        post.author = authors[0][1] if authors else _s(row.get("author_id"))
        post.tags = [tag_id for _, tag_id in sorted(post_tags.get(source_id, []))]
        post.categories = [category_id for _, category_id in sorted(post_categories.get(source_id, []))]
        seo_source = {**row, **{k: v for k, v in meta.items() if _s(v)}}
        post.seo = {name: _s(seo_source.get(name)) for name in _GHOST_SEO if _s(seo_source.get(name))}
        post.old_urls = [f"/{post.slug}/"] if post.slug else []
        blog.posts.append(post)
    return blog


def _html_of_mobiledoc(value, *, where: str) -> str:
    """Ghost 1.x-4.x's mobiledoc without `html`: its markdown and html cards, and its paragraphs'
    text, as HTML (the rest of the document is listed in the report by the caller's count)."""
    if not _s(value):
        return ""
    try:
        document = json.loads(value) if isinstance(value, str) else value
    except json.JSONDecodeError as exc:
        raise ParseFailed(f"mobiledoc is not valid JSON: {exc.msg}", where=where) from exc
    import html as html_lib

    parts = []
    cards = document.get("cards") or []
    for section in document.get("sections") or []:
        if section and section[0] == 10 and len(section) > 1 and section[1] < len(cards):
            name, payload = cards[section[1]][0], cards[section[1]][1] if len(cards[section[1]]) > 1 else {}
            if name == "html":
                parts.append(str(payload.get("html", "")))
            elif name == "markdown":
                parts.append("".join(f"<p>{html_lib.escape(line)}</p>"
                                     for line in str(payload.get("markdown", "")).split("\n\n") if line.strip()))
            elif name == "image" and payload.get("src"):
                parts.append(f'<figure><img src="{html_lib.escape(payload["src"])}" '
                             f'alt="{html_lib.escape(payload.get("alt", ""))}"></figure>')
        elif section and section[0] == 1 and len(section) > 2:
            tag = section[1] if section[1] in ("p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote") else "p"
            text = "".join(str(marker[3]) for marker in section[2] if len(marker) > 3)
            parts.append(f"<{tag}>{html_lib.escape(text)}</{tag}>")
    if not cards and not document.get("sections"):
        return ""
    return "\n".join(parts)


def _html_of_lexical(value, *, where: str) -> str:
    """Ghost 5.x's lexical without `html`: paragraphs, headings, quotes and images."""
    if not _s(value):
        return ""
    try:
        document = json.loads(value) if isinstance(value, str) else value
    except json.JSONDecodeError as exc:
        raise ParseFailed(f"lexical is not valid JSON: {exc.msg}", where=where) from exc
    import html as html_lib

    def text_of(node) -> str:
        if node.get("type") == "text":
            return html_lib.escape(str(node.get("text", "")))
        return "".join(text_of(child) for child in node.get("children") or [])

    parts = []
    for node in (document.get("root") or {}).get("children") or []:
        kind = node.get("type")
        if kind == "heading":
            tag = node.get("tag") if node.get("tag") in ("h1", "h2", "h3", "h4", "h5", "h6") else "h2"
            parts.append(f"<{tag}>{text_of(node)}</{tag}>")
        elif kind == "quote":
            parts.append(f"<blockquote>{text_of(node)}</blockquote>")
        elif kind == "image" and node.get("src"):
            parts.append(f'<figure><img src="{html_lib.escape(node["src"])}" alt="{html_lib.escape(node.get("alt", ""))}"></figure>')
        elif kind == "html":
            parts.append(str(node.get("html", "")))
        else:
            parts.append(f"<p>{text_of(node)}</p>")
    return "\n".join(parts)


def parse_ghost_zip(data: bytes, *, max_bytes: int) -> Blog:
    """A Ghost zip: one JSON export and the images under content/images/."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise ParseFailed(f"The zip file cannot be read: {exc}", where="zip") from exc
    total, json_member, images = 0, None, []
    for member in members:
        name = member.filename
        normalised = posixpath.normpath(name)
        if name.startswith(("/", "\\")) or "\\" in name or normalised.startswith("..") or ":" in name.split("/")[0]:
            raise ParseFailed(f"The zip holds a file outside its folder: {name!r}", where=f"zip:{name}")
        total += member.file_size
        if total > max_bytes:
            raise ParseFailed(f"The zip's files are larger than the limit of {max_bytes // (1024 * 1024) or 1} MB "
                              "once unpacked", where=f"zip:{name}")
        if member.is_dir() or "__MACOSX" in normalised:
            continue
        if normalised.lower().endswith(".json") and json_member is None:
            json_member = member
        elif normalised.lower().endswith(IMAGE_SUFFIXES):
            images.append((normalised, member))
    if json_member is None:
        raise ParseFailed("The zip holds no Ghost JSON export", where="zip")
    try:
        blog = parse_ghost_json(_read_member(archive, json_member, max_bytes))
        read = 0
        for normalised, member in images:
            content = _read_member(archive, member, max_bytes - read)
            read += len(content)
            index = normalised.find("content/images/")
            blog.files[normalised[index:] if index >= 0 else normalised] = content
    except (zipfile.BadZipFile, EOFError, OSError, zipfile.LargeZipFile) as exc:
        raise ParseFailed(f"The zip file is damaged: {exc}", where="zip") from exc
    return blog


def _read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: int) -> bytes:
    """A member's bytes, never more than `budget` whatever its header says (a zip bomb stops here)."""
    with archive.open(member) as handle:
        content = handle.read(budget + 1)
    if len(content) > budget:
        raise ParseFailed(f"{member.filename} is larger than the limit once unpacked", where=f"zip:{member.filename}")
    return content
