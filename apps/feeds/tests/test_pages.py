"""Pages (apps.content.kinds) in feeds and the sitemap: never an item of a feed, always a URL of the
sitemap, at the website's root (not under the posts' template)."""
from __future__ import annotations

import pytest
from django.utils import timezone

from apps.content.tests.conftest import make_post
from apps.feeds.tests.test_feeds import SITEMAP, fetch, parsed, site  # noqa: F401 (the site fixture)
from tenants.models import Client


@pytest.fixture
def pages(site):  # noqa: F811
    tenant = site["tenant"]
    return [make_post(tenant, title="About us", slug="about", status="published", kind="page",
                      published_at=timezone.now()),
            make_post(tenant, title="Hidden page", slug="hidden-page", status="published", kind="page",
                      allow_indexing=False),
            make_post(tenant, title="Draft page", slug="draft-page", kind="page")]


@pytest.mark.parametrize("path", ["/feeds/rss.xml", "/feeds/atom.xml", "/feeds/category/travel/rss.xml"])
def test_a_feed_never_lists_a_page(site, pages, path):  # noqa: F811
    titles = [entry.title for entry in parsed(fetch(site["tenant"], path)).entries]
    assert titles and not {"About us", "Hidden page", "Draft page"} & set(titles)


def test_the_sitemap_names_the_public_indexable_pages_at_the_websites_root(site, pages):  # noqa: F811
    reply = fetch(site["tenant"], "/sitemap.xml")
    assert reply.status_code == 200
    SITEMAP.validate(reply.content)
    body = reply.content.decode()
    assert "<loc>https://acme.example/about</loc>" in body  # the posts' template is /blog/{slug}
    assert "<loc>https://acme.example/blog/newest-trip</loc>" in body
    assert "hidden-page" not in body and "draft-page" not in body
    assert body.count("<url>") == 4  # three public posts and the page


def test_a_translated_page_names_its_translations_in_the_sitemap(site, pages):  # noqa: F811
    tenant = site["tenant"]
    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr"])
    french = make_post(tenant, title="À propos", slug="a-propos", status="published", kind="page", language="fr",
                       translation_group=pages[0].translation_group, published_at=timezone.now())
    assert french.kind == "page"
    body = fetch(tenant, "/sitemap.xml").content.decode()
    assert "<loc>https://acme.example/fr/a-propos</loc>" in body
    assert 'hreflang="fr" href="https://acme.example/fr/a-propos"' in body
    assert 'hreflang="x-default" href="https://acme.example/about"' in body
