"""Reads of a company's site settings (tenants.models.SiteSettings): as the public content API
serves them (`public_settings`), as the dashboard shows them (`dashboard_settings`), as the
Ghost-compatible API reads them (`site_view`).

Images are stored as a media id of the company's library or an address; they are served as
absolute addresses (the media's address behind MEDIA_CDN_BASE_URL, as every image of the public
API), resolved here in one query of the company's schema (run on the company's connection). A
media item deleted since is served as null.
"""
from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from apps.core import languages
from apps.media.models import Media
from apps.media.storage import MediaUrls
from apps.site.rules import NETWORKS, ghost_handle, media_id_of
from tenants.models import SiteSettings

IMAGE_FIELDS = ("logo", "icon", "cover_image")


def site_settings_row(client) -> SiteSettings:
    """The company's row, or an unsaved one with every value empty."""
    return SiteSettings.objects.filter(client_id=client.pk).first() or SiteSettings(client_id=client.pk)


def image_addresses(refs: Iterable[str]) -> dict[str, str | None]:
    """The absolute address of each image reference (media ids of the current company's library in
    one query; an address as it is; a media id not in the library: None)."""
    refs = [ref for ref in refs if ref]
    ids = {media_id_of(ref) for ref in refs} - {None}
    found_keys = Media.objects.filter(pk__in=ids).values_list("pk", "storage_key") if ids else []
    keys = {str(pk): key for pk, key in found_keys}
    urls = MediaUrls.current() if keys else None
    found = {}
    for ref in refs:
        media_id = media_id_of(ref)
        if media_id is None:
            found[ref] = ref
        else:
            found[ref] = urls.cdn(keys[media_id]) if media_id in keys else None
    return found


@dataclass(frozen=True)
class SiteView:
    """The settings with their images resolved and the company's own settings beside them."""

    row: SiteSettings
    client: object
    images: dict  # field -> absolute address or None
    language: str
    languages: tuple[str, ...]

    @property
    def title(self) -> str:
        """The site's title, the company's name while none is set."""
        return self.row.title or self.client.name

    def social(self, network: str) -> str | None:
        return (self.row.social or {}).get(network) or None

    def ghost_handle(self, network: str) -> str | None:
        return ghost_handle(network, self.social(network) or "")


def site_view(client) -> SiteView:
    row = site_settings_row(client)
    refs = {field: getattr(row, field) for field in IMAGE_FIELDS}
    found = image_addresses(refs.values())
    chosen = languages.of_client(client)
    return SiteView(row=row, client=client, images={field: found.get(ref) for field, ref in refs.items()},
                    language=chosen.default, languages=tuple(chosen.codes))


def public_settings(client) -> dict:
    """data.settings of GET /api/v1/settings (apps.site.public_schemas.PublicSettingsOut)."""
    view = site_view(client)
    row = view.row
    return {
        "title": view.title, "description": row.description, "logo": view.images["logo"],
        "icon": view.images["icon"], "coverImage": view.images["cover_image"],
        "accentColor": row.accent_color or None, "language": view.language, "languages": list(view.languages),
        "timeZone": client.time_zone or "UTC", "url": client.website_url, "postUrlTemplate": client.post_url_template,
        "navigation": list(row.navigation or []), "secondaryNavigation": list(row.secondary_navigation or []),
        "social": {network: view.social(network) for network in NETWORKS},
        "metaTitle": row.meta_title, "metaDescription": row.meta_description,
    }


def _image_out(ref: str, address: str | None) -> dict | None:
    if not ref:
        return None
    return {"mediaId": media_id_of(ref), "url": address}


def dashboard_settings(client) -> dict:
    """`site` of GET/PUT /api/client/site (apps.site.schemas.SiteSettingsOut): the values as stored
    (an empty title is empty: the public title is then the company's name), the images with their
    addresses."""
    view = site_view(client)
    row = view.row
    return {
        "title": row.title, "description": row.description, "metaTitle": row.meta_title,
        "metaDescription": row.meta_description,
        **{name: _image_out(getattr(row, field), view.images[field])
           for name, field in (("logo", "logo"), ("icon", "icon"), ("coverImage", "cover_image"))},
        "accentColor": row.accent_color, "navigation": list(row.navigation or []),
        "secondaryNavigation": list(row.secondary_navigation or []),
        "social": {network: (row.social or {}).get(network, "") for network in NETWORKS},
        "websiteUrl": client.website_url, "postUrlTemplate": client.post_url_template,
        "language": view.language, "timeZone": client.time_zone or "UTC", "updatedAt": row.updated_at,
    }


def media_ids_missing(refs: Iterable[str]) -> set[str]:
    """The media ids among `refs` that are not images of the current company's library."""
    ids = {media_id_of(ref) for ref in refs if ref} - {None}
    if not ids:
        return set()
    found = {str(pk) for pk in Media.objects.filter(pk__in=[uuid.UUID(i) for i in ids]).values_list("pk", flat=True)}
    return ids - found
