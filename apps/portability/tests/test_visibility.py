"""Posts that are not public at their source never become public here (apps.portability.parsers.
RESTRICTED_AS, the one place that decides): a WordPress password-protected post, a Ghost post for
members, paid members or tiers (or a Ghost 4 filter of tiers) comes over members-only, its status
kept, its body for members (docs/content.md#members-only-posts); a WordPress private post comes
over as a draft; each named in the dry run (`madeMembersOnly`, `madeDrafts`) and in the report
(docs/import-export.md). Our own export writes each post's visibility, and it comes back."""
from __future__ import annotations

import json

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.portability.tests.test_import_samples import run, upload_bytes


def wxr_item(post_id: int, slug: str, *, status: str = "publish", password: str = "") -> str:
    return f"""<item><title>{slug.title()}</title><link>https://old.example/{slug}/</link>
<dc:creator>admin</dc:creator><content:encoded><![CDATA[<p>Body of {slug}</p>]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>{post_id}</wp:post_id>
<wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt><wp:post_name>{slug}</wp:post_name>
<wp:status>{status}</wp:status><wp:post_type>post</wp:post_type><wp:post_password>{password}</wp:post_password>
</item>"""


def wxr(items: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
 xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Old</title><link>https://old.example</link>
<wp:wxr_version>1.2</wp:wxr_version><wp:base_blog_url>https://old.example</wp:base_blog_url>
<wp:author><wp:author_login>admin</wp:author_login><wp:author_email>admin@old.example</wp:author_email></wp:author>
{items}</channel></rss>""".encode()


def ghost(posts: list[dict]) -> bytes:
    rows = [{"id": f"p{n}", "title": slug.title(), "slug": slug, "html": f"<p>Body of {slug}</p>", "status": status,
             "type": "post", "visibility": visibility, "published_at": "2020-01-02T10:00:00.000Z"}
            for n, (slug, status, visibility) in enumerate(posts)]
    return json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": {"posts": rows}}]}).encode()


def imported(tenant, api, data: bytes, name: str) -> tuple[dict, dict]:
    reply = upload_bytes(api, data, name)
    assert reply.status_code == 201, reply.content
    job = reply.json()["job"]
    run(tenant, job["id"])
    done = api.get(f"/api/imports/{job['id']}").json()["job"]
    assert done["status"] == "completed", done["error"]
    return job["plan"], done["report"]


def _statuses(tenant) -> dict[str, tuple[str, bool]]:
    with schema_context(tenant.schema_name):
        return {slug: (status, scheduled) for slug, status, scheduled in
                Post.objects.values_list("slug", "status", "publish_scheduled")}


def _visibilities(tenant) -> dict[str, str]:
    with schema_context(tenant.schema_name):
        return dict(Post.objects.values_list("slug", "visibility"))


@pytest.mark.django_db
def test_wordpress_password_protected_posts_come_members_only_and_private_ones_as_drafts(tenant, api):
    plan, report = imported(tenant, api, wxr(
        wxr_item(1, "open") + wxr_item(2, "secret", status="private") + wxr_item(3, "locked", password="enter")
        + wxr_item(4, "locked-later", status="future", password="enter")), "export.xml")
    assert _statuses(tenant) == {"open": ("published", False), "secret": ("draft", False),
                                 "locked": ("published", False), "locked-later": ("draft", True)}
    assert _visibilities(tenant) == {"open": "public", "secret": "public", "locked": "members",
                                     "locked-later": "members"}
    assert {(i["item"], i["reason"]) for i in plan["madeDrafts"]} == {
        ("Secret", "private in the source: imported as a draft")}
    assert {(i["item"], i["reason"]) for i in plan["madeMembersOnly"]} == {
        ("Locked", "password-protected in the source: imported as members-only"),
        ("Locked-Later", "password-protected in the source: imported as members-only")}
    notes = {(i["item"], i["reason"]) for i in report["items"] if i["outcome"] == "made a draft"}
    assert notes == {(i["item"], i["reason"]) for i in plan["madeDrafts"]}
    notes = {(i["item"], i["reason"]) for i in report["items"] if i["outcome"] == "made members-only"}
    assert notes == {(i["item"], i["reason"]) for i in plan["madeMembersOnly"]}


@pytest.mark.django_db
@pytest.mark.parametrize("visibility", ["members", "paid", "tiers", "filter"])
def test_ghost_posts_for_members_paid_members_or_tiers_come_members_only(tenant, api, visibility):
    plan, report = imported(tenant, api, ghost([("open", "published", "public"), ("club", "published", visibility),
                                                ("club-later", "scheduled", visibility)]), "export.json")
    assert _statuses(tenant) == {"open": ("published", False), "club": ("published", False),
                                 "club-later": ("draft", True)}  # scheduled, as at the source
    assert _visibilities(tenant) == {"open": "public", "club": "members", "club-later": "members"}
    assert {(i["item"], i["reason"]) for i in report["items"] if i["outcome"] == "made members-only"} == {
        ("Club", "members-only in the source: imported as members-only"),
        ("Club-Later", "members-only in the source: imported as members-only")}
    assert len(plan["madeMembersOnly"]) == 2 and plan["madeDrafts"] == []


@pytest.mark.django_db
def test_the_wordpress_sample_password_protected_post_is_members_only(tenant, api):
    from apps.portability.tests.test_import_samples import WXR
    plan, report = imported(tenant, api, WXR.read_bytes(), WXR.name)
    with schema_context(tenant.schema_name):
        post = Post.objects.get(slug="template-password-protected")
        assert post.status == "published" and post.visibility == "members"
    assert [i["item"] for i in plan["madeMembersOnly"]] == ['Template: Password Protected (the password is "enter")']
    assert plan["madeDrafts"] == []


@pytest.mark.django_db
def test_a_ghost_post_without_a_visibility_is_public(tenant, api):
    rows = json.loads(ghost([("plain", "published", "public"), ("unset", "published", "public")]))
    rows["db"][0]["data"]["posts"][0]["visibility"] = None
    del rows["db"][0]["data"]["posts"][1]["visibility"]
    plan, _ = imported(tenant, api, json.dumps(rows).encode(), "export.json")
    assert _visibilities(tenant) == {"plain": "public", "unset": "public"} and plan["madeMembersOnly"] == []


@pytest.mark.django_db
def test_our_export_writes_the_visibility_and_it_comes_back(tenant, make_tenant, admin, api):
    import io
    import zipfile

    from apps.content.tests.factories import make_category, make_post
    from apps.core import testing
    from apps.portability.tests.test_export import _export

    news = make_category(tenant, "News", slug="news")
    make_post(tenant, "Club", slug="club", status="published", author=admin, categories=[news], visibility="members")
    make_post(tenant, "Open", slug="open", status="published", author=admin, categories=[news])
    _, data = _export(tenant, api)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        document = json.loads(archive.read("export.json"))["db"][0]["data"]
    assert {row["slug"]: row["visibility"] for row in document["posts"]} == {"club": "members", "open": "public"}

    other = make_tenant()
    plan, _ = imported(other, testing.Api(other, user=testing.tenant_admin(other)), data, "export.zip")
    assert _visibilities(other) == {"club": "members", "open": "public"}
    assert _statuses(other) == {"club": ("published", False), "open": ("published", False)}
    assert [i["item"] for i in plan["madeMembersOnly"]] == ["Club"]
