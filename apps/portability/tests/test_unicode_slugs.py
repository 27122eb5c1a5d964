"""Slugs in every script (docs/content.md#slugs): WordPress's percent-encoded slugs come over as
their letters, a post without a slug gets one from its title in its script, the old encoded
addresses and their decoded form redirect, and the public API and the dashboard find a post by its
slug percent-encoded or not."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.core import testing
from apps.portability.tests.test_import_samples import run, upload_bytes

ARABIC = "عربی"
ENCODED = "%d8%b9%d8%b1%d8%a8%db%8c"  # as WordPress writes it in wp:post_name and the link
HINDI = "हिन्दी भाषा"


def item(post_id: int, title: str, slug: str, *, status: str = "publish", link: str = "") -> str:
    return f"""<item><title>{title}</title><link>{link}</link><dc:creator>admin</dc:creator>
<guid isPermaLink="false">https://old.example/?p={post_id}</guid>
<content:encoded><![CDATA[<p>{title}</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>{post_id}</wp:post_id><wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt>
<wp:post_name>{slug}</wp:post_name><wp:status>{status}</wp:status><wp:post_type>post</wp:post_type>
<category domain="category" nicename="%d8%ae%d8%a8%d8%b1"><![CDATA[خبر]]></category>
<category domain="post_tag" nicename="%e0%a4%b9%e0%a4%bf%e0%a4%a8%e0%a5%8d%e0%a4%a6%e0%a5%80"><![CDATA[हिन्दी]]></category>
</item>"""


def wxr(items: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
 xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Old</title><link>https://old.example</link>
<wp:wxr_version>1.2</wp:wxr_version><wp:base_blog_url>https://old.example</wp:base_blog_url>
<wp:author><wp:author_login>admin</wp:author_login><wp:author_email>admin@old.example</wp:author_email></wp:author>
{items}</channel></rss>""".encode()


def site(tenant):
    return testing.Api(tenant, headers={"x-api-key": tenant.api_key})


@pytest.fixture
def imported(tenant, api):
    data = wxr(item(1, "Arabic title", ENCODED, link=f"https://old.example/2020/01/{ENCODED}/")
               + item(2, HINDI, "", status="draft") + item(3, HINDI, "", status="draft")
               + item(4, "سلام دنیا", "", status="draft"))
    job = upload_bytes(api, data, "export.xml").json()["job"]
    run(tenant, job["id"])
    assert api.get(f"/api/imports/{job['id']}").json()["job"]["status"] == "completed"
    return job


@pytest.mark.django_db
def test_percent_encoded_slugs_come_over_as_their_letters(tenant, imported):
    with schema_context(tenant.schema_name):
        slugs = dict(Post.objects.values_list("title", "slug"))
        assert slugs["Arabic title"] == ARABIC
        assert Category.objects.filter(slug="خبر").exists() and Tag.objects.filter(slug="हिन्दी").exists()
        # drafts without a slug: one from the title, in its script (not post, post-2)
        assert sorted(Post.objects.filter(title=HINDI).values_list("slug", flat=True)) == [
            "हिन्दी-भाषा", "हिन्दी-भाषा-2"]
        assert slugs["سلام دنیا"] == "سلام-دنیا"
    assert imported["plan"]["conflicts"] == [{"kind": "post", "item": HINDI,
                                              "reason": "the slug हिन्दी-भाषा is taken: a suffix is added"}]


@pytest.mark.django_db
def test_the_old_encoded_address_and_its_decoded_form_redirect(tenant, imported):
    redirects = {r["oldPath"]: r["slug"] for r in site(tenant).get("/api/v1/redirects").json()["data"]["redirects"]}
    assert redirects[f"/2020/01/{ENCODED}/"] == ARABIC  # as WordPress wrote it
    assert redirects[f"/2020/01/{ENCODED.upper()}/"] == ARABIC  # as browsers send it
    assert redirects[f"/2020/01/{ARABIC}/"] == ARABIC  # as its letters
    assert redirects["/?p=1"] == ARABIC


@pytest.mark.django_db
@pytest.mark.parametrize("asked", [ARABIC, quote(ARABIC), ENCODED, quote(ENCODED)])
def test_the_public_api_finds_a_post_by_its_slug_encoded_or_not(tenant, imported, asked):
    reply = site(tenant).get(f"/api/v1/posts/slug/{asked}")
    assert reply.status_code == 200, reply.content
    assert reply.json()["data"]["post"]["slug"] == ARABIC


@pytest.mark.django_db
def test_the_editor_keeps_a_slug_in_another_script(tenant, api, imported):
    with schema_context(tenant.schema_name):
        post = Post.objects.get(slug=ARABIC)
    # Saving the post with its slug as the custom slug (as the editor sends it) keeps it.
    saved = api.put(f"/api/posts/{post.pk}", {"title": "Arabic title, edited", "customSlug": ARABIC})
    assert saved.status_code == 200, saved.content
    assert saved.json()["post"]["slug"] == ARABIC
    assert api.get(f"/api/posts/slug/{quote(ENCODED)}").json()["slug"] == ARABIC
