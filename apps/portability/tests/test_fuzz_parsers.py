"""Structure-aware fuzzing of the import parsers (apps.portability.parsers) with Hypothesis.

Documents are built from strategies that know the formats: a WordPress export (a channel, its
authors and terms, items whose every field may be odd: post types, statuses, dates, postmeta,
shortcodes and block comments in the content, nested junk elements, XML declarations of odd
encodings) and a Ghost export (every table the parser reads, each row's every column given a value
of its type or of any other type: posts, tags, users, posts_tags, posts_meta, posts_cms,
mobiledoc and lexical documents of random shapes, dates as text, numbers, NaN), then sometimes
cut short or spliced with bytes.

Property: any such file ends in a Blog or in ParseFailed (the contract's 400), never another
exception; and a Blog is well typed (text is text PostgreSQL can hold, times are aware datetimes)
and goes through the dry run's pure parts (the HTML conversion, image sources, slugs) and, for a
few of them, through the dry run itself and an import job's row, without an exception.

`make fuzz-import` runs these with FUZZ_EXAMPLES (20,000) examples each (tests/fuzzing.py).
"""
from __future__ import annotations

import json
import math
from datetime import datetime
from xml.sax.saxutils import escape, quoteattr

import pytest
from django.db import transaction
from django_tenants.utils import schema_context
from hypothesis import given
from hypothesis import strategies as st

from apps.core.text import input_text, slugify
from apps.portability.html import convert_ghost, convert_wordpress, image_sources, rewrite_images
from apps.portability.importer import blog_analyse
from apps.portability.models import ImportJob
from apps.portability.parsers import GHOST, Blog, ParseFailed, parse_export
from apps.portability.tests.fuzzing import fuzz_settings, junk, odd_numbers, odd_text

MAX_BYTES = 5_000_000


# --- what every parsed Blog must be --------------------------------------------------------------
def _storable(value, where: str) -> None:
    assert isinstance(value, str), (where, value)
    assert input_text(value) is not None, where  # raises for text PostgreSQL cannot hold


def _time(value, where: str) -> None:
    assert value is None or (isinstance(value, datetime) and value.tzinfo is not None), (where, value)


def _gallery(blog: Blog, source_id: str):
    def images(attributes: dict[str, str]) -> list[tuple[str, str]]:
        ids = [i.strip() for i in (attributes.get("ids") or "").split(",") if i.strip()]
        if ids:
            return [blog.attachments[i][:2] for i in ids if i in blog.attachments]
        return [(url, alt) for url, alt, parent in blog.attachments.values() if parent == source_id]
    return images


def check_blog(blog: Blog) -> None:
    """The Blog is well typed, and the dry run's pure parts take it."""
    assert isinstance(blog, Blog)
    for name in ("source", "version", "site_url"):
        _storable(getattr(blog, name), name)
    assert len(blog.version) <= 40
    for key, value in blog.settings.items():
        _storable(key, "settings")
        for text in ([value] if isinstance(value, str) else [link[k] for link in value for k in ("label", "url")]):
            _storable(text, f"settings.{key}")
    for author in blog.authors:
        for name in ("source_id", "email", "name", "login"):
            _storable(getattr(author, name), f"author.{name}")
        for key, value in author.profile.items():
            _storable(value, f"author.profile.{key}")
    for term in blog.terms:
        for name in ("kind", "source_id", "name", "slug", "description", "parent"):
            _storable(getattr(term, name), f"term.{name}")
        slugify(term.slug or term.name, allow_unicode=True)
    for kind, item, reason in blog.skipped:
        for value in (kind, item, reason):
            _storable(value, "skipped")
    for post in blog.posts:
        for name in ("source_id", "kind", "title", "slug", "html", "excerpt", "status", "author", "featured_image",
                     "featured_alt", "restricted"):
            _storable(getattr(post, name), f"post.{name}")
        for name in ("published_at", "created_at", "updated_at"):
            _time(getattr(post, name), f"post.{name}")
        for value in (*post.categories, *post.tags, *post.old_urls, *post.seo.keys(), *post.seo.values()):
            _storable(value, "post lists")
        slugify(post.slug or post.title, allow_unicode=True)
        converted = (convert_ghost(post.html) if blog.source == GHOST
                     else convert_wordpress(post.html, gallery=_gallery(blog, post.source_id)))
        sources = image_sources(converted.html)
        rewrite_images(converted.html, {source: "https://cdn.example/x.png" for source in sources})


