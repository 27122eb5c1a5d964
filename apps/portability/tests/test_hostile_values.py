"""Exports that are well-formed XML or JSON but hold what no real export holds: an encoding the
parser must not decode, JSON nested beyond reason, values of the wrong type at any key (a
mobiledoc that is a list, a card index that is text, a sort order that is a word, a date that is
NaN). Each is refused at upload (the dry run) with the contract's 400 naming the key path (or the
line) that failed, nothing kept; never a 500."""
from __future__ import annotations

import json
import time

import pytest

from apps.portability.tests.test_hostile_files import _nothing_kept, _refused
from apps.portability.tests.test_import_samples import upload_bytes

pytestmark = pytest.mark.django_db

POSTS = "db[0].data.posts"


# --- WordPress: encodings ------------------------------------------------------------------------
def wxr(encoding: str, title: str = "Café au lait") -> bytes:
    """A small WXR with one published post, its declaration naming `encoding`, in that encoding."""
    text = (f'<?xml version="1.0" encoding="{encoding}"?>\n'
            '<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" '
            'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
            '<channel><wp:wxr_version>1.2</wp:wxr_version><link>https://old.example</link>'
            f'<item><title>{title}</title><wp:post_id>7</wp:post_id><wp:post_type>post</wp:post_type>'
            '<wp:status>publish</wp:status><wp:post_name>cafe</wp:post_name>'
            '<content:encoded><![CDATA[<p>Crème brûlée</p>]]></content:encoded></item></channel></rss>')
    return text.encode("utf-8") if encoding.lower() in ("utf-7", "x-unknown", "rot13") else text.encode(encoding, "replace")


@pytest.mark.parametrize("encoding", ["UTF-7", "Shift_JIS", "x-unknown", "rot13", "EUC-JP", "unicode_escape"])
def test_an_encoding_the_parser_must_not_decode_is_named(tenant, api, encoding):
    body = _refused(api, wxr(encoding, title="Title"), "odd.xml")
    assert f"encoding {encoding}" in body["message"], body
    assert body["errors"][0]["field"] == "line 1"
    _nothing_kept(tenant)


@pytest.mark.parametrize("encoding", ["UTF-8", "utf-16", "ISO-8859-1", "windows-1252", "iso-8859-15"])
def test_the_encodings_of_real_exports_still_parse(tenant, api, encoding):
    reply = upload_bytes(api, wxr(encoding), "export.xml")
    assert reply.status_code == 201, reply.content
    assert reply.json()["job"]["plan"]["counts"]["post"] == {"create": 1}


# --- Ghost: nesting ------------------------------------------------------------------------------
def ghost(posts=None, **tables) -> bytes:
    return json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": posts or [], **tables}}]}).encode()


def post(**fields) -> dict:
    return {"id": "p1", "title": "A post", "slug": "a-post", "status": "published", "html": "<p>x</p>", **fields}


def test_json_nested_100000_arrays_deep_is_refused(tenant, api):
    depth = 100_000
    data = (b'{"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": ' + b"[" * depth + b"]" * depth + b"}}]}")
    body = _refused(api, data, "deep.json")
    assert "nested" in body["message"] and body["errors"][0]["field"].startswith(POSTS), body
    _nothing_kept(tenant)


# --- Ghost: mobiledoc and lexical ----------------------------------------------------------------
def _mobiledoc(cards, sections) -> str:
    return json.dumps({"version": "0.3.1", "atoms": [], "markups": [], "cards": cards, "sections": sections})


def _deep_lexical(depth: int) -> str:
    return '{"root": {"children": [' + '{"type": "paragraph", "children": [' * depth + '{"type": "text", "text": "x"}' \
        + "]}" * depth + "]}}"


@pytest.mark.parametrize(("fields", "where"), [
    ({"html": "", "mobiledoc": "[1,2]"}, "mobiledoc"),
    ({"html": "", "mobiledoc": "7"}, "mobiledoc"),
    ({"html": "", "mobiledoc": _mobiledoc([["html", {"html": "<p>x</p>"}]], [[10, "zero"]])}, "mobiledoc.sections[0]"),
    ({"html": "", "mobiledoc": _mobiledoc([["html", ["x"]]], [[10, 0]])}, "mobiledoc.cards[0]"),
    ({"html": "", "mobiledoc": _mobiledoc([["html", {"html": ["x"]}]], [[10, 0]])}, "mobiledoc.cards[0]"),
    ({"html": "", "mobiledoc": _mobiledoc(["html"], [[10, 0]])}, "mobiledoc.cards[0]"),
    ({"html": "", "mobiledoc": _mobiledoc([], [[10, 3]])}, "mobiledoc.sections[0]"),
    ({"html": "", "mobiledoc": _mobiledoc([], {"a": 1})}, "mobiledoc.sections"),
    ({"html": "", "mobiledoc": _mobiledoc([], [7])}, "mobiledoc.sections[0]"),
    ({"html": "", "mobiledoc": _mobiledoc([], [[1, "p", [[0, [], 0, ["text"]]]]])}, "mobiledoc.sections[0]"),
    ({"html": "", "mobiledoc": _mobiledoc([], [[1, "p", 5]])}, "mobiledoc.sections[0]"),
    ({"html": "", "mobiledoc": "[" * 5000 + "]" * 5000}, "mobiledoc"),
    ({"html": "", "lexical": json.dumps({"root": [1, 2]})}, "lexical.root"),
    ({"html": "", "lexical": "[1]"}, "lexical"),
    ({"html": "", "lexical": json.dumps({"root": {"children": [1]}})}, "lexical.root.children[0]"),
    ({"html": "", "lexical": json.dumps({"root": {"children": [{"type": "paragraph", "children": "x"}]}})},
     "lexical.root.children[0].children"),
    ({"html": "", "lexical": json.dumps({"root": {"children": [{"type": "text", "text": {"a": 1}}]}})},
     "lexical.root.children[0].text"),
    ({"html": "", "lexical": _deep_lexical(3000)}, "lexical"),
    ({"html": "", "lexical": _deep_lexical(300)}, "lexical"),
])
def test_a_mobiledoc_or_lexical_of_the_wrong_shape_is_named(tenant, api, fields, where):
    body = _refused(api, ghost([post(**fields)]), "shape.json")
    assert body["errors"][0]["field"].startswith(f"{POSTS}[0].{where}"), body
    _nothing_kept(tenant)


