"""Make missing renditions (after an outage, or with --all after MEDIA_RENDITION_WIDTHS
changed), for every company or one.

    manage.py media_renditions [--schema t_acme] [--all] [--sync]
"""
from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import connection
from django_tenants.utils import get_tenant_model, tenant_context

from apps.core.task_queue import send_by_name
from apps.media.models import Media
from apps.media.services import RENDITIONS_TASK, media_renditions_make


class Command(BaseCommand):
    help = "Enqueue (or with --sync, make here) renditions that are missing."

    def add_arguments(self, parser):
        parser.add_argument("--schema", help="only this company's schema")
        parser.add_argument("--all", action="store_true", help="remake every rendition")
        parser.add_argument("--sync", action="store_true", help="make them in this process, not in a worker")

    def handle(self, *args, schema=None, all=False, sync=False, **options):  # noqa: A002

        tenants = get_tenant_model().objects.exclude(schema_name="public")
        if schema:
            tenants = tenants.filter(schema_name=schema)
        total = 0
        for tenant in tenants.order_by("schema_name"):
            with tenant_context(tenant):
                queryset = Media.objects.all() if all else Media.objects.filter(renditions={})
                for media_id in queryset.values_list("id", flat=True).iterator():
                    if sync:
                        media_renditions_make(media_id=str(media_id), force=all)
                    else:
                        send_by_name(RENDITIONS_TASK, args=[str(media_id)])
                    total += 1
        connection.set_schema_to_public()
        self.stdout.write(f"{'made' if sync else 'enqueued'} renditions of {total} media objects")
