"""Writes of a company's site settings: an admin's (`site_settings_update`, the dashboard's PUT
/api/client/site) and an import's (`site_settings_fill`: only the settings still empty).

Each write is one CompanyChanged event ("settings", what changed named in its summary): the audit
log records it and the company's content version moves on (apps.core.subscribers), so the public
replies that show the settings (GET /api/v1/settings, Ghost's settings and every cached reply of
the company) are built again and the cache tier in front is purged.
"""
from __future__ import annotations

from django.db import transaction

from apps.core import events
from apps.core.errors import ValidationFailed
from apps.site import rules
from apps.site.selectors import IMAGE_FIELDS, media_ids_missing
from tenants.models import Client, SiteSettings

# The stored fields an update takes, and how they are named on the wire and for people.
FIELDS = {
    "title": ("title", "title"), "description": ("description", "description"),
    "meta_title": ("metaTitle", "meta title"), "meta_description": ("metaDescription", "meta description"),
    "logo": ("logo", "logo"), "icon": ("icon", "icon"), "cover_image": ("coverImage", "cover image"),
    "accent_color": ("accentColor", "accent color"), "navigation": ("navigation", "navigation"),
    "secondary_navigation": ("secondaryNavigation", "secondary navigation"),
}
CLIENT_FIELDS = {"website_url": ("websiteUrl", "website"),
                 "post_url_template": ("postUrlTemplate", "post URL template")}
IMAGE_NAMES = {"logo": "Logo", "icon": "Icon", "cover_image": "Cover image"}


def _locked(client) -> SiteSettings:
    SiteSettings.objects.bulk_create([SiteSettings(client_id=client.pk)], ignore_conflicts=True)
    return SiteSettings.objects.select_for_update().get(pk=client.pk)


def _check_images(values: dict) -> None:
    """Every media id given is an image of the company's library (400 naming the field)."""
    missing = media_ids_missing(values.get(field) or "" for field in IMAGE_FIELDS)
    errors = [{"field": FIELDS[field][0], "message": f"{IMAGE_NAMES[field]}: no such image in the media library"}
              for field in IMAGE_FIELDS if rules.media_id_of(values.get(field) or "") in missing]
    if errors:
        raise ValidationFailed(errors[0]["message"], errors=errors)


def _publish(client, changed: list[str], actor, *, how: str = "") -> None:
    if changed:
        names = [(FIELDS.get(field) or CLIENT_FIELDS.get(field) or (field, field))[1] for field in changed]
        events.publish(events.CompanyChanged(client=client, change="settings", actor=actor,
                                             summary=f"site{how}: {', '.join(names)}"[:500]))


@transaction.atomic
def site_settings_update(*, client: Client, actor=None, social: dict[str, str] | None = None,
                         website_url: str | None = None, post_url_template: str | None = None,
                         **values) -> SiteSettings:
    """Values cleaned by apps.site.rules (the schema's types); None leaves a value as it is. `social`:
    the networks given are set ("" clears one), the others kept."""
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown site settings: {', '.join(sorted(unknown))}")
    _check_images(values)
    row = _locked(client)
    changed = []
    for field, value in values.items():
        if value is not None and getattr(row, field) != value:
            setattr(row, field, value)
            changed.append(field)
    if social:
        merged = {network: address for network, address in {**(row.social or {}), **social}.items() if address}
        if merged != (row.social or {}):
            row.social = merged
            changed.append("social")
    if changed:
        row.save()
    client_changed = [field for field, value in (("website_url", website_url), ("post_url_template", post_url_template))
                      if value is not None and getattr(client, field) != value]
    if client_changed:
        for field in client_changed:
            setattr(client, field, website_url if field == "website_url" else post_url_template)
        client.save(update_fields=client_changed)
    _publish(client, changed + client_changed, actor)
    return row


# What an import may set, and the rule each value follows.
_FILL_RULES = {
    "title": lambda value: rules.clean_text(value, name="Site title", maximum=rules.TITLE_MAX),
    "description": lambda value: rules.clean_text(value, name="Site description", maximum=rules.DESCRIPTION_MAX),
    "meta_title": lambda value: rules.clean_text(value, name="Meta title", maximum=rules.META_TITLE_MAX),
    "meta_description": lambda value: rules.clean_text(value, name="Meta description",
                                                       maximum=rules.META_DESCRIPTION_MAX),
    "logo": lambda value: rules.clean_image(value, name="Logo"),
    "icon": lambda value: rules.clean_image(value, name="Icon"),
    "cover_image": lambda value: rules.clean_image(value, name="Cover image"),
    "accent_color": rules.clean_color,
    "navigation": lambda value: rules.clean_navigation(value, name="Navigation"),
    "secondary_navigation": lambda value: rules.clean_navigation(value, name="Secondary navigation"),
}


@transaction.atomic
def site_settings_fill(*, client: Client, values: dict, social: dict | None = None,
                       actor=None) -> tuple[list[str], list[tuple[str, str]]]:
    """An import's settings (docs/import-export.md): each value that follows its rule is set where
    the company has none yet (an admin's choice is never overwritten). Returns the fields set
    (social networks as `social.<network>`) and those refused with why."""
    row = _locked(client)
    refused: list[tuple[str, str]] = []
    changed: list[str] = []
    for field, value in values.items():
        rule = _FILL_RULES.get(field)
        if rule is None or value in (None, "", []):
            continue
        try:
            value = rule(value)
            if field in IMAGE_FIELDS and media_ids_missing([value]):
                raise ValueError(f"{IMAGE_NAMES[field]}: no such image in the media library")
        except ValueError as exc:
            refused.append((field, str(exc)))
            continue
        if value and not getattr(row, field):
            setattr(row, field, value)
            changed.append(field)
    accounts = dict(row.social or {})
    for network, value in (social or {}).items():
        if network not in rules.NETWORKS or not value or accounts.get(network):
            continue
        try:
            accounts[network] = rules.clean_social(network, value)
        except ValueError as exc:
            refused.append((f"social.{network}", str(exc)))
            continue
        changed.append(f"social.{network}")
    if changed:
        row.social = accounts
        row.save()
    _publish(client, changed, actor, how=" (imported)")
    return changed, refused
