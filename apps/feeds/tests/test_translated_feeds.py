"""Feeds and the sitemap of a company in several languages (docs/translations.md): a feed per
language, the default language's feed as before, and a sitemap listing every translation with
its hreflang alternates, valid against the sitemaps.org schema with Google's xhtml:link."""
from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import feedparser
import pytest
import xmlschema
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_post
from apps.core.testing import Api
from tenants.models import Client

XSD = Path(__file__).parent / "xsd"
SITEMAP = xmlschema.XMLSchema(XSD / "sitemap-alternates.xsd")
XHTML = "{http://www.w3.org/1999/xhtml}link"


def _translation(tenant, source, language, slug, title, **fields):
    post = make_post(tenant, title=title, slug=slug, language=language, **fields)
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post.pk).update(translation_group=source.translation_group)
    return post


@pytest.fixture
def site(tenant):
    Client.objects.filter(pk=tenant.pk).update(website_url="https://acme.example",
                                               post_url_template="https://acme.example/{locale}/blog/{slug}",
                                               languages=["en", "fr", "pt-BR"])
    tenant.refresh_from_db()
    news = make_category(tenant, "News", "news")
    launch = make_post(tenant, title="Launch", slug="launch", status="published", categories=[news])
    _translation(tenant, launch, "fr", "lancement", "Lancement", status="published", categories=[news])
    _translation(tenant, launch, "pt-BR", "lancamento", "Lançamento", status="draft", categories=[news])
    make_post(tenant, title="Only English", slug="only-english", status="published", categories=[news])
    make_post(tenant, title="Seulement", slug="seulement", language="fr", status="published", categories=[news])
    return tenant


def feed(tenant, path):
    response = Api(tenant).get(path)
    assert response.status_code == 200, response.content[:300]
    parsed = feedparser.parse(response.content)
    assert not parsed.bozo, parsed.get("bozo_exception")
    return parsed


@pytest.mark.parametrize("kind", ["rss", "atom"])
def test_a_feed_per_language(site, kind):
    french = feed(site, f"/feeds/fr/{kind}.xml")
    assert sorted(entry.title for entry in french.entries) == ["Lancement", "Seulement"]
    assert {entry.link for entry in french.entries} == {"https://acme.example/fr/blog/lancement",
                                                        "https://acme.example/fr/blog/seulement"}
    assert french.feed.get("language", "fr").lower().startswith("fr")
    english = feed(site, f"/feeds/{kind}.xml")  # the default language's, as before
    assert sorted(entry.title for entry in english.entries) == ["Launch", "Only English"]
    assert feed(site, f"/feeds/en/{kind}.xml").entries[0].title in {"Launch", "Only English"}
    assert feed(site, f"/feeds/pt-br/{kind}.xml").entries == []  # its one post is a draft
    assert Api(site).get(f"/feeds/de/{kind}.xml").status_code == 404  # not a language of the company


def test_the_sitemap_lists_every_translation_with_valid_hreflang_alternates(site):
    response = Api(site).get("/sitemap.xml")
    assert response.status_code == 200
    SITEMAP.validate(response.content.decode())  # raises on an invalid document
    root = ElementTree.fromstring(response.content)
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    urls = {url.find(f"{ns}loc").text: [(link.get("hreflang"), link.get("href")) for link in url.findall(XHTML)]
            for url in root.findall(f"{ns}url")}
    pair = [("en", "https://acme.example/en/blog/launch"), ("fr", "https://acme.example/fr/blog/lancement"),
            ("x-default", "https://acme.example/en/blog/launch")]
    assert urls == {
        "https://acme.example/en/blog/launch": pair,
        "https://acme.example/fr/blog/lancement": pair,
        "https://acme.example/en/blog/only-english": [],
        "https://acme.example/fr/blog/seulement": [],
    }


def test_without_a_locale_in_the_template_other_languages_get_a_parameter(site):
    Client.objects.filter(pk=site.pk).update(post_url_template="https://acme.example/blog/{slug}")
    root = Api(site).get("/sitemap.xml").content.decode()
    SITEMAP.validate(root)
    assert "https://acme.example/blog/lancement?locale=fr" in root
    assert "https://acme.example/blog/launch<" in root
    Client.objects.filter(pk=site.pk).update(post_url_template="")
    root = Api(site).get("/sitemap.xml").content.decode()
    assert "https://acme.example/fr/lancement" in root and "https://acme.example/launch<" in root


def test_another_companys_translations_are_not_in_the_sitemap(site, make_tenant):
    other = make_tenant()
    Client.objects.filter(pk=other.pk).update(website_url="https://other.example", languages=["en", "fr"])
    make_post(other, title="Theirs", slug="theirs", status="published", categories=[make_category(other)])
    body = Api(other).get("/sitemap.xml").content.decode()
    assert "theirs" in body and "lancement" not in body and "launch" not in body
    assert "Lancement" not in Api(other).get("/feeds/fr/rss.xml").content.decode()
