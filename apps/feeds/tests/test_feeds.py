"""Feeds, sitemap and robots.txt of a company, as a feed reader and a crawler read them: valid
(feedparser, the sitemaps.org schema), complete, and never listing what is not public."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import feedparser
import pytest
import xmlschema
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_post, make_tag
from apps.core.testing import Api, tenant_admin
from tenants.models import Client

XSD = Path(__file__).parent / "xsd"
SITEMAP = xmlschema.XMLSchema(XSD / "sitemap.xsd")
SITEINDEX = xmlschema.XMLSchema(XSD / "siteindex.xsd")
TEMPLATE = "https://acme.example/blog/{slug}"


@pytest.fixture
def site(tenant):
    Client.objects.filter(pk=tenant.pk).update(website_url="https://acme.example", post_url_template=TEMPLATE)
    tenant.refresh_from_db()
    author = tenant_admin(tenant)
    travel, news = make_category(tenant, "Travel", "travel"), make_category(tenant, "News", "news")
    summer = make_tag(tenant, "Summer", "summer")
    now = timezone.now()
    public = [
        make_post(tenant, title="Oldest trip", slug="oldest-trip", status="published", author=author,
                  categories=[travel], tags=[summer], published_at=now - timedelta(days=3)),
        make_post(tenant, title="Company news & <updates>", slug="company-news", status="published", author=author,
                  categories=[news], published_at=now - timedelta(days=2)),
        make_post(tenant, title="Newest trip", slug="newest-trip", status="published", author=author,
                  categories=[travel], published_at=now - timedelta(days=1)),
    ]
    hidden = [
        make_post(tenant, title="A draft", slug="a-draft", author=author, categories=[travel], tags=[summer]),
        make_post(tenant, title="Archived", slug="archived", status="archived", author=author, categories=[travel]),
        make_post(tenant, title="Scheduled", slug="scheduled", author=author, categories=[travel], tags=[summer],
                  scheduled_publish_date=now + timedelta(days=1), publish_scheduled=True),
        make_post(tenant, title="Not for search engines", slug="noindex", status="published", author=author,
                  categories=[travel], tags=[summer], allow_indexing=False),
    ]
    return {"tenant": tenant, "public": public, "hidden": hidden}


def fetch(tenant, path, **headers):
    return Api(tenant).get(path, headers=headers)


def parsed(response):
    assert response.status_code == 200, response.content[:300]
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


@pytest.mark.parametrize("path, version", [("/feeds/rss.xml", "rss20"), ("/feeds/atom.xml", "atom10")])
def test_feeds_list_every_public_post_newest_first_with_website_links(site, path, version):
    response = fetch(site["tenant"], path)
    feed = parsed(response)
    assert feed.version == version
    assert feed.feed.title == site["tenant"].name
    assert [entry.title for entry in feed.entries] == ["Newest trip", "Company news & <updates>", "Oldest trip"]
    assert [entry.link for entry in feed.entries] == [TEMPLATE.format(slug=s)
                                                      for s in ("newest-trip", "company-news", "oldest-trip")]
    assert all(entry.get("published_parsed") or entry.get("updated_parsed") for entry in feed.entries)
    assert response["Content-Type"].startswith("application/rss+xml" if version == "rss20" else "application/atom+xml")


def test_category_and_tag_feeds_list_only_their_public_posts(site):
    tenant = site["tenant"]
    travel = parsed(fetch(tenant, "/feeds/category/travel/rss.xml"))
    assert [e.title for e in travel.entries] == ["Newest trip", "Oldest trip"]
    assert "Travel" in travel.feed.title
    summer = parsed(fetch(tenant, "/feeds/tag/summer/rss.xml"))
    assert [e.title for e in summer.entries] == ["Oldest trip"]
    assert parsed(fetch(tenant, "/feeds/tag/summer/atom.xml")).version == "atom10"
    assert fetch(tenant, "/feeds/category/no-such/rss.xml").status_code == 404


def sitemap_locs(document: bytes, schema) -> list[str]:
    schema.validate(document.decode())
    decoded = schema.to_dict(document.decode())
    return [entry["loc"] for entry in decoded.get("url", decoded.get("sitemap", []))]


def test_the_sitemap_is_valid_and_lists_exactly_the_public_indexable_posts(site):
    response = fetch(site["tenant"], "/sitemap.xml")
    assert response.status_code == 200 and response["Content-Type"] == "application/xml"
    assert sorted(sitemap_locs(response.content, SITEMAP)) == sorted(TEMPLATE.format(slug=p.slug)
                                                                     for p in site["public"])
    for post in site["hidden"]:
        assert post.slug.encode() not in response.content


def test_past_its_size_the_sitemap_becomes_an_index_of_valid_pages(site, settings):
    settings.SITEMAP_MAX_URLS = 2
    tenant = site["tenant"]
    index = fetch(tenant, "/sitemap.xml")
    pages = sitemap_locs(index.content, SITEINDEX)
    assert pages == [f"http://{tenant.subdomain}.testserver.local/sitemap-{n}.xml" for n in (1, 2)]
    listed = []
    for n in (1, 2):
        listed += sitemap_locs(fetch(tenant, f"/sitemap-{n}.xml").content, SITEMAP)
    assert sorted(listed) == sorted(TEMPLATE.format(slug=p.slug) for p in site["public"])
    assert fetch(tenant, "/sitemap-3.xml").status_code == 404


def test_robots_txt_points_at_the_sitemap_and_keeps_crawlers_off_the_dashboard(site):
    text = fetch(site["tenant"], "/robots.txt").content.decode()
    assert f"Sitemap: http://{site['tenant'].subdomain}.testserver.local/sitemap.xml" in text
    assert "Disallow: /\n" in text and "Allow: /feeds/" in text


def test_conditional_get_answers_304_until_content_changes(site, django_capture_on_commit_callbacks):
    from apps.content import services

    tenant = site["tenant"]
    first = fetch(tenant, "/feeds/rss.xml")
    assert first["ETag"] and first["Last-Modified"] and "max-age" in first["Cache-Control"]
    assert fetch(tenant, "/feeds/rss.xml", **{"If-None-Match": first["ETag"]}).status_code == 304
    assert fetch(tenant, "/feeds/rss.xml", **{"If-Modified-Since": first["Last-Modified"]}).status_code == 304
    with schema_context(tenant.schema_name), django_capture_on_commit_callbacks(execute=True):
        services.post_update(actor=tenant_admin(tenant), post=site["public"][0], title="Oldest trip, retold")
    after = fetch(tenant, "/feeds/rss.xml", **{"If-None-Match": first["ETag"]})
    assert after.status_code == 200
    assert "Oldest trip, retold" in [e.title for e in parsed(after).entries]


def test_settings_changes_show_at_once_and_feeds_can_be_switched_off(site):
    tenant = site["tenant"]
    assert parsed(fetch(tenant, "/feeds/rss.xml")).entries[0].link == TEMPLATE.format(slug="newest-trip")
    api = Api(tenant, user=tenant_admin(tenant))
    body = {"name": tenant.name, "contactName": tenant.contact_name, "contactEmail": tenant.contact_email}
    changed = api.put("/api/client/info", {**body, "postUrlTemplate": "https://news.acme.example/{slug}/"})
    assert changed.status_code == 200, changed.json()
    assert changed.json()["data"]["company"]["postUrlTemplate"] == "https://news.acme.example/{slug}/"
    assert parsed(fetch(tenant, "/feeds/rss.xml")).entries[0].link == "https://news.acme.example/newest-trip/"
    assert api.put("/api/client/info", {**body, "feedsEnabled": False}).status_code == 200
    for path in ("/feeds/rss.xml", "/feeds/atom.xml", "/sitemap.xml", "/feeds/tag/summer/rss.xml"):
        off = fetch(tenant, path)
        assert off.status_code == 404 and b"not enabled" in off.content
    assert "Sitemap:" not in fetch(tenant, "/robots.txt").content.decode()


@pytest.mark.parametrize("template, message", [
    ("https://acme.example/blog/", "Post URL template must be a web address containing {slug} once"),
    ("not a url {slug}", "Post URL template must be a web address containing {slug} once"),
])
def test_a_post_url_template_without_slug_or_not_a_url_is_refused(tenant, template, message):
    api = Api(tenant, user=tenant_admin(tenant))
    response = api.put("/api/client/info", {"name": "Acme", "contactName": "Jo Smith", "contactEmail": "jo@acme.com",
                                            "postUrlTemplate": template})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "postUrlTemplate"
    assert response.json()["message"].startswith(message)


def test_without_a_website_there_is_nothing_to_link_to(tenant):
    response = fetch(tenant, "/feeds/rss.xml")
    assert response.status_code == 404


def test_a_company_never_sees_another_ones_posts(site, other_tenant):
    Client.objects.filter(pk=other_tenant.pk).update(website_url="https://other.example")
    for path in ("/feeds/rss.xml", "/sitemap.xml", "/feeds/category/travel/rss.xml"):
        response = fetch(other_tenant, path)
        for post in site["public"]:
            assert post.slug.encode() not in response.content


def test_a_suspended_company_lists_nothing(site):
    Client.objects.filter(pk=site["tenant"].pk).update(status="suspended")
    assert fetch(site["tenant"], "/feeds/rss.xml").status_code == 404
