"""Nothing of a moved blog is dropped without a word: what the sanitiser takes out of a post is
listed per post (dry run and report), audio, video, embeds of the well-known hosts and figures
stay, titles and term names written HTML-escaped are decoded once, and what is not brought over
(attachments, comments, menus, custom fields, members) is counted with why
(docs/import-export.md)."""
from __future__ import annotations

import json

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category, Post
from apps.portability.parsers import parse_wxr
from apps.portability.tests.test_import_samples import WXR, run, upload_bytes
from apps.portability.tests.test_import_languages import HEAD

BODY = ('<p>Listen:</p><audio controls src="https://old.example/a.mp3"></audio>'
        '<iframe src="https://player.vimeo.com/video/76979871"></iframe>'
        '<iframe src="https://ads.example/frame"></iframe><script>track()</script>'
        '<figure><img src="https://old.example/b.jpg" alt="b"><figcaption>A bell</figcaption></figure>'
        '<blockquote>Quote<cite>Someone</cite></blockquote><font color="red">old</font>')


def wxr() -> bytes:
    return (HEAD + f"""<wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>cats-dogs</wp:category_nicename>
<wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[Cats &amp; Dogs]]></wp:cat_name></wp:category>
<item><title><![CDATA[Tom &amp; Jerry &#8211; the &quot;chase&quot;]]></title><link>https://old.example/tom/</link>
<dc:creator>admin</dc:creator><content:encoded><![CDATA[{BODY}]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>5</wp:post_id><wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt>
<wp:post_name>tom</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:postmeta><wp:meta_key>mood</wp:meta_key><wp:meta_value><![CDATA[happy]]></wp:meta_value></wp:postmeta>
<category domain="category" nicename="cats-dogs"><![CDATA[Cats &amp; Dogs]]></category>
<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_content><![CDATA[Nice]]></wp:comment_content></wp:comment>
</item></channel></rss>""").encode()


@pytest.mark.django_db
def test_what_the_sanitiser_removes_is_listed_per_post_and_media_stays(tenant, api):
    job = upload_bytes(api, wxr(), "export.xml").json()["job"]
    removed = ["font", "iframe (ads.example)", "script"]
    assert job["plan"]["contentRemoved"] == [{"kind": "post", "item": "Tom & Jerry – the \"chase\"",
                                             "removed": removed}]
    run(tenant, job["id"])
    report = api.get(f"/api/imports/{job['id']}").json()["job"]["report"]
    assert {"kind": "post", "item": "Tom & Jerry – the \"chase\"", "outcome": "content removed",
            "reason": "removed by the sanitiser: font, iframe (ads.example), script"} in report["items"]
    assert {(i["kind"], i["count"]) for i in report["notBroughtOver"]} == {("comment", 1), ("custom_field", 1)}
    with schema_context(tenant.schema_name):
        post = Post.objects.get(slug="tom")
        assert post.title == 'Tom & Jerry – the "chase"'  # decoded once
        assert Category.objects.get(slug="cats-dogs").name == "Cats & Dogs"
        for kept in ('<audio controls="" src="https://old.example/a.mp3"></audio>',
                     '<iframe src="https://player.vimeo.com/video/76979871"></iframe>',
                     "<figcaption>A bell</figcaption>", "<cite>Someone</cite>"):
            assert kept in post.content
        assert "ads.example" not in post.content and "track()" not in post.content


def test_the_samples_titles_are_decoded_once():
    blog = parse_wxr(WXR.read_bytes())
    titles = {post.title for post in blog.posts}
    assert "Markup: Title With Special Characters ~`!@#$%^&*()-_=+{}[]/\\;:'\"?,.>" in titles
    assert not [title for title in titles if "&amp;" in title or "&quot;" in title or "&#" in title]


@pytest.mark.django_db
def test_the_wordpress_sample_counts_what_is_not_brought_over_and_why(tenant, api):
    plan = upload_bytes(api, WXR.read_bytes(), WXR.name).json()["job"]["plan"]
    left = {item["kind"]: item for item in plan["notBroughtOver"]}
    assert {kind: item["count"] for kind, item in left.items()} == {
        "attachment": 37, "comment": 33, "nav_menu_item": 70, "custom_field": 3}
    assert "Settings, Site" in left["nav_menu_item"]["why"] and "no comments" in left["comment"]["why"]


def test_ghost_members_are_counted_as_not_brought_over():
    from apps.portability.parsers import parse_ghost_json

    blog = parse_ghost_json(json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": {
        "posts": [], "members": [{"id": "m1", "email": "a@b.example"}, {"id": "m2", "email": "c@d.example"}]}}]}).encode())
    assert blog.left_out == {"member": 2}