def check(data: bytes, file_name: str = "") -> Blog | None:
    """The property: a Blog that passes check_blog, or ParseFailed with a message and a place."""
    try:
        blog = parse_export(data, file_name=file_name, max_bytes=MAX_BYTES)
    except ParseFailed as exc:
        assert exc.message and isinstance(exc.where, str)
        _storable(exc.message, "message")
        _storable(exc.where, "where")
        return None
    check_blog(blog)
    return blog


# --- how hostile a document is --------------------------------------------------------------------
# Each document is drawn at a level of hostility: at ODD = n, each value is odd (of another type,
# out of range, junk) one time in n; at 0 never. Documents with few odd values reach the parsers'
# deeper paths (conversion, terms, dates); documents with many test the refusals.
LEVELS = [0, 0, 50, 12, 4]


def odd_or(level: int, typical: st.SearchStrategy, odd: st.SearchStrategy | None = None) -> st.SearchStrategy:
    """`typical`, or one time in `level` `odd` (any JSON value when not given)."""
    if not level:
        return typical
    return st.integers(0, level - 1).flatmap(lambda n: (odd if odd is not None else junk) if n == 0 else typical)


def _pick(draw, level: int, typical: list, odd: list):
    return draw(odd_or(level, st.sampled_from(typical), st.sampled_from(odd)))


# --- Ghost exports -------------------------------------------------------------------------------
def _lexical_node(level: int):
    def node(children: st.SearchStrategy) -> st.SearchStrategy:
        return st.fixed_dictionaries(
            {"type": st.sampled_from(["paragraph", "heading", "quote", "image", "html", "text", "link", "list"])},
            optional={"children": odd_or(level, st.lists(children, max_size=3)), "text": odd_or(level, odd_text),
                      "tag": st.sampled_from(["h1", "h3", "h9", "p"]),
                      "src": odd_or(level, st.just("https://a.example/i.png")), "alt": odd_or(level, odd_text),
                      "html": odd_or(level, st.just("<p>x</p>"))})
    return node


def _lexical(level: int) -> st.SearchStrategy:
    text_node = st.fixed_dictionaries({"type": st.just("text"), "text": odd_text})
    nodes = st.recursive(odd_or(level, text_node), _lexical_node(level), max_leaves=8)
    return odd_or(level, st.fixed_dictionaries({"root": odd_or(level, st.fixed_dictionaries(
        {"children": odd_or(level, st.lists(nodes, max_size=4))}))}))


def _mobiledoc(level: int) -> st.SearchStrategy:
    marker = odd_or(level, st.tuples(st.sampled_from([0, 0, 1]), st.just([]), st.integers(0, 1),
                                     st.one_of(odd_text, st.integers(0, 1))).map(list))
    card = odd_or(level, st.tuples(
        st.sampled_from(["html", "markdown", "image", "gallery"]),
        odd_or(level, st.fixed_dictionaries({}, optional={
            "html": odd_or(level, st.just("<p>c</p>")), "markdown": odd_or(level, odd_text),
            "src": odd_or(level, st.just("/content/images/a.png")), "alt": odd_or(level, odd_text)}))).map(list))
    section = odd_or(level, st.one_of(
        st.tuples(st.just(10), odd_or(level, st.integers(0, 2), st.integers(-3, 9))).map(list),
        st.tuples(st.just(1), odd_or(level, st.sampled_from(["p", "h2", "H3", "blockquote", "aside"])),
                  odd_or(level, st.lists(marker, max_size=3))).map(list),
        st.tuples(st.integers(2, 3), junk).map(list)))
    return odd_or(level, st.fixed_dictionaries({"version": st.just("0.3.1")}, optional={
        "atoms": odd_or(level, st.lists(st.tuples(st.just("mention"), odd_text, st.just({})).map(list), max_size=2)),
        "cards": odd_or(level, st.lists(card, min_size=3, max_size=3)),
        "sections": odd_or(level, st.lists(section, max_size=4)),
    }))


def _document_text(level: int, document: st.SearchStrategy) -> st.SearchStrategy:
    """A mobiledoc or lexical as Ghost stores it: JSON in a string (sometimes not JSON at all)."""
    return odd_or(level, st.one_of(document.map(json.dumps), st.just(None)),
                  st.one_of(document, odd_text, st.just("")))


