"""The demo seed hook fills an empty company with categories, tags, posts and a page, once."""
from __future__ import annotations

from django.conf import settings
from django_tenants.utils import tenant_context

from apps.content.models import Category, Post, Tag
from apps.content.seed import seed_demo_content


def test_seed_hook_is_registered():
    assert "apps.content.seed.seed_demo_content" in settings.DEMO_SEED_HOOKS


def test_seed_fills_an_empty_company_once(tenant, api, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    with tenant_context(tenant):
        seed_demo_content(tenant)
        seed_demo_content(tenant)  # second run: nothing added
        assert Category.objects.count() == 3 and Tag.objects.count() == 4
        assert Post.objects.filter(kind="post").count() == 3  # and an About page (apps.content.kinds)
        assert list(Post.objects.filter(kind="page").values_list("slug", "status")) == [("about", "published")]
        assert all(post.featured_image_id for post in Post.objects.all())
    posts = api.get("/api/posts", {"status": "published"}).json()["posts"]
    assert len(posts) == 2
    assert [page["title"] for page in api.get("/api/pages").json()["posts"]] == ["About"]
    image = posts[0]["featuredImage"]
    assert image["link"].endswith(image["spacesKey"])
    assert (tmp_path / image["spacesKey"]).is_file()  # stored through the media app's storage
