"""Import a WordPress or Ghost export into one company, in this process (docs/import-export.md).

    manage.py import_blog FILE --schema t_acme [--dry-run] [--no-images] [--invite-authors] [--images ZIP]

--dry-run prints what would be created, updated and left out, and writes nothing. Otherwise the
import runs here with its progress printed, as the dashboard's job would (one import per company
at a time), and its report is printed; its CSV goes next to nothing (use the dashboard, or
--report FILE)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django_tenants.utils import get_tenant_model, tenant_context

from apps.core.errors import ApplicationError
from apps.portability import services
from apps.portability.fetch import fetch_image_bytes
from apps.portability.importer import blog_analyse
from apps.portability.models import ImportJob


class Command(BaseCommand):
    help = "Import a WordPress (WXR) or Ghost (JSON or zip) export into a company."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export file")
        parser.add_argument("--schema", required=True, help="the company's schema (t_acme)")
        parser.add_argument("--dry-run", action="store_true", help="print what would happen; write nothing")
        parser.add_argument("--no-images", action="store_true", help="do not download images")
        parser.add_argument("--images", help="the images archive: a zip of content/images or wp-content/uploads")
        parser.add_argument("--invite-authors", action="store_true",
                            help="email the accounts the import makes an invitation (else they wait, inactive)")
        parser.add_argument("--report", help="write the report as CSV to this file")

    def handle(self, *args, file, schema, dry_run=False, no_images=False, invite_authors=False, report=None,
               images=None, **options):
        tenant = get_tenant_model().objects.filter(schema_name=schema).first()
        if tenant is None or schema == "public":
            raise CommandError(f"No company has the schema {schema!r}")
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{file}: no such file")
        data = path.read_bytes()
        archive, archive_name = None, ""
        if images:
            if not Path(images).is_file():
                raise CommandError(f"{images}: no such file")
            archive, archive_name = Path(images).read_bytes(), Path(images).name
        try:
            with tenant_context(tenant):
                if dry_run:
                    plan = blog_analyse(services.parse_or_refuse(data, path.name, archive))
                    self.stdout.write(json.dumps(plan, indent=2, ensure_ascii=False))
                    return
                job = services.import_upload(actor=None, data=data, file_name=path.name, operator=True,
                                             images=archive, images_name=archive_name)
                services.import_start(actor=None, job_id=job.pk, download_images=not no_images,
                                      invite_authors=invite_authors, operator=True, in_background=False)
                job = services.import_run(job_id=str(job.pk), progress_to=self._progress,
                                          fetch=None if no_images else fetch_image_bytes)
                sys.stderr.write("\n")
                if job is None:
                    failed = ImportJob.objects.order_by("-created_at").first()
                    raise CommandError(f"The import failed: {failed.error if failed else 'unknown error'}")
                self.stdout.write(json.dumps(job.report["counts"], indent=2))
                if report:
                    Path(report).write_text(services.import_report_csv(job), encoding="utf-8")
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        finally:
            connection.set_schema_to_public()

    def _progress(self, phase: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        sys.stderr.write(f"\r{phase:<8} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
