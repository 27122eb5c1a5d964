"""A multilingual blog comes across in its languages: WordPress with Polylang (each post's language
and group of translations, in the export's taxonomies) or WPML (its Export and Import postmeta, a
duplicate's original), and a Ghost export's locale. The languages are added to the company's (the
dry run lists them), each post is in its language, and translations share a group
(docs/import-export.md)."""
from __future__ import annotations

import json

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.core import languages
from apps.portability.parsers import parse_wxr
from apps.portability.tests.test_import_samples import run, upload_bytes
from tenants.models import Client

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
 xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Old</title><link>https://old.example</link>
<wp:wxr_version>1.2</wp:wxr_version><wp:base_blog_url>https://old.example</wp:base_blog_url>
<wp:author><wp:author_login>admin</wp:author_login><wp:author_email>admin@old.example</wp:author_email></wp:author>
"""


def term(taxonomy: str, slug: str, name: str, description: str) -> str:
    return (f"<wp:term><wp:term_id>{abs(hash(slug)) % 1000}</wp:term_id><wp:term_taxonomy>{taxonomy}</wp:term_taxonomy>"
            f"<wp:term_slug>{slug}</wp:term_slug><wp:term_name><![CDATA[{name}]]></wp:term_name>"
            f"<wp:term_description><![CDATA[{description}]]></wp:term_description></wp:term>")


def item(post_id: int, slug: str, *, terms: str = "", meta: dict | None = None) -> str:
    postmeta = "".join(f"<wp:postmeta><wp:meta_key>{k}</wp:meta_key><wp:meta_value><![CDATA[{v}]]></wp:meta_value>"
                       "</wp:postmeta>" for k, v in (meta or {}).items())
    return f"""<item><title>{slug}</title><link>https://old.example/{slug}/</link><dc:creator>admin</dc:creator>
