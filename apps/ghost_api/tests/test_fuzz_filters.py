"""Structure-aware fuzzing of Ghost's filter grammar (apps.ghost_api.nql) with Hypothesis.

Filters are built from the grammar (fields the resources filter on and others, every operator
Ghost has, bare and quoted values with escapes, dates valid and not, lists, `+`, `,` and
parentheses nested), then sometimes mutated (characters inserted, removed or repeated: brackets,
quotes, backslashes, control characters, any other).

Property: a filter is read, compiled for posts, tags and authors and applied, or refused with
FilterError, which the Ghost API answers with its 400 (and the query reader with its GhostError);
never another exception. Through the API (Django, and the posts lists the public API's WSGI
layer builds), any such filter gets a 200 or Ghost's 400, never a 500.

`make fuzz-import` runs these with FUZZ_EXAMPLES (20,000) examples each (see
apps/portability/tests/fuzzing.py).
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.ghost_api import nql, query, selectors
from apps.ghost_api.errors import GhostError
from apps.ghost_api.nql import FilterError
from apps.portability.tests.fuzzing import fuzz_settings, odd_text
from apps.public_api.tests.conftest import wsgi_app, wsgi_call  # noqa: F401 (fixtures)

FIELDS = ["id", "uuid", "slug", "title", "tag", "tags", "tags.slug", "primary_tag", "primary_tag.slug", "author",
          "authors", "authors.slug", "primary_author", "featured", "visibility", "status", "type", "published_at",
          "updated_at", "created_at", "name", "Published_At", "author.email", "password", "x", "tags.name.x"]
OPS = ["", "-", ">", ">=", "<", "<=", "~", "-~", "~^", "~$"]  # the first six are served
WORDS = ["true", "false", "null", "news", "photo", "2024-01-01", "2024-02-30", "2024-01-01T10:00:00Z", "now-30d",
         "5e3", "-1", "0", "public", "post", "page", "published", "a" * 30, "0" * 24, "00000000-0000-0000-0000-000000000000"]
DATES = ["'2024-01-01 10:00:00'", "'2024-13-01 10:00:00'", "'9999-12-31T23:59:59-05:00'", "'0001-01-01T00:00:00+05:00'",
         "'2024-01-01T25:61:00'", "'2024-01-01T10:00:00+99:00'", "'1999-12-31T23:59:59.999999+14:00'"]

bare = st.one_of(st.sampled_from(WORDS), st.from_regex(r"[A-Za-z0-9_@$.][A-Za-z0-9_@$.\-]{0,12}", fullmatch=True))
plain_text = st.text(st.characters(min_codepoint=32, exclude_characters="\x7f"), max_size=16)
quoted = st.one_of(st.sampled_from(DATES), st.sampled_from(DATES),
                   plain_text.map(lambda text: "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"),
                   plain_text.map(lambda text: "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"),
                   odd_text.map(lambda text: "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"),
                   odd_text.map(lambda text: "'" + text + "'"))
value = st.one_of(bare, quoted)
values = st.one_of(value, value, st.lists(value, max_size=4).map(lambda items: "[" + ",".join(items) + "]"))
KNOWN = FIELDS[:20]  # the fields posts filter on, drawn more often than the others
comparison = st.builds(lambda field, op, right: f"{field}:{op}{right}",
                       st.one_of(st.sampled_from(KNOWN), st.sampled_from(KNOWN), st.sampled_from(FIELDS)),
                       st.one_of(st.sampled_from(OPS[:6]), st.sampled_from(OPS[:6]), st.sampled_from(OPS)), values)
expressions = st.recursive(comparison, lambda inner: st.one_of(
    st.lists(inner, min_size=2, max_size=3).map("+".join),
    st.lists(inner, min_size=2, max_size=3).map(",".join),
    inner.map(lambda text: f"({text})"),
    st.tuples(inner, st.sampled_from([" ", "\t", "  "])).map(lambda pair: pair[1].join(pair[0].split("+"))),
), max_leaves=8)
PIECES = "()[]'\\,+:-><~$^ \t\x00\x1b\u202e\ufeff\"@."


@st.composite
def filters(draw) -> str:
    text = draw(expressions)
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2, 4]))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "insert", "delete", "repeat"]))
        if how == "insert":
            text = text[:at] + draw(st.one_of(st.sampled_from(PIECES), st.characters())) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 4)):]
        else:
            text = text[:at] * draw(st.sampled_from([2, 30])) + text[at:]
    return text


def _reads() -> selectors.Reads:
    """A Reads that knows no authors (author filters then match nothing), read without a database."""
    reads = selectors.Reads()
    reads.__dict__["authors"] = []
    return reads


ROW = {"slug": "news", "name": "News", "id": "0" * 24}


def check_filter(text: str) -> None:
    try:
        tree = nql.parse(text)
    except FilterError:
        return
    for fields in (selectors.post_fields(_reads()), selectors.ROW_FIELDS):
        try:
            nql.compile_filter(text, fields)
        except FilterError:
            continue
    try:
        condition = selectors.row_filter(tree)
    except FilterError:
        return
    selectors.matches(condition, ROW)


@fuzz_settings(1000)
@given(filters())
def test_any_filter_is_read_or_refused_with_filter_error(text):
    check_filter(text)


@fuzz_settings(300)
@given(filters())
def test_the_query_reader_turns_a_refused_filter_into_ghosts_400(text):
    for resource in ("posts", "tags", "authors"):
        try:
            query.parse(resource, {"filter": [text]})
        except GhostError as exc:
            assert exc.status in (400, 422), (text, exc.status)


# --- through the API ------------------------------------------------------------------------------
def _sendable(text: str) -> str:
    """What a query string can carry (an unpaired surrogate is no UTF-8)."""
    return text.encode("utf-8", "ignore").decode("utf-8")


def _is_ghosts_answer(status: int, body: dict, text: str) -> None:
    assert status in (200, 400), (text, status, body)
    if status == 400:
        error = body["errors"][0]
        assert error["type"] == "BadRequestError" and error["message"], (text, body)


@pytest.fixture
def unlimited(settings):
    settings.PUBLIC_API_RATE_LIMIT = 10**9
    settings.PUBLIC_API_RATE_LIMITS = {}


@pytest.mark.django_db
@fuzz_settings(60, share=0.1)
@given(filters())
def test_any_filter_gets_a_200_or_ghosts_400(ghost, blog, unlimited, text):
    text = _sendable(text)
    for path in ("posts/", "tags/", "authors/"):
        response = ghost.get(path, {"filter": text, "include": "count.posts" if path != "posts/" else "tags"})
        _is_ghosts_answer(response.status_code, response.json(), text)


@pytest.mark.django_db
@fuzz_settings(40, share=0.1)
@given(filters())
def test_any_filter_gets_a_200_or_ghosts_400_before_django_too(wsgi_app, tenant, blog, unlimited, text):  # noqa: F811
    from urllib.parse import urlencode

    query_string = urlencode({"key": tenant.ghost_content_key, "filter": _sendable(text)})
    response = wsgi_call(wsgi_app, tenant, "/ghost/api/content/posts/", query=query_string)
    _is_ghosts_answer(response.status_code, response.json(), text)