# --- Ghost: values of the wrong type -------------------------------------------------------------
@pytest.mark.parametrize("table", ["posts_tags", "posts_authors", "posts_categories"])
def test_a_sort_order_that_is_no_number_is_named(tenant, api, table):
    other = {"posts_tags": "tag_id", "posts_authors": "author_id", "posts_categories": "category_id"}[table]
    data = ghost([post()], tags=[{"id": "t1", "name": "News"}], categories=[{"id": "t1", "name": "News"}],
                 **{table: [{"post_id": "p1", other: "t1", "sort_order": "abc"}]})
    body = _refused(api, data, "order.json")
    assert body["errors"][0]["field"] == f"db[0].data.{table}[0].sort_order", body


@pytest.mark.parametrize("name", ["published_at", "created_at", "updated_at"])
@pytest.mark.parametrize("value", [float("nan"), 1e30, float("inf"), -float("inf"), "NaN", "Infinity", True,
                                   [2020], "9999-12-31T23:59:59-05:00"])
def test_a_date_that_is_no_date_is_named(tenant, api, name, value):
    body = _refused(api, ghost([post(**{name: value})]), "dates.json")
    assert body["errors"][0]["field"] == f"{POSTS}[0].{name}", body


@pytest.mark.parametrize(("row", "where"), [
    (post(id=["p1"]), f"{POSTS}[0].id"),
    (post(id={"a": 1}), f"{POSTS}[0].id"),
    (post(title=[1, 2]), f"{POSTS}[0].title"),
    (post(title={"a": [1]}), f"{POSTS}[0].title"),
    (post(slug=False), f"{POSTS}[0].slug"),
    (post(html=["<p>x</p>"]), f"{POSTS}[0].html"),
    (post(status=["published"]), f"{POSTS}[0].status"),
    (post(feature_image=[1]), f"{POSTS}[0].feature_image"),
    (post(meta_title={"x": 1}), f"{POSTS}[0].meta_title"),
    (post(title="a\u0000b"), f"{POSTS}[0].title"),
    (post(html="<p>\ud800</p>"), f"{POSTS}[0].html"),
])
def test_a_value_of_the_wrong_type_is_named(tenant, api, row, where):
    body = _refused(api, ghost([row]), "types.json")
    assert body["errors"][0]["field"] == where, body
    _nothing_kept(tenant)


@pytest.mark.parametrize(("tables", "where"), [
    ({"tags": [{"id": "t1", "name": ["News"]}]}, "db[0].data.tags[0].name"),
    ({"users": [{"id": "u1", "email": 5, "name": {"a": 1}}]}, "db[0].data.users[0].name"),
    ({"posts_meta": [{"post_id": "p1", "og_title": ["x"]}]}, "db[0].data.posts_meta[0].og_title"),
    ({"media": [{"path": [1], "alt_text": "x"}]}, "db[0].data.media[0].path"),
])
def test_a_value_of_the_wrong_type_in_another_table_is_named(tenant, api, tables, where):
    body = _refused(api, ghost([post()], **tables), "types.json")
    assert body["errors"][0]["field"] == where, body


def test_numbers_where_text_is_expected_are_read_as_text(tenant, api):
    """Ids and titles written as numbers (older tools write them so) are their digits; a number
    with more digits than Python reads is refused, not a 500."""
    reply = upload_bytes(api, ghost([post(id=12, title=2024, slug=10**40)]), "numbers.json")
    assert reply.status_code == 201, reply.content
    assert reply.json()["job"]["plan"]["counts"]["post"] == {"create": 1}
    body = _refused(api, b'{"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": [{"id": '
                    + b"9" * 5000 + b"}]}}]}", "huge.json")
    assert body["errors"][0]["field"].startswith("line 1"), body


@pytest.mark.parametrize("version", ["\u00b2.0.0", "9" * 5000, ["5"], {"v": 5}])
def test_a_version_that_is_no_version_is_named(tenant, api, version):
    data = json.dumps({"db": [{"meta": {"version": version}, "data": {"posts": []}}]}).encode()
    body = _refused(api, data, "version.json")
    assert body["errors"][0]["field"] == "db[0].meta.version", body


# --- WordPress: content that made the conversion slow --------------------------------------------
def test_content_of_many_unclosed_shortcodes_and_comments_is_read_at_once(tenant, api):
    """Openings never closed ([caption, <!-- wp:, [gallery, [name ...) took the dry run minutes (each
    was looked for to the end of the text); they are left as text, and the upload answers at once."""
    content = "[caption]x" * 30_000 + "<!-- wp:x " * 30_000 + "[gallery " * 30_000 + "[a " * 30_000
    data = wxr("UTF-8").replace(b"<p>Cr\xc3\xa8me br\xc3\xbbl\xc3\xa9e</p>", content.encode())
    started = time.monotonic()
    reply = upload_bytes(api, data, "slow.xml")
    assert reply.status_code == 201, reply.content[:300]
    assert time.monotonic() - started < 10
    assert reply.json()["job"]["plan"]["counts"]["post"] == {"create": 1}