<content:encoded><![CDATA[<p>{slug}</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>{post_id}</wp:post_id><wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt><wp:post_name>{slug}</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type>{postmeta}{terms}</item>"""


def lang(code: str, name: str) -> str:
    return f'<category domain="language" nicename="{code}"><![CDATA[{name}]]></category>'


def group(slug: str) -> str:
    return f'<category domain="post_translations" nicename="{slug}"><![CDATA[{slug}]]></category>'


POLYLANG = (HEAD
            + term("language", "en", "English", 'a:3:{s:6:"locale";s:5:"en_US";s:3:"rtl";i:0;s:9:"flag_code";s:2:"us";}')
            + term("language", "fr", "Français", 'a:3:{s:6:"locale";s:5:"fr_FR";s:3:"rtl";i:0;s:9:"flag_code";s:2:"fr";}')
            + term("language", "pt", "Português", 'a:3:{s:6:"locale";s:5:"pt_BR";s:3:"rtl";i:0;s:9:"flag_code";s:2:"br";}')
            + term("language", "fa", "فارسی", 'a:3:{s:6:"locale";s:5:"fa_IR";s:3:"rtl";i:1;s:9:"flag_code";s:2:"ir";}')
            + term("post_translations", "pll_5f1", "pll_5f1", 'a:3:{s:2:"en";i:10;s:2:"fr";i:11;s:2:"pt";i:12;}')
            + term("post_translations", "pll_5f2", "pll_5f2", 'O:8:"stdClass":0:{}')  # refused: read without
            + item(10, "hello", terms=lang("en", "English") + group("pll_5f1"))
            + item(11, "bonjour", terms=lang("fr", "Français") + group("pll_5f1"))
            + item(12, "ola", terms=lang("pt", "Português"))  # its group only in the term's description
            + item(13, "salam", terms=lang("fa", "فارسی"))
            + item(14, "salut", terms=lang("fr", "Français") + group("pll_5f1"))  # a second French one
            + item(15, "nowhere", terms=lang("xx-notalanguage", "?"))
            + "</channel></rss>").encode()


def imported(tenant, api, data: bytes, name: str) -> tuple[dict, dict]:
    job = upload_bytes(api, data, name).json()["job"]
    run(tenant, job["id"])
    done = api.get(f"/api/imports/{job['id']}").json()["job"]
    assert done["status"] == "completed", done["error"]
    return job["plan"], done["report"]


def posts(tenant) -> dict[str, tuple[str, object]]:
    with schema_context(tenant.schema_name):
        return {slug: (language, group) for slug, language, group in
                Post.objects.values_list("slug", "language", "translation_group")}


def test_polylang_languages_and_groups_are_read_from_the_taxonomies():
    blog = parse_wxr(POLYLANG)
    assert blog.languages == {"en": "en_US", "fr": "fr_FR", "pt": "pt_BR", "fa": "fa_IR"}
    by_slug = {post.slug: post for post in blog.posts}
    assert (by_slug["hello"].language, by_slug["hello"].translation_key) == ("en", "polylang:pll_5f1")
    assert by_slug["ola"].translation_key == "polylang:pll_5f1"
    assert by_slug["salam"].translation_key == ""


@pytest.mark.django_db
def test_a_polylang_blog_comes_in_its_languages_with_its_translations(tenant, api):
    plan, report = imported(tenant, api, POLYLANG, "export.xml")
    assert plan["languages"] == {"used": ["en", "fa", "fr", "pt"], "add": ["fa", "fr", "pt"],
                                 "unknown": ["xx-notalanguage"], "default": None, "groups": 1}
    found = posts(tenant)
    assert {slug: language for slug, (language, _) in found.items()} == {
        "hello": "en", "bonjour": "fr", "ola": "pt", "salam": "fa", "salut": "fr", "nowhere": "en"}
    assert found["hello"][1] == found["bonjour"][1] == found["ola"][1]  # one group of translations
    with schema_context(tenant.schema_name):
        hello = Post.objects.get(slug="hello")
        assert hello.translation_group == hello.pk  # the group is the default language's post
    assert found["salut"][1] not in (found["hello"][1],)  # a second French post: a group of its own, reported
    assert {"kind": "post", "item": "salut", "outcome": "translation not linked",
            "reason": "its group of translations has a post in fr already"} in report["items"]
    client = Client.objects.get(pk=tenant.pk)
    assert list(client.languages) == ["en", "fa", "fr", "pt"] and client.default_language == "en"
    assert report["counts"]["language"] == {"added": 3}
    # the public API serves the translations of the group
    from apps.core import testing
    site = testing.Api(tenant, headers={"x-api-key": tenant.api_key})
    reply = site.get("/api/v1/posts/slug/hello", {"locale": "fr"})
    assert reply.status_code == 200 and reply.json()["data"]["post"]["slug"] == "bonjour"


WPML = (HEAD
        + item(20, "welcome", meta={"_wpml_import_language_code": "en", "_wpml_import_translation_group": "42"})
        + item(21, "bienvenue", meta={"_wpml_import_language_code": "fr",
                                      "_wpml_import_source_language_code": "en", "_wpml_import_translation_group": "42"})
        + item(22, "willkommen", meta={"wpml_language": "de", "_icl_lang_duplicate_of": "20"})
        + "</channel></rss>").encode()


@pytest.mark.django_db
def test_a_wpml_blog_comes_in_its_languages_with_its_translations(tenant, api):
    plan, _report = imported(tenant, api, WPML, "export.xml")
    assert plan["languages"]["add"] == ["de", "fr"]
    found = posts(tenant)
    assert [found[s][0] for s in ("welcome", "bienvenue", "willkommen")] == ["en", "fr", "de"]
    assert found["welcome"][1] == found["bienvenue"][1] == found["willkommen"][1]


@pytest.mark.django_db
def test_a_ghost_locale_is_the_default_language_of_a_company_without_posts(tenant, api):
    data = json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": {
        "posts": [{"id": "p1", "title": "Bonjour", "slug": "bonjour", "html": "<p>x</p>", "status": "published"}],
        "settings": [{"key": "locale", "value": "fr"}]}}]}).encode()
    plan, report = imported(tenant, api, data, "export.json")
    assert plan["languages"]["default"] == "fr"
    client = Client.objects.get(pk=tenant.pk)
    assert (list(client.languages), client.default_language) == (["fr"], "fr")
    assert posts(tenant)["bonjour"][0] == "fr"
    assert {"kind": "settings", "item": "language", "outcome": "set",
            "reason": "the default language is fr, the file's (the company had no posts)"} in report["items"]
    # a company with posts keeps its default; the report names the file's
    second = data.replace(b'"p1"', b'"p2"').replace(b"bonjour", b"salut").replace(b'"fr"', b'"de"')
    plan, report = imported(tenant, api, second, "export.json")
    assert plan["languages"]["default"] is None
    assert Client.objects.get(pk=tenant.pk).default_language == "fr"
    assert any(i["item"] == "language" and "de" in i["reason"] for i in report["items"])
    assert languages.normalize("pt_BR") == "pt-BR"
