"""Ghost 0.x exports (its database versions 003 to 009: posts in markdown, `page` a boolean,
`image` for the featured image, users' `image` and `cover`) are read: markdown becomes HTML
(markdown-it-py) cleaned by the editor's sanitiser. A version that cannot be read is a 400 that
says which Ghost to export from, and how (docs/import-export.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.content.models import Post
from apps.portability.parsers import ParseFailed, parse_ghost_json
from apps.portability.tests.test_import_samples import run, upload_bytes

ZERO_X = Path(__file__).parent / "fixtures" / "ghost-0x-export.json"


def test_a_ghost_0x_export_is_read_with_its_markdown_pages_and_images():
    blog = parse_ghost_json(ZERO_X.read_bytes())
    assert blog.version == "Ghost 0.x (database 003)"
    welcome, about, draft = blog.posts
    assert "<h2>Getting started</h2>" in welcome.html and "<em>markdown</em>" in welcome.html
    assert "<s>mistakes</s>" in welcome.html and "<td>1</td>" in welcome.html
    assert '<img src="/content/images/2014/01/bell.jpg" alt="A bell"' in welcome.html
    assert welcome.featured_image == "/content/images/2014/01/cover.jpg"
    assert (welcome.kind, about.kind, draft.kind) == ("post", "page", "post")
    assert about.html == "<p>About <strong>us</strong>.</p>"  # its own html when it has one
    assert welcome.published_at.isoformat() == "2014-01-01T00:00:00+00:00"
    assert welcome.tags == ["1"] and welcome.seo["meta_title"] == "Welcome"
    [jo] = blog.authors
    assert jo.profile["profile_image"] == "https://old.example/content/images/2014/01/jo.jpg"
    assert jo.profile["cover_image"] == "https://old.example/content/images/2014/01/jo-cover.jpg"
    assert blog.settings["cover_image"] == "/content/images/2014/01/site-cover.jpg"


@pytest.mark.django_db
def test_a_ghost_0x_export_imports(tenant, api):
    job = upload_bytes(api, ZERO_X.read_bytes(), "ghost-0x.json").json()["job"]
    assert job["sourceVersion"] == "Ghost 0.x (database 003)"
    assert job["plan"]["counts"]["post"] == {"create": 2} and job["plan"]["counts"]["page"] == {"create": 1}
    run(tenant, job["id"])
    with schema_context(tenant.schema_name):
        welcome = Post.objects.get(slug="welcome-to-ghost")
        assert "<h2>Getting started</h2>" in welcome.content and "<script" not in welcome.content
        assert welcome.status == "published" and list(welcome.tags.values_list("slug", flat=True)) == ["getting-started"]
        assert Post.objects.get(slug="about").kind == "page"
        jo = User.objects.get(email="jo@old.example")
        assert (jo.display_name, jo.bio) == ("Jo Bloggs", "Writes about bells.")
        assert jo.profile_image == "https://old.example/content/images/2014/01/jo.jpg"


@pytest.mark.parametrize("version", ["010", "0x", "6.0.0", ""])
def test_a_version_that_cannot_be_read_says_which_ghost_to_export_from(version):
    document = json.loads(ZERO_X.read_text())
    document["meta"]["version"] = version
    with pytest.raises(ParseFailed) as refused:
        parse_ghost_json(json.dumps(document).encode())
    assert refused.value.where == "db[0].meta.version"
    assert "Export from Ghost 0.x" in refused.value.message and "Settings, Labs" in refused.value.message


@pytest.mark.django_db
def test_the_upload_of_such_a_version_is_a_400_that_says_how(tenant, api):
    document = json.loads(ZERO_X.read_text())
    document["meta"]["version"] = "6.0.0"
    reply = upload_bytes(api, json.dumps(document).encode(), "export.json")
    assert reply.status_code == 400 and "Export from Ghost 0.x" in reply.json()["message"]
    assert reply.json()["errors"][0]["field"] == "db[0].meta.version"
