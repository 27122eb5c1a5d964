"""Stored text with characters XML 1.0 forbids (rows written before the input rule, or by other
means) never breaks a feed or the sitemap: every text field that reaches them is written through
the output rule (apps.core.text.xml_text), and a strict XML parser, a feed reader and the
sitemaps.org schema read the result. And the feeds follow the public API's gate."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

import feedparser
import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.content.models import Category, Post, Tag
from apps.content.tests.conftest import make_category, make_post, make_tag
from apps.core.testing import Api, tenant_admin
from apps.feeds.tests.test_feeds import SITEINDEX, SITEMAP, sitemap_locs
from apps.feeds.views import UNVERIFIED
from tenants.models import Client

# A vertical tab and a form feed (a word processor's line and page breaks: a space), other C0
# controls and the two non-characters of XML 1.0 (taken out).
BAD = "\x0bone\x01\x08 two\x1f\ufffe\uffff\x0cthree"
CLEAN = " one two three"
ENCODED = "%0Bone%01%08%20two%1F%EF%BF%BE%EF%BF%BF%0Cthree"  # BAD in a URI
WITH_EXCERPT_LINK = f"https://acme.example/blog/with-excerpt{ENCODED}{ENCODED}"  # the slug's, the template's
FROM_CONTENT_LINK = f"https://acme.example/blog/from-content{ENCODED}"
FEEDS = ["/feeds/rss.xml", "/feeds/atom.xml", "/feeds/category/travel/rss.xml", "/feeds/category/travel/atom.xml",
         "/feeds/tag/summer/rss.xml", "/feeds/tag/summer/atom.xml"]


@pytest.fixture
def old_rows(tenant):
    """Every text field that reaches a feed or the sitemap, holding forbidden characters, written
    straight into the database (no input rule on the way)."""
    author = tenant_admin(tenant)
    travel, summer = make_category(tenant, "Travel", "travel"), make_tag(tenant, "Summer", "summer")
    now = timezone.now()
    with_excerpt = make_post(tenant, title="Title", slug="with-excerpt", status="published", author=author,
                             categories=[travel], tags=[summer], published_at=now - timedelta(days=1))
    from_content = make_post(tenant, title="Other", slug="from-content", status="published", author=author,
                             categories=[travel], tags=[summer], published_at=now - timedelta(days=2))
    Client.objects.filter(pk=tenant.pk).update(name=f"Acme{BAD}", website_url=f"https://acme.example/{BAD}",
                                               post_url_template=f"https://acme.example/blog/{{slug}}{BAD}")
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=with_excerpt.pk).update(title=f"Title{BAD}", excerpt=f"Excerpt{BAD}",
                                                       slug=f"with-excerpt{BAD}")
        Post.objects.filter(pk=from_content.pk).update(title=f"Other{BAD}", excerpt="",
                                                       content=f"<p>Content{BAD}</p>")
        Category.objects.filter(pk=travel.pk).update(name=f"Travel{BAD}")
        Tag.objects.filter(pk=summer.pk).update(name=f"Summer{BAD}")
        User.objects.filter(pk=author.pk).update(username=f"author{BAD}")
    tenant.refresh_from_db()
    return tenant


def strict(response) -> ET.Element:
    """The document as a strict XML 1.0 parser (expat) reads it: an ill-formed one raises."""
    assert response.status_code == 200, response.content[:300]
    return ET.fromstring(response.content)


@pytest.mark.parametrize("path", FEEDS)
def test_stored_forbidden_characters_are_left_out_of_every_feed(old_rows, path):
    """Were a 500 (Django's UnserializableContentError) for every C0 control, and an ill-formed
    200 that every reader rejects for U+FFFE/U+FFFF."""
    response = Api(old_rows).get(path)
    strict(response)
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    if "/category/" in path:
        assert feed.feed.title == f"Acme{CLEAN}: Travel{CLEAN}"
    elif "/tag/" in path:
        assert feed.feed.title == f"Acme{CLEAN}: Summer{CLEAN}"
    else:
        assert feed.feed.title == f"Acme{CLEAN}"
    assert [entry.title for entry in feed.entries] == [f"Title{CLEAN}", f"Other{CLEAN}"]
    newest, oldest = feed.entries
    assert newest.summary == f"Excerpt{CLEAN}"
    assert oldest.summary == f"<p>Content{CLEAN}</p>"
    assert [tag.term for tag in newest.tags] == [f"Travel{CLEAN}"]
    assert newest.author == f"author{CLEAN}"
    # Links are URIs: a control character of a stored slug, template or website is percent-encoded.
    assert [entry.link for entry in feed.entries] == [WITH_EXCERPT_LINK, FROM_CONTENT_LINK]
    assert feed.feed.link == f"https://acme.example/{ENCODED}"


@pytest.mark.parametrize("character", ["\ufffe", "\uffff"])
@pytest.mark.parametrize("path", ["/feeds/rss.xml", "/feeds/atom.xml"])
def test_a_non_character_in_a_title_no_longer_makes_the_feed_ill_formed(tenant, path, character):
    """Django writes U+FFFE and U+FFFF as they are: a 200 that every XML parser rejects."""
    Client.objects.filter(pk=tenant.pk).update(website_url="https://acme.example")
    post = make_post(tenant, title="Title", slug="title", status="published", author=tenant_admin(tenant))
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post.pk).update(title=f"Ti{character}tle")
    feed = strict(Api(tenant).get(path))
    assert "Title" in list(feed.itertext())


def test_stored_forbidden_characters_are_left_out_of_the_sitemap(old_rows):
    response = Api(old_rows).get("/sitemap.xml")
    strict(response)
    assert sorted(sitemap_locs(response.content, SITEMAP)) == sorted([WITH_EXCERPT_LINK, FROM_CONTENT_LINK])


def test_stored_forbidden_characters_are_left_out_of_the_sitemap_index_and_its_pages(old_rows, settings):
    settings.SITEMAP_MAX_URLS = 1
    api = Api(old_rows)
    assert strict(api.get("/sitemap.xml")).tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
    assert len(sitemap_locs(api.get("/sitemap.xml").content, SITEINDEX)) == 2
    listed = []
    for n in (1, 2):
        strict(api.get(f"/sitemap-{n}.xml"))
        listed += sitemap_locs(api.get(f"/sitemap-{n}.xml").content, SITEMAP)
    assert sorted(listed) == sorted([WITH_EXCERPT_LINK, FROM_CONTENT_LINK])


# --- the gate: the same as the public content API's ------------------------------------------------
SYNDICATED = [*FEEDS, "/sitemap.xml"]


def test_an_unverified_company_syndicates_nothing_until_its_email_is_verified(make_tenant):
    """Its /api/v1 answered 403 `email_unverified` while its feeds and sitemap served its published
    posts: both follow Client.may_syndicate now, and answer 403 until the email is verified."""
    tenant = make_tenant(verified=False)
    Client.objects.filter(pk=tenant.pk).update(website_url="https://acme.example")
    travel, summer = make_category(tenant, "Travel", "travel"), make_tag(tenant, "Summer", "summer")
    make_post(tenant, title="Hello world", slug="hello-world", status="published", author=tenant_admin(tenant),
              categories=[travel], tags=[summer])
    tenant.refresh_from_db()
    visitor, site = Api(tenant), Api(tenant, headers={"x-api-key": tenant.api_key})

    api_reply = site.get("/api/v1/posts")
    assert api_reply.status_code == 403 and api_reply.json()["code"] == "email_unverified"
    for path in SYNDICATED:
        response = visitor.get(path)
        assert response.status_code == 403, path
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response.content.decode() == UNVERIFIED
    robots = visitor.get("/robots.txt").content.decode()
    assert "Sitemap:" not in robots and "Disallow: /\n" in robots

    tenant.email_verified_at = timezone.now()
    tenant.save(update_fields=["email_verified_at"])
    assert site.get("/api/v1/posts").status_code == 200
    for path in SYNDICATED:
        response = visitor.get(path)
        assert response.status_code == 200, path
        assert b"hello-world" in response.content
    assert "Sitemap:" in visitor.get("/robots.txt").content.decode()


def test_a_suspended_company_still_answers_its_feeds_404_and_its_api_403(make_tenant):
    tenant = make_tenant()
    Client.objects.filter(pk=tenant.pk).update(website_url="https://acme.example", status="suspended")
    assert Api(tenant).get("/feeds/rss.xml").status_code == 404
    assert Api(tenant, headers={"x-api-key": tenant.api_key}).get("/api/v1/posts").status_code == 403
