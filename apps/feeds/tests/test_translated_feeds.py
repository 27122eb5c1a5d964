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

from apps.content.models import Category, Post
from apps.content.tests.conftest import make_category, make_post, make_tag
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
    news = make_category(tenant, "News", "news", translations={"fr": {"name": "Actualités", "slug": "actualites"}})
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


# --- a language's feeds of a category or tag ----------------------------------------------------------
@pytest.mark.parametrize("kind", ["rss", "atom"])
def test_a_category_feed_per_language_lists_its_posts_in_that_language_with_the_translated_name(site, kind):
    french = feed(site, f"/feeds/fr/category/actualites/{kind}.xml")  # its French slug
    assert sorted(entry.title for entry in french.entries) == ["Lancement", "Seulement"]
    assert french.feed.title == f"{site.name}: Actualités"
    assert "Actualités" in (french.feed.get("subtitle") or french.feed.get("description"))
    assert {tag.term for entry in french.entries for tag in entry.tags} == {"Actualités"}
    assert french.feed.get("language", "fr").lower().startswith("fr")
    by_own_slug = feed(site, f"/feeds/fr/category/news/{kind}.xml")  # its own slug finds it too
    assert [entry.title for entry in by_own_slug.entries] == [entry.title for entry in french.entries]
    assert by_own_slug.feed.title == f"{site.name}: Actualités"
    # the default language's category feed, as before: English posts, the stored name
    english = feed(site, f"/feeds/category/news/{kind}.xml")
    assert sorted(entry.title for entry in english.entries) == ["Launch", "Only English"]
    assert english.feed.title == f"{site.name}: News"
    assert {tag.term for entry in english.entries for tag in entry.tags} == {"News"}
    # a language without a name for the term: its own name; a language the company lacks: 404
    assert feed(site, f"/feeds/pt-BR/category/news/{kind}.xml").feed.title == f"{site.name}: News"
    assert Api(site).get(f"/feeds/de/category/news/{kind}.xml").status_code == 404
    assert Api(site).get(f"/feeds/fr/category/nope/{kind}.xml").status_code == 404
    assert Api(site).get(f"/feeds/category/actualites/{kind}.xml").status_code == 404  # a French slug needs /fr/


def test_a_tag_feed_per_language(site):
    with schema_context(site.schema_name):
        release = make_tag(site, "Release", "release")
        Post.objects.get(slug="lancement").tags.add(release)
        Post.objects.get(slug="launch").tags.add(release)
        type(release).objects.filter(pk=release.pk).update(translations={"fr": {"name": "Version", "slug": "version"}})
    french = feed(site, "/feeds/fr/tag/version/rss.xml")
    assert [entry.title for entry in french.entries] == ["Lancement"]
    assert french.feed.title == f"{site.name}: Version"
    english = feed(site, "/feeds/tag/release/rss.xml")
    assert [entry.title for entry in english.entries] == ["Launch"]
    assert english.feed.title == f"{site.name}: Release"


def test_a_renamed_translation_is_in_the_next_feed(site, api, django_capture_on_commit_callbacks):
    """A term's translated name is content: a change to it is seen at once (the feed cache follows
    the content version)."""
    with schema_context(site.schema_name):
        news = Category.objects.get(slug="news")
    assert feed(site, "/feeds/fr/category/actualites/rss.xml").feed.title.endswith("Actualités")
    with django_capture_on_commit_callbacks(execute=True):  # what follows the write: the content version
        response = api.put(f"/api/categories/{news.id}", {"translations": {"fr": {"name": "Nouvelles"}}})
    assert response.status_code == 200, response.content
    renamed = feed(site, "/feeds/fr/category/nouvelles/rss.xml")
    assert renamed.feed.title.endswith("Nouvelles")
    assert Api(site).get("/feeds/fr/category/actualites/rss.xml").status_code == 404


def test_another_companys_category_feeds_are_apart(site, make_tenant):
    other = make_tenant()
    Client.objects.filter(pk=other.pk).update(website_url="https://other.example", languages=["en", "fr"])
    assert Api(other).get("/feeds/fr/category/actualites/rss.xml").status_code == 404
    make_category(other, "News", "news")
    body = Api(other).get("/feeds/fr/category/news/rss.xml").content.decode()
    assert "Lancement" not in body and "Actualités" not in body
