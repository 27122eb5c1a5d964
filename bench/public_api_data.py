"""The posts of the public API benchmarks (bench/public_api.py, bench/profile_public_api.py):
published posts with ~2 KB HTML bodies, 2 categories, 3 tags and a featured image each, and 15
posts in all that mention "zephyr" (the rare search), whatever the total. Import after
django.setup()."""
from __future__ import annotations

import random

from django.db import DatabaseError, connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.core.content_version import content_version_bump
from apps.media.models import Media

from bench.post_text import WORDS, html_body  # the posts' text, shared with Wagtail's seeding


def seed(schema_name: str, first: int, last: int, *, zephyr: set[int]) -> None:
    """Published posts numbered first..last-1 in the company of `schema_name`; those in `zephyr`
    mention "zephyr"."""
    rng = random.Random(first)
    with schema_context(schema_name):
        categories = list(Category.objects.all()) or Category.objects.bulk_create(
            [Category(name=f"Category {i}", slug=f"category-{i}") for i in range(20)])
        tags = list(Tag.objects.all()) or Tag.objects.bulk_create(
            [Tag(name=f"Tag {i}", slug=f"tag-{i}") for i in range(50)])
        images = list(Media.objects.all()) or Media.objects.bulk_create(
            [Media(file_name=f"image-{i}.jpg", file_type="image/jpeg", file_size=1000, alt_text=f"Image {i}",
                   storage_key=f"{schema_name}/media/{i}/image.jpg") for i in range(50)])
        now = timezone.now()
        for start in range(first, last, 1000):
            batch = []
            for n in range(start, min(start + 1000, last)):
                title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {n}"
                body = html_body(rng, n)
                if n in zephyr:
                    body += "<p>zephyr</p>"
                batch.append(Post(title=title, slug=f"post-{n}", excerpt=body[3:160], content=body, status="published",
                                  published_at=now, author=None, featured_image=rng.choice(images)))
            created = Post.objects.bulk_create(batch)
            Post.categories.through.objects.bulk_create(
                [Post.categories.through(post_id=post.id, category_id=category.id)
                 for post in created for category in rng.sample(categories, 2)])
            Post.tags.through.objects.bulk_create(
                [Post.tags.through(post_id=post.id, tag_id=tag.id) for post in created for tag in rng.sample(tags, 3)])
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE content_post")
            cursor.execute("VACUUM ANALYZE content_post_categories")
            cursor.execute("VACUUM ANALYZE content_post_tags")
            # The load's dirty pages written now, not by a checkpoint during the rows measured next
            # (after 90,000 more posts the first row ran at 81 % of its rate at 10,000 posts; the same
            # row a minute later at 106-120 %). A role that may not (not a superuser) skips it.
            try:
                cursor.execute("CHECKPOINT")
            except DatabaseError:
                pass
        # As a write through the product does: replies and totals kept for the content before
        # (a search's total counted at 10,000 posts) are left behind.
        content_version_bump(schema_name)
    connection.set_schema_to_public()
