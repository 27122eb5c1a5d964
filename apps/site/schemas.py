"""The site settings on the wire: the dashboard's GET/PUT /api/client/site and the public content
API's GET /api/v1/settings (docs/company-settings.md#site-settings, docs/api/public.md). The public
reply's schemas are apps.site.public_schemas' (re-exported here), which a content web process imports
without these."""
from __future__ import annotations

from datetime import datetime

from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted, snake_case_fields
from apps.site import rules
from apps.site.public_schemas import (  # noqa: F401 - re-exported
    NavigationLinkOut, PublicSettingsData, PublicSettingsOut, PublicSettingsReply, SocialAccountsOut,
)


class SocialAccountsFormOut(OutSchema):
    """As stored: the address of each social profile ("" when not set)."""

    facebook: str
    twitter: str
    instagram: str
    linkedin: str
    youtube: str
    tiktok: str
    threads: str
    bluesky: str
    mastodon: str


assert set(SocialAccountsOut.model_fields) == set(rules.NETWORKS) == set(SocialAccountsFormOut.model_fields)


class SiteImageOut(OutSchema):
    """An image of the settings: a media item of the library (`mediaId`) or an address (mediaId
    null); `url` is its absolute address (null: the media item was deleted)."""

    mediaId: str | None
    url: str | None


class SiteSettingsIn(InSchema):
    """PUT /api/client/site: every field may be left out (kept as it is). Images are a media id of
    the library or an http(s) address ("" removes one); `social` sets the networks it names ("" clears
    one); navigations replace the whole list."""

    title: rules.SiteTitle = None
    description: rules.SiteDescription = None
    metaTitle: rules.MetaTitle = None
    metaDescription: rules.MetaDescription = None
    logo: rules.Logo = None
    icon: rules.Icon = None
    coverImage: rules.CoverImage = None
    accentColor: rules.AccentColor = None
    navigation: rules.Navigation = None
    secondaryNavigation: rules.SecondaryNavigation = None
    social: rules.SocialAccounts = None
    websiteUrl: rules.WebsiteUrl = None
    postUrlTemplate: rules.PostUrlTemplate = None

    def service_kwargs(self) -> dict:
        return snake_case_fields(self)


class SiteSettingsOut(OutSchema):
    title: str  # "" while unset: the public title is then the company's name
    description: str
    metaTitle: str
    metaDescription: str
    logo: SiteImageOut | None
    icon: SiteImageOut | None
    coverImage: SiteImageOut | None
    accentColor: str  # #rrggbb or ""
    navigation: list[NavigationLinkOut]
    secondaryNavigation: list[NavigationLinkOut]
    social: SocialAccountsFormOut
    websiteUrl: str
    postUrlTemplate: str
    language: str  # the company's default language (set with PUT /api/client/languages)
    timeZone: str  # set with PUT /api/client/info
    updatedAt: datetime | None


class SiteSettingsReply(SuccessOut):
    """GET and PUT /api/client/site"""

    message: str = omitted()
    site: SiteSettingsOut
