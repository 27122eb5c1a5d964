"""Export a company's blog to a zip (docs/import-export.md), in this process.

    manage.py export_blog --schema t_acme [--output acme.zip]

The zip is the one the dashboard's "Export" builds (export.json in Ghost's format and the media
files); it is also kept as an export of the company, so its download link works."""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django_tenants.utils import get_tenant_model, tenant_context

from apps.media.storage import private_storage
from apps.portability import services


class Command(BaseCommand):
    help = "Export a company's posts, terms, users (no passwords) and media to a zip."

    def add_arguments(self, parser):
        parser.add_argument("--schema", required=True, help="the company's schema (t_acme)")
        parser.add_argument("--output", help="write the zip here (default: <schema>-export.zip)")

    def handle(self, *args, schema, output=None, **options):
        tenant = get_tenant_model().objects.filter(schema_name=schema).first()
        if tenant is None or schema == "public":
            raise CommandError(f"No company has the schema {schema!r}")
        target = Path(output or f"{schema}-export.zip")
        try:
            with tenant_context(tenant):
                job = services.export_request(actor=None, operator=True, in_background=False)
                job = services.export_run(job_id=str(job.pk))
                if job is None:
                    raise CommandError("The export failed (see the log)")
                with private_storage().open(job.file_key, "rb") as handle:
                    target.write_bytes(handle.read())
                self.stdout.write(json.dumps({"file": str(target), "bytes": job.file_size, **job.counts}))
        finally:
            connection.set_schema_to_public()