MARKDOWN_PIECES = ["# h\n\n*a* ~~b~~", "| a |\n|---|\n| 1 |", "![i](/content/images/a.png)", "> " * 200 + "deep",
                   "[" * 500 + "x" + "](y)" * 500, "<script>alert(1)</script>", "```\n" * 3, "* " * 300 + "x"]
TEXT_COLUMNS = ("title", "slug", "custom_excerpt", "feature_image", "author_id", "meta_title", "og_image",
                "canonical_url", "feature_image_alt")
IDS = ["p1", "p2", "t1", "t2", "u1", "c1"]


plain_text = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=16)


def _ghost_document(level: int) -> st.SearchStrategy:
    text = odd_or(level, plain_text, st.one_of(odd_text, junk))
    ids = odd_or(level, st.sampled_from(IDS), st.sampled_from(["", "None", 1, 2, 10**40]))
    times = odd_or(level, st.one_of(st.datetimes().map(lambda moment: moment.isoformat() + "Z"),
                                    st.sampled_from(["2020-01-01T10:00:00.000Z", "2020-01-01 10:00:00",
                                                     "2020-01-01T10:00:00+02:00", None, 1577872800000])),
                   st.one_of(st.sampled_from(["2020-02-30T00:00:00Z", "NaN", "Infinity", "9999-12-31T23:59:59-05:00",
                                              "0001-01-01T00:00:00+05:00", "0000-00-00 00:00:00", "yesterday", ""]),
                             odd_numbers, junk))
    orders = odd_or(level, st.integers(0, 3), st.one_of(st.sampled_from(["1", "abc", " 2 ", "1e3", "-0"]), odd_numbers))
    post = st.fixed_dictionaries({"id": ids}, optional={
        **{name: text for name in TEXT_COLUMNS},
        "status": _choice(level, ["published", "published", "draft", "scheduled", "sent"], ["archived", "", None]),
        "type": _choice(level, ["post", "page"], ["", "x"]), "page": odd_or(level, st.booleans()),
        "visibility": _choice(level, ["public", "members", "paid", "tiers"], ["", "PUBLIC "]),
        "visibility": _choice(level, ["public", "public", "members", "paid", "tiers", "filter"], ["", None, " Public "]),
        "html": _choice(level, ["", "", "<p>x</p>", '<img src="/content/images/a.png">', "[caption]"], [None]),
        "mobiledoc": _document_text(level, _mobiledoc(level)), "lexical": _document_text(level, _lexical(level)),
        "markdown": odd_or(level, st.one_of(odd_text, st.sampled_from(MARKDOWN_PIECES)), junk),  # Ghost 0.x
        "image": odd_or(level, st.sampled_from(["/content/images/a.png", "", None]), junk),
        "published_at": times, "created_at": times, "updated_at": times,
    })

    def rows(columns: dict, required: tuple = ()) -> st.SearchStrategy:
        row = st.fixed_dictionaries({name: columns[name] for name in required},
                                    optional={name: value for name, value in columns.items() if name not in required})
        return odd_or(level, st.lists(row, max_size=3))

    tables = st.fixed_dictionaries({}, optional={
        "posts": odd_or(level, st.lists(post, min_size=1, max_size=3)),
        "users": rows({"id": ids, "email": text, "name": text, "slug": text, "bio": text, "website": text,
                       "profile_image": text, "location": text}),
        "settings": rows({"key": _choice(level, ["title", "description", "navigation", "secondary_navigation", "lang",
                                                 "locale", "accent_color", "logo", "unknown"], ["", 5]),
                          "value": odd_or(level, st.one_of(plain_text, st.lists(st.fixed_dictionaries(
                              {"label": text, "url": text}), max_size=3).map(json.dumps)))}),
        "tags": rows({"id": ids, "name": odd_or(level, st.sampled_from(["News", "Photo", "#internal"]), text),
                      "slug": text, "visibility": _choice(level, ["public", "public", "internal"], [""])}, ("id", "name")),
        "categories": rows({"id": ids, "name": odd_or(level, st.sampled_from(["Guides", "News"]), text), "slug": text},
                           ("id", "name")),
        "media": rows({"path": text, "alt_text": text}),
        "posts_tags": rows({"post_id": ids, "tag_id": ids, "sort_order": orders}),
        "posts_authors": rows({"post_id": ids, "author_id": ids, "sort_order": orders}),
        "posts_categories": rows({"post_id": ids, "category_id": ids, "sort_order": orders}),
        "posts_meta": rows({"post_id": ids, "og_title": text, "feature_image_alt": text, "twitter_image": text}),
        "posts_cms": rows({"post_id": ids, "title": text, "published_at": times}),
        "members": rows({"id": ids, "email": text}),
    })
    versions = _choice(level, ["5.0.0", "4.48.2", "1.0", "5", "3.41.1", "003", "009", "0.11.14"],
                       ["0.11.0.1", "6.0.0", "", "\u00b2.0", "05.1", "010", "0x"])
    return odd_or(level, st.one_of(
        st.builds(lambda version, data: {"db": [{"meta": {"version": version}, "data": data}]}, versions, tables),
        st.builds(lambda version, data: {"db": [{"meta": {"version": version}, "data": data}]}, versions, tables),
        st.builds(lambda version, data: {"meta": {"version": version}, "data": data}, versions, tables)),
        st.builds(lambda db: {"db": db}, junk))


