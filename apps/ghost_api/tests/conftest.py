"""Ghost-compatible API fixtures: a company with published and unpublished content, and a caller
that sends its Ghost content key as Ghost's clients do (?key=)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.content.tests.conftest import make_category, make_tag
from apps.content.tests.factories import make_post
from apps.core import ratelimit, redis_conn
from apps.core.testing import Api, create_user

GHOST = "/ghost/api/content/"


@pytest.fixture(autouse=True)
def _fresh_redis_state():
    redis_conn.reset()
    yield
    redis_conn.reset()
    ratelimit._limiter.cache_clear()


class Ghost:
    """GET /ghost/api/content/<path> on a company's host with a key (the company's Ghost key by default)."""

    def __init__(self, tenant, key: str | None = None) -> None:
        self.tenant = tenant
        self.key = tenant.ghost_content_key if key is None else key
        self.api = Api(tenant)

    def get(self, path: str, params: dict | None = None, *, key: str | None = None, **headers):
        data = dict(params or {})
        key = self.key if key is None else key
        if key:
            data["key"] = key
        return self.api.get(GHOST + path, data=data, **headers)  # HTTP_* names, as Django's test client takes them


@pytest.fixture
def ghost(tenant):
    return Ghost(tenant)


@pytest.fixture
def blog(tenant):
    """Five published posts (news: 3, two with the tag `photo`), one draft, one archived post, by
    two authors; a category and a tag that share the slug `shared`."""
    now = timezone.now().replace(microsecond=0)
    alice = create_user(tenant, "editor", username="Alice Writer")
    bob = create_user(tenant, "author", username="bob")
    news = make_category(tenant, "News", "news", description="What happened")
    shared_category = make_category(tenant, "Shared", "shared")
    photo = make_tag(tenant, "Photo", "photo")
    video = make_tag(tenant, "Video", "video")
    shared_tag = make_tag(tenant, "Shared tag", "shared")
    posts = {}
    for n, (slug, author, categories, tags) in enumerate([
        ("first", alice, [news], [photo]),
        ("second", alice, [news], [photo, video]),
        ("third", bob, [news], []),
        ("fourth", bob, [], [video, shared_tag]),
        ("fifth", alice, [shared_category], [shared_tag]),
    ]):
        posts[slug] = make_post(tenant, slug.title() + " post", slug=slug, status="published", author=author,
                                categories=categories, tags=tags, content=f"<p>The {slug} post has words.</p>",
                                excerpt="" if slug == "first" else f"About {slug}",
                                published_at=now - timedelta(days=10 - n), created_at=now - timedelta(days=10 - n))
    posts["draft"] = make_post(tenant, "Draft post", slug="draft", status="draft", author=bob, categories=[news],
                               tags=[photo])
    posts["archived"] = make_post(tenant, "Archived post", slug="archived", status="archived", author=bob,
                                  tags=[photo])
    return {"posts": posts, "alice": alice, "bob": bob, "news": news, "photo": photo, "video": video}
