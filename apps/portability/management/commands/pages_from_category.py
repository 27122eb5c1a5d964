"""Turn the pages earlier imports kept as posts of a "Pages" category into pages (docs/import-export.md),
for every company or one, and print how many per company.

    manage.py pages_from_category [--schema t_acme] [--slug pages] [--dry-run]

Before pages were a content kind of their own, an import put each WordPress or Ghost page in the
category "Pages" (slug `pages`). Each post of that category becomes a page (with its translations),
the category is taken off them and deleted once nothing else uses it
(apps.content.services.pages_from_category). A company without such a category is left as it is.
Running it again changes nothing."""
from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import connection
from django_tenants.utils import get_tenant_model, tenant_context

from apps.content import kinds
from apps.content.models import Category, Post
from apps.content.services import pages_from_category
from apps.portability.importer import PAGES_CATEGORY


class Command(BaseCommand):
    help = 'Make pages of the posts earlier imports put in the "Pages" category, per company.'

    def add_arguments(self, parser):
        parser.add_argument("--schema", help="only this company's schema")
        parser.add_argument("--slug", default=PAGES_CATEGORY[1], help="the category's slug (default: pages)")
        parser.add_argument("--dry-run", action="store_true", help="count them; change nothing")

    def handle(self, *args, schema=None, slug=PAGES_CATEGORY[1], dry_run=False, **options):
        tenants = get_tenant_model().objects.exclude(schema_name="public")
        if schema:
            tenants = tenants.filter(schema_name=schema)
        companies = total = 0
        try:
            for tenant in tenants.order_by("schema_name"):
                with tenant_context(tenant):
                    category = Category.objects.filter(slug=slug).first()
                    if category is None:
                        continue
                    if dry_run:
                        made = (Post.objects.filter(translation_group__in=category.posts.values("translation_group"))
                                .exclude(kind=kinds.PAGE.name).count())
                        deleted = False
                    else:
                        made = pages_from_category(category=category)
                        deleted = not Category.objects.filter(pk=category.pk).exists()
                companies += 1
                total += made
                verb = "would become" if dry_run else "became"
                note = f'; the category "{category.name}" was deleted' if deleted else ""
                self.stdout.write(f"{tenant.schema_name} ({tenant.subdomain}): {made} posts {verb} pages{note}")
        finally:
            connection.set_schema_to_public()
        self.stdout.write(f"{total} pages in {companies} companies")