def _choice(level: int, typical: list, odd: list) -> st.SearchStrategy:
    return odd_or(level, st.sampled_from(typical), st.sampled_from(odd))


GHOST_DOCUMENTS = {level: _ghost_document(level) for level in set(LEVELS)}


@st.composite
def ghost_files(draw) -> bytes:
    level = draw(st.sampled_from(LEVELS))
    text = json.dumps(draw(GHOST_DOCUMENTS[level]))
    if level and draw(st.integers(0, 9)) == 0 and "null" in text:  # a value nested far too deep
        depth = draw(st.sampled_from([70, 5000, 100_000]))
        nulls = [at for at in range(len(text)) if text.startswith("null", at)]
        at = draw(st.sampled_from(nulls))
        text = text[:at] + "[" * depth + "]" * depth + text[at + 4:]
    return _mutated(draw, level, text.encode("utf-8", "surrogatepass"))


def _mutated(draw, level: int, data: bytes) -> bytes:
    """Mostly the document as it is; at a level of hostility, sometimes cut short or spliced with bytes."""
    how = draw(st.sampled_from(["as is"] * 6 + ["cut", "splice"])) if level else "as is"
    if how == "cut" and data:
        return data[:draw(st.integers(0, len(data) - 1))]
    if how == "splice":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.binary(max_size=8)) + data[at:]
    return data


@fuzz_settings(400)
@given(ghost_files())
def test_any_ghost_export_is_a_blog_or_a_parse_failure(data):
    check(data, "export.json")


# --- WordPress exports ---------------------------------------------------------------------------
wp_text = st.one_of(odd_text.map(lambda text: "".join(c for c in text if c >= " " or c in "\t\n\r")
                                 .replace("\ufffe", "").encode("utf-8", "ignore").decode("utf-8")),
                    st.sampled_from(["", "0", "None", "publish"]))
HTML_PIECES = ['[caption id="attachment_1" align="alignnone" width="300"]', '<img src="http://old.example/a.png" />',
               "[/caption]", "[caption]", '[gallery ids="1,2,x"]', "[gallery]", '[gallery include="2"]',
               "<!-- wp:paragraph -->", "<!-- /wp:paragraph -->", "<!--more-->", "<!--nextpage-->", "\n\n", "\n",
               "<p>", "</p>", "[embed]https://v.example/1[/embed]", "[audio src=x]", '<a href="http://old.example/a.png">',
               "</a>", "<script>alert(1)</script>", "&amp;", "]]>", "[", "<!-- wp:", "[caption caption=\"c\"]"]
wp_html = st.lists(st.one_of(st.sampled_from(HTML_PIECES), wp_text), max_size=8).map("".join)


def _element(name: str, value: str, *, cdata: bool = False) -> str:
    if cdata and "]]>" not in value:
        return f"<{name}><![CDATA[{value}]]></{name}>"
    return f"<{name}>{escape(value)}</{name}>"


def _field(draw, level: int, name: str, typical: st.SearchStrategy, *, cdata: bool = False) -> str:
    """An element of an item or the channel: mostly there once, at a level of hostility sometimes
    missing, doubled, holding elements, or odd text."""
    how = _pick(draw, level, ["once"], ["missing", "twice", "nested", "odd"])
    if how == "missing":
        return ""
    if how == "nested":
        return f"<{name}><x><y>{escape(draw(wp_text))}</y></x></{name}>"
    value = _element(name, draw(wp_text if how == "odd" else typical), cdata=cdata)
    return value * (2 if how == "twice" else 1)


