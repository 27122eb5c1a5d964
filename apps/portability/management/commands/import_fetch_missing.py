"""Try again the images a company's imports could not bring (docs/import-export.md#images).

    manage.py import_fetch_missing --schema t_acme [--job ID] [--images uploads.zip]

Each one is downloaded from the old site (through the same guard as the import) or taken from
--images (a zip of content/images or wp-content/uploads), stored as media, and the posts naming it
rewritten; what still fails stays listed, with why."""
from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django_tenants.utils import get_tenant_model, tenant_context

from apps.core.errors import ApplicationError
from apps.portability import services
from apps.portability.fetch import fetch_image_bytes
from apps.portability.parsers import ParseFailed, parse_images_archive


class Command(BaseCommand):
    help = "Try again the images a company's imports could not bring."

    def add_arguments(self, parser):
        parser.add_argument("--schema", required=True, help="the company's schema (t_acme)")
        parser.add_argument("--job", help="only this import's images (its id)")
        parser.add_argument("--images", help="a zip of the old site's images folder to take them from")
        parser.add_argument("--no-download", action="store_true", help="only the --images archive, no downloads")

    def handle(self, *args, schema, job=None, images=None, no_download=False, **options):
        tenant = get_tenant_model().objects.filter(schema_name=schema).first()
        if tenant is None or schema == "public":
            raise CommandError(f"No company has the schema {schema!r}")
        files = None
        if images:
            try:
                files = parse_images_archive(Path(images).read_bytes(), max_bytes=settings.IMPORT_MAX_BYTES)
            except (OSError, ParseFailed) as exc:
                raise CommandError(f"{images}: {getattr(exc, 'message', exc)}") from exc
        try:
            with tenant_context(tenant):
                result = services.import_fetch_missing(job_id=job, fetch=None if no_download else fetch_image_bytes,
                                                       files=files)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        finally:
            connection.set_schema_to_public()
        self.stdout.write(json.dumps(result))
