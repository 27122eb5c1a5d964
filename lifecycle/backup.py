"""Per-company backup and restore.

A backup is a .tar.gz holding:
- manifest.json: the company's fields, its site settings, its schema, the migration digest, each
  table's columns and row count, the list of media files;
- data/<table>.copy: every row of every table of the schema, in PostgreSQL's COPY text format,
  read in one REPEATABLE READ transaction (a consistent snapshot);
- media/<key without the schema prefix>: every file the company has in media storage.

Restore loads it into a new company (new subdomain, new API keys) or back into the same one
(its rows and files are replaced). Django's foreign keys are DEFERRABLE INITIALLY DEFERRED, so
tables load in any order inside one transaction. Storage keys start with the schema name:
when the schema differs, `<old schema>/` becomes `<new schema>/` in the rows and the keys.
A backup taken at another migration state is refused: migrate first.
"""
from __future__ import annotations

import io
import json
import tarfile
from dataclasses import dataclass
from pathlib import Path

from django.core.files.base import ContentFile
from django.db import connection, transaction
from django_tenants.utils import quote_schema_name, schema_context

from apps.content.scheduling import schedule_settle
from apps.core import events
from apps.core.errors import Conflict, ValidationFailed
from apps.media.storage import media_keys, media_storage
from apps.plans import rules as plan_rules
from tenants.models import Client, Domain, SiteSettings
from lifecycle.provisioning import (applied_migrations_digest, schema_create_from_template, sequence_catch_up,
                                    template_current)
from tenants.addresses import tenant_host
from lifecycle.subdomains import schema_name_for, subdomain_check_available
from tenants.directory import directory_rebuild

FORMAT_VERSION = 1
# Not carried: the migration records (the schema is built from the template), tables kept by
# triggers from other tables (rebuilt by those triggers as the rows are loaded), and the
# integrations' keys (credentials, as the company's own keys: a restore into a new company must not
# answer to another company's keys; a restore in place keeps the integrations the company has).
SKIP_TABLES = {"django_migrations", "content_post_count", "content_category_count", "content_tag_count",
               "content_post_listing", "content_post_group", "integrations_integration"}


def _tables(schema: str) -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, array_agg(a.attname ORDER BY a.attnum) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') GROUP BY c.relname ORDER BY c.relname",
            [schema],
        )
        return {name: list(columns) for name, columns in cursor.fetchall() if name not in SKIP_TABLES}


def _columns_sql(columns: list[str]) -> str:
    return ", ".join('"%s"' % column.replace('"', '""') for column in columns)


def _add_bytes(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))


@dataclass
class BackupSummary:
    path: Path
    tables: int
    rows: int
    files: int


_SITE_FIELDS = ("title", "description", "meta_title", "meta_description", "logo", "icon", "cover_image",
                "accent_color", "social", "navigation", "secondary_navigation")


def _site_of(client: Client) -> dict | None:
    row = SiteSettings.objects.filter(client_id=client.pk).first()
    return None if row is None else {field: getattr(row, field) for field in _SITE_FIELDS}


def _site_restore(client: Client, site: dict | None) -> None:
    """The backed-up site settings (their media ids name media restored with the schema)."""
    if site is None:
        SiteSettings.objects.filter(client_id=client.pk).delete()
    else:
        SiteSettings.objects.update_or_create(client_id=client.pk, defaults={
            field: site[field] for field in _SITE_FIELDS if field in site})


def tenant_backup(*, client: Client, path: Path) -> BackupSummary:
    schema = client.schema_name
    quoted = quote_schema_name(schema)
    manifest = {
        "format": FORMAT_VERSION,
        "company": {
            "name": client.name, "contactName": client.contact_name, "contactEmail": client.contact_email,
            "subdomain": client.subdomain, "status": client.status, "subscriptionPlan": client.subscription_plan,
            "trialEndsAt": client.trial_ends_at.isoformat() if client.trial_ends_at else None,
        },
        # The site settings (tenants.SiteSettings: kept beside the company, in the public schema);
        # null: none set. A backup without the key (older) leaves a restored company's as they are.
        "site": _site_of(client),
        "schema": schema,
        "migrations": applied_migrations_digest(schema),
        "tables": {},
        "files": [],
    }
    storage = media_storage()
    total_rows = 0
    with tarfile.open(path, "w:gz") as archive:
        outer = connection.in_atomic_block
        with transaction.atomic(), connection.cursor() as cursor:
            if not outer:  # a consistent snapshot of every table
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            for table, columns in _tables(schema).items():
                buffer = io.BytesIO()
                with cursor.cursor.copy(f'COPY {quoted}."{table}" ({_columns_sql(columns)}) TO STDOUT') as copy:
                    for chunk in copy:
                        buffer.write(chunk)
                data = buffer.getvalue()
                rows = data.count(b"\n")
                total_rows += rows
                manifest["tables"][table] = {"columns": columns, "rows": rows}
                _add_bytes(archive, f"data/{table}.copy", data)
        for key in media_keys(storage, f"{schema}/"):
            with storage.open(key, "rb") as handle:
                _add_bytes(archive, "media/" + key[len(schema) + 1:], handle.read())
            manifest["files"].append(key[len(schema) + 1:])
        _add_bytes(archive, "manifest.json", json.dumps(manifest, indent=2).encode())
    return BackupSummary(path=path, tables=len(manifest["tables"]), rows=total_rows, files=len(manifest["files"]))