wp_dates = st.one_of(st.datetimes().map(lambda moment: moment.strftime("%Y-%m-%d %H:%M:%S")),
                     st.sampled_from(["0000-00-00 00:00:00", "2020-02-30 10:00:00", "2020-01-01", "9999-12-31 23:59:59"]))
# WordPress's percent-encoded slugs, and broken ones: not UTF-8, cut mid-character, a NUL, a lone %.
PERCENT_SLUGS = ["%d8%b9%d8%b1%d8%a8%db%8c", "%D8%B9", "%ff%fe", "%d8", "%00", "100%", "%zz", "%e0%a4%b9%e0%a4%bf",
                 "%ed%a0%80"]
META_KEYS = ["_thumbnail_id", "_yoast_wpseo_title", "rank_math_description", "_wp_attachment_image_alt",
             "_yoast_wpseo_opengraph-image", "_wpml_import_language_code", "_wpml_import_translation_group",
             "wpml_language", "_icl_lang_duplicate_of", "mood", ""]
PHP_SERIALIZED = ['a:2:{s:2:"en";i:1;s:2:"fr";i:2;}', 'a:1:{s:6:"locale";s:5:"fr_FR";}', 'O:8:"stdClass":0:{}',
                  'a:1:{s:2:"en";s:1:"2";}', 'a:9:{', 's:3:"ab";', "a:1:{i:0;" * 20 + "N;" + "}" * 20, "b:1;", "N;"]


def wxr_item(draw, level: int) -> str:
    meta = "".join(
        f"<wp:postmeta>{_element('wp:meta_key', key)}"
        f"{_element('wp:meta_value', draw(st.sampled_from(['1', '2', 'fr', '%%title%% %%sep%%']) | wp_text), cdata=True)}"
        "</wp:postmeta>"
        for key in draw(st.lists(st.sampled_from(META_KEYS), max_size=3)))
    terms = "".join(
        f"<category domain={quoteattr(domain)} nicename={quoteattr(slug)}>{escape(name)}</category>"
        for domain, slug, name in draw(st.lists(st.tuples(st.sampled_from(["category", "post_tag", "other", ""]),
                                                          st.sampled_from(["news", "a-b", *PERCENT_SLUGS]) | wp_text,
                                                          wp_text),
                                                max_size=3)))
    field = lambda name, typical, **kw: _field(draw, level, name, typical, **kw)  # noqa: E731
    return ("<item>" + field("title", wp_text) + field("link", st.just("https://old.example/p/"))
            + field("guid", st.just("https://old.example/?p=1")) + field("dc:creator", wp_text)
            + field("wp:post_id", st.sampled_from(["1", "2", "3"]))
            + field("wp:post_type", st.sampled_from(["post", "post", "page", "attachment", "nav_menu_item"]))
            + field("wp:status", st.sampled_from(["publish", "publish", "future", "draft", "pending", "private", "trash"]))
            + field("wp:post_name", st.sampled_from(PERCENT_SLUGS) | wp_text) + field("wp:post_date_gmt", wp_dates)
            + field("wp:post_parent", st.sampled_from(["0", "1"]))
            + field("wp:post_password", st.sampled_from(["", "", "enter"]))
            + field("wp:attachment_url", st.just("https://old.example/a.png"))
            + field("content:encoded", wp_html, cdata=True) + field("excerpt:encoded", wp_html, cdata=True)
            + meta + terms + draw(st.sampled_from(["", '<category domain="language" nicename="fr">Fr</category>',
                                                   '<category domain="post_translations" nicename="pll_1">x</category>',
                                                   "<wp:comment><wp:comment_id>1</wp:comment_id></wp:comment>"]))
            + "</item>")


