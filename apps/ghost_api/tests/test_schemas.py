"""Every endpoint's JSON against the JSON Schema of Ghost 5's Content API replies
(apps/ghost_api/schemas/content-api.schema.json, written from Ghost's documentation), field by
field: each documented field present with its type, no field Ghost does not have."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from jsonschema import Draft202012Validator, FormatChecker

from apps.content.tests.conftest import make_media
from apps.content.tests.factories import make_post

pytestmark = pytest.mark.django_db
DOCUMENT = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "content-api.schema.json").read_text())


def validator(name: str) -> Draft202012Validator:
    schema = {**DOCUMENT, "$ref": f"#/$defs/{name}"}
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def check(response, name: str, status: int = 200) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    errors = sorted(validator(name).iter_errors(body), key=lambda error: list(error.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    return body


@pytest.fixture
def illustrated(tenant, blog):
    image = make_media(tenant)
    return make_post(tenant, "With a picture", slug="pictured", status="published", featured_image=image,
                     og_image=image, meta_title="Meta", canonical_url="https://elsewhere.example/p",
                     categories=[blog["news"]], author=blog["alice"])


ENDPOINTS = [
    ("posts/", {}, "posts_browse"),
    ("posts/", {"include": "tags,authors", "formats": "html,plaintext", "limit": "all"}, "posts_browse"),
    ("posts/", {"filter": "tag:news+featured:false", "limit": "2", "page": "2"}, "posts_browse"),
    ("posts/slug/pictured/", {"include": "tags,authors"}, "posts_read"),
    ("posts/slug/first/", {"formats": "plaintext"}, "posts_read"),
    ("pages/", {}, "pages_browse"),
    ("tags/", {}, "tags_browse"),
    ("tags/", {"include": "count.posts", "limit": "all"}, "tags_browse"),
    ("tags/slug/news/", {"include": "count.posts"}, "tags_read"),
    ("authors/", {"include": "count.posts"}, "authors_browse"),
    ("authors/slug/bob/", {}, "authors_read"),
    ("settings/", {}, "settings_browse"),
    ("tiers/", {}, "tiers_browse"),
]


@pytest.mark.parametrize(("path", "params", "name"), ENDPOINTS)
def test_each_endpoint_validates(ghost, illustrated, path, params, name):
    body = check(ghost.get(path, params), name)
    key = name.split("_")[0]
    assert body[key] or key == "pages", "something to check"  # the product has no pages
    if "include" in params and key == "posts":
        post = body["posts"][0]
        assert {"tags", "authors", "primary_tag", "primary_author"} <= set(post)


def test_an_image_is_an_absolute_address(ghost, illustrated):
    post = check(ghost.get("posts/slug/pictured/"), "posts_read")["posts"][0]
    assert post["feature_image"].startswith("http") and post["og_image"] == post["feature_image"]
    assert post["meta_title"] == "Meta" and post["canonical_url"] == "https://elsewhere.example/p"


@pytest.mark.parametrize(("path", "params", "status"), [
    ("posts/", {"filter": "nope:1"}, 400), ("posts/", {"limit": "x"}, 422), ("posts/slug/none/", {}, 404),
    ("tags/ffffffffffffffffffffffff/", {}, 404), ("posts/", {"key": "0" * 26}, 401),
])
def test_errors_validate(ghost, blog, path, params, status):
    key = params.pop("key", None)
    check(ghost.get(path, params, key=key), "error", status)


def test_the_schema_refuses_what_ghost_does_not_send(ghost, blog):
    """The schema can fail: a missing field, a field Ghost lacks, a wrong type, a wrong id."""
    body = ghost.get("posts/", {"include": "tags"}).json()
    assert not list(validator("posts_browse").iter_errors(body))
    for change in (lambda b: b["posts"][0].pop("slug"), lambda b: b["posts"][0].update(status="published"),
                   lambda b: b["posts"][0].update(reading_time="3"), lambda b: b["posts"][0].update(id="1234"),
                   lambda b: b["posts"][0]["tags"][0].pop("url"), lambda b: b["meta"]["pagination"].pop("next"),
                   lambda b: b["posts"][0].update(published_at="2024-01-01")):
        broken = copy.deepcopy(body)
        change(broken)
        with pytest.raises(jsonschema.ValidationError):
            validator("posts_browse").validate(broken)
