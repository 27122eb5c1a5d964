"""Seed the Wagtail anchor's blog: a blog index under the default site's home page and N published
BlogPages under it, the posts of bench/public_api_data.py (the product's benchmark posts): the same
titles, slugs, ~2 KB HTML bodies (with their `topic<n % 500>` words), intros as the product's
excerpts, 2 of 20 categories and 3 of 50 tags each, and 15 posts in all that mention "zephyr",
from the same random sequence, so both sides serve the same content. That module imports the
product's models, which this virtualenv has not: the text comes from bench/post_text.py, which
both import, and the rest of the sequence is mirrored below, step for step.

Wagtail's own way in, `parent.add_child(instance=page)` then a revision published, takes a
locked parent, several queries and a revision per page: tens of minutes for 10,000. Here the rows
are written as Wagtail's tree keeps them, in bulk: each page's materialised path (treebeard's
MP_Node: the parent's path and a 4-character base-36 step), its depth, the parent's numchild,
url_path (the parent's and the slug), live and first/last published times, a translation key and
the default locale; the Page rows with bulk_create, the BlogPage rows (multi-table inheritance,
which bulk_create refuses) with one INSERT per batch, the tag and category links in bulk. Then
Wagtail's own `update_index` builds the search index entries (PostgreSQL tsvectors) from the
pages as Wagtail's search backend reads them. Pages published this way have no revision: the API
and the site read the page rows, not revisions (editing one in the admin starts its first).

Usage: manage.py seed_blog --pages 10000 (on an empty, migrated database; bench/wagtail_anchor.py
drops and creates it when its pages are not the ones asked for).
"""
from __future__ import annotations

import random
import time
import uuid

from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone
from taggit.models import Tag
from wagtail.models import Locale, Page

from blog.models import BlogCategory, BlogIndexPage, BlogPage, BlogPageTag

from post_text import WORDS, html_body, zephyr_posts  # bench/post_text.py (bench/ is on PYTHONPATH): the product's text

IMAGES = 50  # the product's posts draw a featured image each from 50: drawn here too, to keep the sequence


class Command(BaseCommand):
    help = "Seed N published blog pages (the product benchmark's posts), in bulk, then update_index."

    def add_arguments(self, parser):
        parser.add_argument("--pages", type=int, required=True)

    def handle(self, *args, pages: int, **options):
        if BlogPage.objects.exists():
            raise CommandError("the blog already has pages: seed an empty, migrated database")
        started = time.perf_counter()
        with transaction.atomic():
            self.seed(pages)
        seeded = time.perf_counter() - started
        call_command("update_index", verbosity=0)
        with connection.cursor() as cursor:
            for table in ("wagtailcore_page", "blog_blogpage", "blog_blogpagetag", "blog_blogpage_categories",
                          "taggit_tag", "blog_blogcategory"):
                cursor.execute(f"VACUUM ANALYZE {table}")
            cursor.execute("SELECT tablename FROM pg_tables WHERE tablename LIKE %s", ["%indexentry"])
            for (table,) in cursor.fetchall():
                cursor.execute(f"VACUUM ANALYZE {table}")
        self.stdout.write(f"seeded {pages:,} blog pages in {seeded:.1f} s, search index in "
                          f"{time.perf_counter() - started - seeded:.1f} s")

    def seed(self, pages: int) -> None:
        home = Page.objects.get(depth=2)  # the default site's root page, made by Wagtail's migrations
        blog = home.add_child(instance=BlogIndexPage(title="Blog", slug="blog"))
        page_type = ContentType.objects.get_for_model(BlogPage)
        locale = Locale.get_default()
        categories = BlogCategory.objects.bulk_create(
            [BlogCategory(name=f"Category {i}", slug=f"category-{i}") for i in range(20)])
        tags = Tag.objects.bulk_create([Tag(name=f"Tag {i}", slug=f"tag-{i}") for i in range(50)])
        links = BlogPage.categories.through
        columns = ", ".join(BlogPage._meta.get_field(name).column for name in ("page_ptr", "date", "intro", "body"))
        now = timezone.now()
        zephyr = zephyr_posts(pages)
        rng = random.Random(0)  # bench/public_api_data.seed(first=0)
        for start in range(0, pages, 1000):
            rows, details = [], []
            for n in range(start, min(start + 1000, pages)):
                title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {n}"
                body = html_body(rng, n)
                if n in zephyr:
                    body += "<p>zephyr</p>"
                rng.choice(range(IMAGES))  # the product's featured image
                slug = f"post-{n}"
                rows.append(Page(
                    title=title, draft_title=title, slug=slug, content_type=page_type, locale=locale,
                    translation_key=uuid.uuid4(), live=True, has_unpublished_changes=False,
                    first_published_at=now, last_published_at=now,
                    path=BlogPage._get_path(blog.path, blog.depth + 1, n + 1), depth=blog.depth + 1, numchild=0,
                    url_path=f"{blog.url_path}{slug}/"))
                details.append((now.date(), body[3:160], body))
            created = Page.objects.bulk_create(rows)
            with connection.cursor() as cursor:
                cursor.executemany(f"INSERT INTO {BlogPage._meta.db_table} ({columns}) VALUES (%s, %s, %s, %s)",
                                   [(page.pk, *row) for page, row in zip(created, details, strict=True)])
            links.objects.bulk_create([links(blogpage_id=page.pk, blogcategory_id=category.pk)
                                       for page in created for category in rng.sample(categories, 2)])
            BlogPageTag.objects.bulk_create([BlogPageTag(content_object_id=page.pk, tag_id=tag.pk)
                                             for page in created for tag in rng.sample(tags, 3)])
        Page.objects.filter(pk=blog.pk).update(numchild=pages)
