"""GET /api/v1/settings on the wire (docs/api/public.md): the public content API's reply of the site
settings, apart from the dashboard's (apps.site.schemas, which re-exports these) so that a content
web process does not build those."""
from __future__ import annotations

from typing import Literal

from apps.core.schemas import OutSchema, SuccessOut


class NavigationLinkOut(OutSchema):
    label: str
    url: str  # an http(s) address, or a path of the site starting with "/"


class SocialAccountsOut(OutSchema):
    """The address of each social profile (null when not set)."""

    facebook: str | None
    twitter: str | None  # X
    instagram: str | None
    linkedin: str | None
    youtube: str | None
    tiktok: str | None
    threads: str | None
    bluesky: str | None
    mastodon: str | None


class PublicSettingsOut(OutSchema):
    """The company's site settings, for the website built on the API."""

    title: str  # the site's title, else the company's name
    description: str
    logo: str | None  # absolute addresses
    icon: str | None
    coverImage: str | None
    accentColor: str | None  # #rrggbb
    language: str  # the default language (BCP 47)
    languages: list[str]  # every language the company writes in, the default among them
    timeZone: str  # IANA name
    url: str  # the company's website ("" when not set)
    postUrlTemplate: str  # where a post lives on it, e.g. https://acme.com/blog/{slug} ("" when not set)
    navigation: list[NavigationLinkOut]
    secondaryNavigation: list[NavigationLinkOut]
    social: SocialAccountsOut
    metaTitle: str
    metaDescription: str


class PublicSettingsData(OutSchema):
    settings: PublicSettingsOut


class PublicSettingsReply(SuccessOut):
    """GET /api/v1/settings"""

    message: Literal["Settings retrieved successfully"]
    data: PublicSettingsData