def _read(path: Path) -> tuple[dict, tarfile.TarFile]:
    archive = tarfile.open(path, "r:gz")
    member = archive.extractfile("manifest.json")
    if member is None:
        raise ValidationFailed("Not a company backup: manifest.json is missing")
    manifest = json.loads(member.read())
    if manifest.get("format") != FORMAT_VERSION:
        raise ValidationFailed(f"Unsupported backup format {manifest.get('format')!r}")
    return manifest, archive


def tenant_restore(*, path: Path, subdomain: str | None = None, replace: bool = False) -> Client:
    """Restore into `subdomain` (default: the backed-up one). An existing company is
    replaced only with replace=True; otherwise a new company is created."""
    manifest, archive = _read(Path(path))
    template = template_current()
    if manifest["migrations"] != template.migrations_digest:
        raise ValidationFailed("The backup was taken at another migration state: migrate both sides to the same "
                               "release first")
    company = manifest["company"]
    subdomain = subdomain or company["subdomain"]
    old_schema = manifest["schema"]
    existing = Client.objects.filter(subdomain=subdomain).first()
    if existing is not None and not replace:
        raise Conflict(f"A company with subdomain {subdomain!r} exists: pass replace to overwrite it")

    with archive, transaction.atomic():
        if existing is None:
            subdomain_check_available(subdomain)
            client = Client(
                schema_name=schema_name_for(subdomain), subdomain=subdomain, name=company["name"],
                contact_name=company["contactName"], contact_email=company["contactEmail"],
                status=company["status"], subscription_plan=company["subscriptionPlan"],
                trial_ends_at=company["trialEndsAt"], migrations_digest=template.migrations_digest,
            )
            client.save()
            Domain.objects.create(domain=tenant_host(subdomain), tenant=client, is_primary=True)
            schema_create_from_template(client.schema_name, template)
        else:
            client = existing
        schema = client.schema_name
        quoted = quote_schema_name(schema)
        current = _tables(schema)
        with connection.cursor() as cursor:
            if existing is not None and current:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # fire pending checks before TRUNCATE
                cursor.execute("TRUNCATE " + ", ".join(f'{quoted}."{t}"' for t in current) + " CASCADE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for table, info in manifest["tables"].items():
                if table not in current:
                    raise ValidationFailed(f"The backup has a table this release does not have: {table}")
                data = archive.extractfile(f"data/{table}.copy").read()
                if old_schema != schema:
                    data = data.replace(f"{old_schema}/".encode(), f"{schema}/".encode())
                with cursor.cursor.copy(f'COPY {quoted}."{table}" ({_columns_sql(info["columns"])}) FROM STDIN') as copy:
                    copy.write(data)
            cursor.execute(
                "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND a.attidentity <> ''",
                [schema],
            )
            for table, column in cursor.fetchall():
                sequence_catch_up(cursor, f'{quoted}."{table}"', column)
        files = {name: archive.extractfile(f"media/{name}").read() for name in manifest["files"]}
        directory_rebuild(subdomains=[client.subdomain])  # its users, restored behind the services' back
        if "site" in manifest:
            _site_restore(client, manifest["site"])

    storage = media_storage()
    with schema_context(client.schema_name):
        if existing is not None:
            for key in media_keys(storage, f"{client.schema_name}/"):
                storage.delete(key)
        for name, data in files.items():
            key = f"{client.schema_name}/{name}"
            if storage.exists(key):
                storage.delete(key)
            storage.save(key, ContentFile(data))
        # Its plan counters (posts, seats, media...) count what the backup holds, not what was
        # there before: the rows came back behind the services' back.
        for what in plan_rules.COUNTED:
            with transaction.atomic():
                plan_rules.plan_recount(client, what)
        schedule_settle()  # its scheduled posts, restored behind the services' back, in the index
    events.publish(events.CompanyChanged(client=client, change="restored"))  # its cached replies go
    return client
