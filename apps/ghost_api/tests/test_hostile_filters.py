"""Filters meant to hurt: deep nesting, very long filters, unknown fields, injection attempts,
huge lists. Each gets Ghost's 400 (never a 500, never another company's data)."""
from __future__ import annotations

import pytest

from apps.content.tests.factories import make_post
from apps.ghost_api import nql
from apps.ghost_api.tests.conftest import Ghost

pytestmark = pytest.mark.django_db

HOSTILE = [
    "(" * 50 + "tag:news" + ")" * 50,
    "(" * (nql.MAX_DEPTH + 1) + "tag:news" + ")" * (nql.MAX_DEPTH + 1),
    "(" * 5000,
    "tag:" + "a" * 10_000,
    ",".join(["tag:news"] * 2_000),
    "tags:[" + ",".join(f"t{n}" for n in range(500)) + "]",
    "+".join(f"slug:s{n}" for n in range(300)),
    "password:secret",
    "author.email:admin@example.com",
    "tenant:other",
    "schema_name:public",
    "tag:'news' OR 1=1",
    "tag:news'; DROP TABLE content_post;--",
    "slug:'x' UNION SELECT password FROM accounts_user",
    "tag:~news",
    "tag:news)",
    "(tag:news",
    "tag:[news",
    "tag:",
    ":news",
    "tag::news",
    "tag:news,,slug:x",
    "tag:news\x00",
    "tag:\x1b[31m",
    "published_at:>'not a date'",
    "published_at:>now-30d",
    "published_at:>2024-02-30",
    "published_at:<'2024-13-01 10:00:00'",
    "published_at:>'2024-01-01 25:61:00'",
    "published_at:[2024-01-01,2024-02-31]",
    "uuid:not-a-uuid+featured:sometimes",
    "tags:>[a,b]",
    "featured:maybe",
    "tag:news+",
    "'",
    "tag:'unterminated",
    "tag:ñews",
    "\u202etag:news",
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda text: repr(text[:30]))
def test_a_hostile_filter_is_ghosts_400(ghost, blog, text):
    response = ghost.get("posts/", {"filter": text})
    assert response.status_code == 400, (text[:80], response.status_code, response.content[:300])
    error = response.json()["errors"][0]
    assert error["type"] == "BadRequestError" and error["message"] == "Error parsing filter"


@pytest.mark.parametrize("resource", ["tags/", "authors/"])
@pytest.mark.parametrize("text", ["name:x+(" * 20 + ")" * 20, "email:x", "count.posts:>1", "slug:~a"])
def test_tags_and_authors_refuse_them_too(ghost, blog, resource, text):
    assert ghost.get(resource, {"filter": text}).status_code == 400


def test_values_with_quotes_are_values_not_sql(ghost, blog, tenant):
    make_post(tenant, "Quoted", slug="it-s", status="published")
    for text in ("slug:'it''s'", "title:'Robert'); DROP TABLE content_post;--'", "slug:'%'", "slug:'_'",
                 r"slug:'\\'"):
        response = ghost.get("posts/", {"filter": text})
        assert response.status_code in (200, 400), text
        if response.status_code == 200:
            assert response.json()["posts"] == [], text
    assert len(ghost.get("posts/", {"limit": "all"}).json()["posts"]) == 6  # the table is still there


def test_no_filter_reaches_another_company(tenant, other_tenant, blog):
    make_post(other_tenant, "Secret", slug="secret", status="published")
    mine = Ghost(tenant)
    for text in ("slug:secret", "slug:-first", "tag:-news,slug:secret", "title:Secret", "visibility:public"):
        response = mine.get("posts/", {"filter": text, "limit": "all"})
        assert response.status_code == 200
        assert "secret" not in [post["slug"] for post in response.json()["posts"]], text
    theirs = Ghost(other_tenant).get("posts/", {"filter": "slug:first,tag:news,author:bob"})
    assert theirs.json()["posts"] == []


def test_the_limits_are_checked_before_parsing():
    with pytest.raises(nql.FilterError, match="at most"):
        nql.parse("x" * (nql.MAX_LENGTH + 1))
    with pytest.raises(nql.FilterError, match="nests"):
        nql.parse("(" * (nql.MAX_DEPTH + 1) + "a:b" + ")" * (nql.MAX_DEPTH + 1))
    assert nql.parse("(" * nql.MAX_DEPTH + "a:b" + ")" * nql.MAX_DEPTH) == nql.Comparison("a", "=", ("b",), False)


def test_the_filter_grammar_is_loaded_by_the_first_filter_only():
    """A web worker that never reads a filter never loads lark (the parser is made on first use)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    script = ("import sys; from apps.ghost_api import nql; assert 'lark' not in sys.modules, 'imported'; "
              "nql.parse('tag:news'); assert 'lark' in sys.modules, 'not loaded'")
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