@st.composite
def wxr_files(draw) -> bytes:
    level = draw(st.sampled_from(LEVELS))
    version = _pick(draw, level, ["1.2", "1.1", "1.0"], ["2.0", "", "1.2.0"])
    namespace = _pick(draw, level, ["http://wordpress.org/export/1.2/", "https://wordpress.org/export/1.0/"],
                      ["http://example.com/not-wp/"])
    authors = "".join(
        f"<wp:author>{_element('wp:author_login', login)}{_element('wp:author_email', email)}"
        f"{_element('wp:author_display_name', name, cdata=True)}</wp:author>"
        for login, email, name in draw(st.lists(st.tuples(wp_text, wp_text, wp_text), max_size=2)))
    terms = "".join(
        f"<wp:category>{_element('wp:category_nicename', slug)}{_element('wp:cat_name', name, cdata=True)}"
        f"{_element('wp:category_parent', parent)}</wp:category>"
        f"<wp:tag>{_element('wp:tag_slug', slug)}{_element('wp:tag_name', name, cdata=True)}</wp:tag>"
        for slug, name, parent in draw(st.lists(st.tuples(wp_text, wp_text, wp_text), max_size=2)))
    items = "".join(wxr_item(draw, level) for _ in range(draw(st.integers(0, 4))))
    multilingual = "".join(  # Polylang's language and translation terms, with odd descriptions
        f"<wp:term>{_element('wp:term_taxonomy', taxonomy)}{_element('wp:term_slug', slug)}"
        f"{_element('wp:term_description', description, cdata=True)}</wp:term>"
        for taxonomy, slug, description in draw(st.lists(st.tuples(
            st.sampled_from(["language", "post_translations", "category"]),
            st.sampled_from(["en", "fr", "pll_1", "xx-notalanguage", ""]) | wp_text,
            st.sampled_from(PHP_SERIALIZED) | wp_text), max_size=3)))
    junk_elements = _pick(draw, level, [""], ["<x:y xmlns:x='urn:x'><z/></x:y>", "<a>" * 300 + "</a>" * 300,
                                              "<?pi data?>", "<!-- a comment -->", "<wp:wxr_version>1.2</wp:wxr_version>"])
    channel = (f"<channel>{_element('wp:wxr_version', version)}{_field(draw, level, 'wp:base_blog_url', wp_text)}"
               f"{_field(draw, level, 'link', st.just('https://old.example'))}{authors}{terms}{multilingual}{junk_elements}{items}"
               "</channel>")
    root = _pick(draw, level, ["rss"], ["feed", "RSS"])
    encoding = _pick(draw, level, ["UTF-8", "utf-16", "ISO-8859-1", "windows-1252", "koi8-r", None],
                     ["UTF-7", "Shift_JIS", "x-bogus", "rot13", "unicode_escape", "idna"])
    declaration = f'<?xml version="1.0" encoding="{encoding}"?>\n' if encoding else draw(
        st.sampled_from(["", '<?xml version="1.0"?>\n']))
    text = (f'{declaration}<{root} version="2.0" xmlns:wp="{namespace}" xmlns:excerpt="{namespace}excerpt/" '
            'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f"{channel}</{root}>")
    try:
        data = text.encode(encoding or "utf-8", "xmlcharrefreplace")
    except (LookupError, UnicodeError):
        data = text.encode("utf-8")
    return _mutated(draw, level, data)


@fuzz_settings(250)
@given(wxr_files())
def test_any_wordpress_export_is_a_blog_or_a_parse_failure(data):
    check(data, "export.xml")


@fuzz_settings(100)
@given(st.one_of(st.binary(max_size=64), st.binary(max_size=64).map(lambda tail: b"PK\x03\x04" + tail),
                 st.sampled_from([b"<", b"{", b"\xef\xbb\xbf<", b"\xff\xfe<\x00", b"\xfe\xff\x00<"])
                 .flatmap(lambda head: st.binary(max_size=64).map(lambda tail: head + tail))))
def test_any_bytes_are_a_blog_or_a_parse_failure(data):
    check(data)


# --- PHP's serialize() format (Polylang's term descriptions) -------------------------------------
php_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**18, 10**18), st.text(max_size=8)),
    lambda inner: st.dictionaries(st.one_of(st.integers(0, 9), st.text(max_size=4)), inner, max_size=3), max_leaves=8)


def _php(value) -> str:
    if value is None:
        return "N;"
    if isinstance(value, bool):
        return f"b:{int(value)};"
    if isinstance(value, int):
        return f"i:{value};"
    if isinstance(value, str):
        return f's:{len(value.encode("utf-8", "surrogatepass"))}:"{value}";'
    return f"a:{len(value)}:{{" + "".join(_php(k) + _php(v) for k, v in value.items()) + "}"


