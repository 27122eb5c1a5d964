"""Posts that are not public at their source never become public here (apps.portability.parsers.
RESTRICTED_AS, the one place that decides): a WordPress password-protected post, a Ghost post for
members, paid members or tiers comes over members-only (its status kept, its body for members:
docs/members.md); a WordPress private post comes over as a draft; each named in the dry run and in
the report (docs/import-export.md)."""
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
    assert _statuses(tenant)["club"] == ("published", False) and _statuses(tenant)["open"] == ("published", False)
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
