"""Demo content for the demo tenant (settings.DEMO_SEED_HOOKS; run by `manage.py seed_demo`
inside the tenant's schema): categories, tags, posts and an About page. Does nothing when the
tenant already has categories or posts."""
from __future__ import annotations

import io
import logging

from django.db import transaction

from apps.accounts.models import User
from apps.content import services
from apps.content.models import Category, Post
from apps.core.permissions import Role
from apps.media.services import media_create_from_bytes

logger = logging.getLogger(__name__)

CATEGORIES = [
    ("Engineering", "engineering", "How we build things"),
    ("Product", "product", "What we ship and why"),
    ("Company News", "company-news", "Announcements"),
]
TAGS = [("Python", "python"), ("Django", "django"), ("Release", "release"), ("Tutorial", "tutorial")]
POSTS = [
    {
        "title": "Welcome to your new blog",
        "excerpt": "A tour of the dashboard: posts, categories, tags, media and the public content API.",
        "content": "<h2>Welcome</h2><p>This post was created for you so the dashboard is not empty. "
                   "Edit it, or <strong>delete it</strong> when you are ready.</p>"
                   "<ul><li>Write posts with the rich-text editor</li><li>Organise them with categories "
                   "and tags</li><li>Read them from your website through the content API</li></ul>",
        "categories": ["company-news"], "tags": ["release"], "status": "published",
    },
    {
        "title": "Full-text search in PostgreSQL",
        "excerpt": "How the posts search matches words, prefixes and partial titles.",
        "content": "<p>Search matches every word of the query against titles and content, as prefixes, "
                   "and also finds partial titles.</p><pre><code>GET /api/search?q=postgres</code></pre>",
        "categories": ["engineering"], "tags": ["python", "django", "tutorial"], "status": "published",
    },
    {
        "title": "Roadmap for next quarter",
        "excerpt": "A draft of what comes next.",
        "content": "<p style=\"text-align:center\">This is a <em>draft</em>: only staff can see it.</p>",
        "categories": ["product"], "tags": [], "status": "draft",
    },
]
# Pages (apps.content.kinds): the site around the posts, no category needed.
PAGES = [
    {
        "title": "About",
        "slug": "about",
        "excerpt": "Who writes this blog, and how to reach us.",
        "content": "<h2>About us</h2><p>This page was created for you: pages hold what is not a post, such as "
                   "an About or a Contact page. Websites read them from <code>/api/v1/pages</code>.</p>",
        "status": "published",
    },
]


def _demo_image(author) -> str | None:
    """A generated PNG stored through the media app (its storage, key and renditions)."""
    try:
        from PIL import Image, ImageDraw

    except ImportError:  # the media app is older than this hook
        return None
    image = Image.new("RGB", (1200, 630), (37, 99, 235))
    draw = ImageDraw.Draw(image)
    for x in range(0, 1200, 60):
        draw.line([(x, 0), (x + 300, 630)], fill=(59, 130, 246), width=18)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    media = media_create_from_bytes(
        data=buffer.getvalue(), file_name="demo-cover.png", alt_text="Blue demo cover", uploaded_by=author
    )
    return str(media.id)


def seed_demo_content(client) -> None:
    if Category.objects.exists() or Post.objects.exists():
        logger.info("demo content: %s already has content; nothing to do", client.schema_name)
        return
    author = User.objects.filter(role=Role.ADMIN).order_by("created_at").first()
    if author is None:
        return
    with transaction.atomic():
        categories = {
            slug: services.category_create(name=name, slug=slug, description=description)
            for name, slug, description in CATEGORIES
        }
        tags = {slug: services.tag_create(name=name, slug=slug) for name, slug in TAGS}
    image_id = _demo_image(author)
    if image_id is None:
        logger.warning("demo content: no media service to store a featured image; posts not seeded")
        return
    with transaction.atomic():
        for post in POSTS:
            services.post_create(
                author=author,
                title=post["title"],
                content=post["content"],
                excerpt=post["excerpt"],
                status=post["status"],
                category_ids=[str(categories[slug].id) for slug in post["categories"]],
                tag_ids=[str(tags[slug].id) for slug in post["tags"]],
                featured_image_id=image_id,
                meta_title=post["title"],
                meta_description=post["excerpt"],
            )
        for page in PAGES:
            services.post_create(
                kind="page", author=author, title=page["title"], custom_slug=page["slug"], content=page["content"],
                excerpt=page["excerpt"], status=page["status"], category_ids=[], featured_image_id=image_id,
                meta_title=page["title"], meta_description=page["excerpt"],
            )
