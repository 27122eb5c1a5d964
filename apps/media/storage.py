"""Where media files live and how they are addressed.

Keys: `{schema}/media/{media id}/{safe name}.{ext}` for the stored original and
`{schema}/media/{media id}/renditions/{width}w.{ext}` for renditions. Every key starts with
the schema of the tenant that owns it; code here refuses keys of another schema.

URLs are absolute: on local disk `link` is the tenant's own host + MEDIA_URL + key (served at
/media by Django in development, by the web server in production); on S3 it is the bucket's
public URL of the object. `cdnUrl` is MEDIA_CDN_BASE_URL + key when a CDN is configured.
"""
from __future__ import annotations

import logging
import os
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.db import connection

from apps.core.text import slugify
from tenants.addresses import tenant_base_url
from tenants.models import Client

logger = logging.getLogger(__name__)

_PROBE = "__probe__"


def media_storage() -> Storage:
    return storages[settings.MEDIA_STORAGE_ALIAS]


def private_storage() -> Storage:
    """Where files that are never public live (uploaded imports, exports of a whole company):
    the media storage's place, keys under `{schema}/portability/`, but on S3 written as private
    objects (no public ACL, no public cache headers, signed URLs) and refused by the local media
    view (apps.core.files.serve_tenant_media). Read back only by the product (the signed download)."""
    storage = media_storage()
    if not hasattr(storage, "bucket_name"):
        return storage  # the local file system: the media view refuses the private keys
    found = getattr(storage, "private_twin", None)  # made once per media storage object
    if found is None:
        from storages.backends.s3 import S3Storage

        options = dict(settings.STORAGES[settings.MEDIA_STORAGE_ALIAS].get("OPTIONS", {}))
        options.update(default_acl="private", querystring_auth=True,
                       object_parameters={"CacheControl": "private, no-store"})
        found = storage.private_twin = S3Storage(**options)
    return found


def current_schema() -> str:
    """The tenant schema of this connection; media never lives in the public schema."""
    schema = connection.schema_name
    if not schema or schema == "public":
        raise RuntimeError("media operations need a tenant schema (use tenant_context/schema_context)")
    return schema


def media_prefix(schema: str, media_id: uuid.UUID | str) -> str:
    return f"{schema}/media/{media_id}/"


def safe_file_stem(file_name: str) -> str:
    stem = os.path.splitext(os.path.basename((file_name or "").replace("\\", "/")))[0]
    return slugify(stem)[:80].strip("-") or "image"


def original_key(schema: str, media_id: uuid.UUID | str, file_name: str, extension: str) -> str:
    return f"{media_prefix(schema, media_id)}{safe_file_stem(file_name)}.{extension}"


def rendition_key(schema: str, media_id: uuid.UUID | str, width: int, extension: str) -> str:
    return f"{media_prefix(schema, media_id)}renditions/{width}w.{extension}"


def media_keys(storage: Storage, prefix: str) -> list[str]:
    """Every key under `prefix` (ending with "/") in `storage`, sorted."""
    keys: list[str] = []
    try:
        directories, files = storage.listdir(prefix)
    except FileNotFoundError:
        return keys
    keys += [f"{prefix}{name}" for name in files]
    for directory in directories:
        keys += media_keys(storage, f"{prefix}{directory}/")
    return sorted(keys)


def check_owned(key: str, schema: str) -> None:
    if not key.startswith(f"{schema}/media/") or ".." in key.split("/"):
        raise PermissionError(f"storage key {key!r} is not in schema {schema!r}")


def save_bytes(key: str, data: bytes) -> str:
    check_owned(key, current_schema())
    saved = media_storage().save(key, ContentFile(data))
    if saved != key:  # the key is unique per upload; a rename would mean a collision
        media_storage().delete(saved)
        raise RuntimeError(f"storage renamed {key!r} to {saved!r}")
    return saved


def read_bytes(key: str) -> bytes:
    with media_storage().open(key, "rb") as handle:
        return handle.read()


def delete_keys(keys: list[str], prefix: str | None = None) -> None:
    """Delete the given keys and anything else left under `prefix` (a media object's folder).
    Raises on storage errors so callers can retry."""
    storage = media_storage()
    schema = (prefix or (keys[0] if keys else "")).split("/", 1)[0]
    for key in keys:
        check_owned(key, schema)
        storage.delete(key)
    if prefix:
        check_owned(prefix, schema)
        _delete_tree(storage, prefix.rstrip("/"))


def _delete_tree(storage: Storage, folder: str) -> None:
    try:
        directories, files = storage.listdir(folder)
    except FileNotFoundError:
        return
    for name in files:
        storage.delete(f"{folder}/{name}")
    for name in directories:
        _delete_tree(storage, f"{folder}/{name}")
    if isinstance(storage, FileSystemStorage):
        try:
            os.rmdir(storage.path(folder))
        except OSError:
            pass


def list_keys(folder: str) -> list[str]:
    """Every key under a folder (tests and operators)."""
    storage = media_storage()
    try:
        directories, files = storage.listdir(folder.rstrip("/"))
    except FileNotFoundError:
        return []
    keys = [f"{folder.rstrip('/')}/{name}" for name in files]
    for name in directories:
        keys += list_keys(f"{folder.rstrip('/')}/{name}")
    return sorted(keys)


@dataclass(frozen=True)
class MediaUrls:
    """Builds absolute URLs of keys; made once per response (no query per object)."""

    link_base: str
    cdn_base: str

    def link(self, key: str) -> str:
        return self.link_base + key

    def cdn(self, key: str) -> str:
        return self.cdn_base + key

    @classmethod
    def current(cls, schema: str | None = None) -> "MediaUrls":
        """The URL builder of the connection's company, or of the company of `schema`."""
        storage = media_storage()
        if isinstance(storage, FileSystemStorage):
            media_url = storage.base_url or settings.MEDIA_URL
            if media_url.startswith(("http://", "https://")):
                link_base = media_url
            else:
                link_base = tenant_base_url(_subdomain_of(schema or current_schema())) + media_url
        else:
            probe = storage.url(_PROBE)
            link_base = probe[: -len(_PROBE)]
        if not link_base.endswith("/"):
            link_base += "/"
        cdn_base = f"{settings.MEDIA_CDN_BASE_URL}/" if settings.MEDIA_CDN_BASE_URL else link_base
        return cls(link_base=link_base, cdn_base=cdn_base)


_subdomains: dict[str, str] = {}  # schema -> subdomain (neither changes for a company)


def _subdomain_of(schema: str) -> str:
    tenant = getattr(connection, "tenant", None)
    subdomain = getattr(tenant, "subdomain", None)
    if subdomain and tenant.schema_name == schema:
        return subdomain
    found = _subdomains.get(schema)
    if found:
        return found

    subdomain = Client.objects.filter(schema_name=schema).values_list("subdomain", flat=True).first()
    if not subdomain:
        raise RuntimeError(f"no tenant for schema {schema!r}")
    _subdomains[schema] = subdomain
    return subdomain