@fuzz_settings(300)
@given(php_values, st.integers(0, 3), st.binary(max_size=4))
def test_php_serialized_text_is_read_back_or_refused(value, how, noise):
    """A value PHP serialized is read back as it was; the same text cut or spliced is read or
    refused with a ValueError, never another exception."""
    from apps.portability.phpdata import php_unserialize

    text = _php(value).encode("utf-8", "surrogatepass")
    if how == 0:
        try:
            assert php_unserialize(text) == value
        except ValueError:
            assert any("\ud800" <= ch <= "\udfff" for ch in json.dumps(value, ensure_ascii=False))
        return
    broken = text[:len(text) // 2] if how == 1 else text[:len(text) // 2] + noise + text[len(text) // 2:]
    try:
        php_unserialize(broken)
    except ValueError:
        pass


# --- the dry run itself, for a few ----------------------------------------------------------------
@pytest.mark.django_db
@fuzz_settings(40, share=0.1)
@given(st.one_of(ghost_files(), wxr_files()))
def test_the_dry_run_takes_any_parsed_export(tenant, data):
    """What the upload does after parsing (the dry run's counts and lists, stored with the job) takes
    any Blog the parsers give."""
    blog = check(data)
    if blog is None:
        return
    with schema_context(tenant.schema_name), transaction.atomic():
        plan = blog_analyse(blog)
        json.dumps(plan, allow_nan=False)
        job = ImportJob(source=blog.source, source_version=blog.version, file_key="fuzz", plan=plan)
        job.save(force_insert=True)
        job.delete()


def test_the_strategies_reach_both_outcomes():
    """The strategies are not all refused (nor all accepted): a fixed sample of each gives both."""
    outcomes = {"ghost": set(), "wordpress": set()}

    def sampler(name, strategy):
        @fuzz_settings(60, fixed=True)
        @given(strategy)
        def sample(data):
            outcomes[name].add(check(data) is not None)
        return sample

    for name, strategy in (("ghost", ghost_files()), ("wordpress", wxr_files())):
        sampler(name, strategy)()
    assert outcomes == {"ghost": {True, False}, "wordpress": {True, False}}


def test_nan_never_reaches_a_blog():
    blog = check(json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": [
        {"id": "p1", "title": 1.5, "status": "published", "html": "<p>x</p>"}]}}]}).encode())
    assert blog is not None and blog.posts[0].title == "1.5"
    assert check(json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": [
        {"id": "p1", "title": math.nan, "status": "published"}]}}]}).encode()) is None


# --- the images archive (a zip beside the export) and the lookup of addresses in it -----------------
ZIP_NAMES = ["wp-content/uploads/2020/01/a.jpg", "content/images/size/w600/a.png", "images/a-300x200.jpg",
             "../evil.png", "/abs.png", "C:/x.png", "a\\b.png", "__MACOSX/._a.jpg", "uploads/", "export.xml",
             "x.json", "\u00e9t\u00e9.gif", ""]


@st.composite
def image_zips(draw) -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))) as archive:
        for name in draw(st.lists(st.sampled_from(ZIP_NAMES) | st.text(max_size=12), max_size=4)):
            try:
                archive.writestr(name or "x", draw(st.binary(max_size=16)))
            except (ValueError, UnicodeError):
                pass
    return _mutated(draw, draw(st.sampled_from(LEVELS)), out.getvalue())


@fuzz_settings(200)
@given(image_zips(), st.lists(st.one_of(odd_text, st.sampled_from([
    "__GHOST_URL__/content/images/size/w600/a.png", "https://old.example/wp-content/uploads/2020/01/a-1024x576.jpg",
    "//cdn.example/content/images/a.png", "/wp-content/uploads/%ff%fe.jpg", "https://[::1/x.png", "a-1x1.jpg"])),
    max_size=4))
def test_any_images_archive_is_files_or_a_parse_failure_and_any_address_is_looked_up(data, addresses):
    from apps.portability.images import ImageArchive
    from apps.portability.parsers import parse_images_archive

    try:
        files = parse_images_archive(data, max_bytes=MAX_BYTES)
    except ParseFailed as exc:
        assert exc.message and isinstance(exc.where, str)
        files = {}
    for name in files:
        assert not name.startswith(("/", "..")) and "\\" not in name
    archive = ImageArchive(files, site_url="https://old.example")
    for address in addresses:
        found = archive.find(address)
        assert found is None or found in files
