"""The demo seed hook fills an empty company with categories, tags and posts, once."""
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
        assert Category.objects.count() == 3 and Tag.objects.count() == 4 and Post.objects.count() == 3
        assert all(post.featured_image_id for post in Post.objects.all())
    posts = api.get("/api/posts", {"status": "published"}).json()["posts"]
    assert len(posts) == 2
    image = posts[0]["featuredImage"]
    assert image["link"].endswith(image["spacesKey"])
    assert (tmp_path / image["spacesKey"]).is_file()  # stored through the media app's storage
