"""The rules of the site settings' and author profiles' values, each once (docs/company-settings.md,
docs/accounts.md#author-profile). Each `clean_*` takes what a client (or an import) sent and
returns the value as stored, or raises ValueError with the message a person reads; the Annotated
types below wrap them for the input schemas. None means "left out" where a type is optional.

- Text: trimmed, at most so many characters.
- Accent color: `#rrggbb` (stored in lower case), or empty.
- Navigation: at most NAVIGATION_MAX links, each a label (required, at most 100 characters) and an
  address: http(s), or a path of the site starting with `/` (never `//`, `javascript:` or any
  other scheme).
- Social accounts: for each network (NETWORKS) a handle (`acme`, `@acme`) or the address of a
  profile on that network; stored as the profile's https address. Ghost's `facebook` and
  `twitter` fields are handles, derived from it (`ghost_handle`).
- An image: a media id of the company's library, or an http(s) address (kept as given; an import
  brings addresses).
- The website and the post URL template of the company (its feeds, sitemap and post links).
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BeforeValidator

from apps.core.validation import clean_url, text

TITLE_MAX, DESCRIPTION_MAX = 200, 500
META_TITLE_MAX, META_DESCRIPTION_MAX = 300, 500
NAVIGATION_MAX, LABEL_MAX, LINK_MAX = 50, 100, 2000
IMAGE_MAX = 2000
SOCIAL_MAX = 500
# The author profile (Ghost's column sizes: an export of them is taken by Ghost's importer).
DISPLAY_NAME_MAX, BIO_MAX, LOCATION_MAX, WEBSITE_MAX = 191, 250, 150, 2000

WEBSITE_MESSAGE = "Website must be a web address starting with http:// or https://"
TEMPLATE_MESSAGE = "Post URL template must be a web address containing {slug} once, e.g. https://acme.com/blog/{slug}"
COLOR_MESSAGE = "Accent color must be a hex color such as #ff6600"
NAVIGATION_MESSAGE = "{name} must be a list of links, each with a label and a url"


def clean_text(value, *, name: str, maximum: int) -> str:
    """Text of at most `maximum` characters, trimmed (None: empty)."""
    value = text(value, f"{name} must be text").strip()
    if len(value) > maximum:
        raise ValueError(f"{name} must be at most {maximum} characters")
    return value


# --- the company's website and post addresses ----------------------------------------------------------
def clean_website(value) -> str | None:
    if value is None:
        return None
    value = clean_url(value, WEBSITE_MESSAGE)
    if len(value) > 500:
        raise ValueError("Website must be at most 500 characters")
    return value


def clean_post_url_template(value) -> str | None:
    if value is None:
        return None
    value = text(value, TEMPLATE_MESSAGE).strip()
    if value:
        if value.count("{slug}") != 1 or len(value) > 500:
            raise ValueError(TEMPLATE_MESSAGE)
        clean_url(value.replace("{slug}", "x").replace("{locale}", "en"), TEMPLATE_MESSAGE)
    return value


# --- accent color ------------------------------------------------------------------------------------
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def clean_color(value) -> str:
    value = text(value, COLOR_MESSAGE).strip()
    if value and not _COLOR.fullmatch(value):
        raise ValueError(COLOR_MESSAGE)
    return value.lower()


# --- links ------------------------------------------------------------------------------------------
_UNSAFE_PATH = re.compile(r"[\s\\<>\"'`]|[\x00-\x1f\x7f]")


def clean_link(value, message: str) -> str:
    """An http(s) address, or a path of the site (`/about`, `/tag/news/?page=2#top`). A path never
    starts with `//` (another host) and holds no space, backslash, quote or angle bracket."""
    value = text(value, message).strip()
    if not value or len(value) > LINK_MAX:
        raise ValueError(message)
    if value.startswith("/"):
        if value.startswith("//") or _UNSAFE_PATH.search(value):
            raise ValueError(message)
        return value
    return clean_url(value, message)


def clean_navigation(value, *, name: str = "Navigation") -> list[dict] | None:
    """[{label, url}] in order (other keys dropped); None when left out."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError(NAVIGATION_MESSAGE.format(name=name))
    if len(value) > NAVIGATION_MAX:
        raise ValueError(f"{name} can have at most {NAVIGATION_MAX} links")
    links = []
    for n, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise ValueError(NAVIGATION_MESSAGE.format(name=name))
        label = text(item.get("label"), f"{name} link {n}: the label must be text").strip()
        if not label:
            raise ValueError(f"{name} link {n}: a label is required")
        if len(label) > LABEL_MAX:
            raise ValueError(f"{name} link {n}: the label must be at most {LABEL_MAX} characters")
        url = clean_link(item.get("url"), f"{name} link {n}: the url must start with http://, https:// or /")
        links.append({"label": label, "url": url})
    return links


# --- social accounts --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Network:
    name: str  # as people write it, for messages
    hosts: tuple[str, ...]  # the addresses of its profiles (and their subdomains); () for any host
    profile: str  # a handle's address: "{}" is the handle, without "@"


NETWORKS: dict[str, Network] = {
    "facebook": Network("Facebook", ("facebook.com", "fb.com"), "https://www.facebook.com/{}"),
    "twitter": Network("X (Twitter)", ("x.com", "twitter.com"), "https://x.com/{}"),
    "instagram": Network("Instagram", ("instagram.com",), "https://www.instagram.com/{}"),
    "linkedin": Network("LinkedIn", ("linkedin.com",), "https://www.linkedin.com/in/{}"),
    "youtube": Network("YouTube", ("youtube.com",), "https://www.youtube.com/@{}"),
    "tiktok": Network("TikTok", ("tiktok.com",), "https://www.tiktok.com/@{}"),
    "threads": Network("Threads", ("threads.net", "threads.com"), "https://www.threads.net/@{}"),
    "bluesky": Network("Bluesky", ("bsky.app",), "https://bsky.app/profile/{}"),
    "mastodon": Network("Mastodon", (), "https://{host}/@{user}"),
}
_HANDLE = re.compile(r"@?([A-Za-z0-9_][A-Za-z0-9_.-]{0,99})")
_FEDIVERSE = re.compile(r"@?([A-Za-z0-9_][A-Za-z0-9_.-]{0,63})@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")


def social_message(network: str) -> str:
    found = NETWORKS[network]
    if network == "mastodon":
        return "Mastodon must be an account such as @name@mastodon.social or its address"
    return f"{found.name} must be a {found.name} handle or the address of a {found.name} profile"


def _on_network(host: str, network: Network) -> bool:
    host = host.lower().rstrip(".")
    return any(host == known or host.endswith("." + known) for known in network.hosts)


def clean_social(network: str, value) -> str:
    """The https address of the profile, from its handle or its address ("" clears)."""
    message = social_message(network)
    found = NETWORKS[network]
    value = text(value, message).strip()
    if not value:
        return ""
    if len(value) > SOCIAL_MAX:
        raise ValueError(message)
    if "://" in value or value.lower().startswith(("http:", "https:")):
        url = clean_url(value, message)
        parts = urlsplit(url)
        if (found.hosts and not _on_network(parts.hostname or "", found)) or parts.path.strip("/") == "":
            raise ValueError(message)
        return url
    if network == "mastodon":
        match = _FEDIVERSE.fullmatch(value)
        if match is None:
            raise ValueError(message)
        return found.profile.format(host=match.group(2).lower(), user=match.group(1))
    match = _HANDLE.fullmatch(value)
    if match is None:
        raise ValueError(message)
    return found.profile.format(match.group(1))


def clean_socials(value, *, networks=tuple(NETWORKS)) -> dict[str, str] | None:
    """{network: address} of the networks given (a key left out is left unchanged by the service);
    a network not in `networks` is refused."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError("Social accounts must be an object such as {\"twitter\": \"@acme\"}")
    unknown = [key for key in value if key not in networks]
    if unknown:
        raise ValueError(f"Unknown social network {str(unknown[0])[:40]!r}: use one of {', '.join(networks)}")
    return {network: clean_social(network, address) for network, address in value.items()}


def ghost_handle(network: str, url: str) -> str | None:
    """Ghost's value of its `facebook` (`acme`, a page's path) or `twitter` (`@acme`) field from a
    stored profile address (None when unset)."""
    if not url:
        return None
    path = urlsplit(url).path.strip("/")
    if not path:
        return None
    if network == "twitter":
        return "@" + path.split("/")[0].lstrip("@")
    return path


# --- images -----------------------------------------------------------------------------------------
def image_message(name: str) -> str:
    return f"{name} must be an image of the media library or an address starting with http:// or https://"


def media_id_of(ref: str) -> str | None:
    """The media id an image reference names (None: an address, or empty)."""
    if not ref or "/" in ref:
        return None
    try:
        return str(uuid.UUID(ref))
    except ValueError:
        return None


def clean_image(value, *, name: str) -> str:
    """A media id (in its usual form) or an http(s) address ("" clears). Whether the media id is
    one of the company's is checked by the service (apps.site.services)."""
    message = image_message(name)
    value = text(value, message).strip()
    if not value:
        return ""
    found = media_id_of(value)
    if found is not None:
        return found
    if len(value) > IMAGE_MAX:
        raise ValueError(message)
    return clean_url(value, message)


# --- the input types ------------------------------------------------------------------------------------
def _optional(clean):
    return lambda value: None if value is None else clean(value)


def _text_type(name: str, maximum: int):
    def clean(value):
        return clean_text(value, name=name, maximum=maximum)

    return Annotated[str | None, BeforeValidator(_optional(clean))]


def _image_type(name: str):
    return Annotated[str | None, BeforeValidator(_optional(lambda value: clean_image(value, name=name)))]


WebsiteUrl = Annotated[str | None, BeforeValidator(clean_website)]
PostUrlTemplate = Annotated[str | None, BeforeValidator(clean_post_url_template)]
SiteTitle = _text_type("Site title", TITLE_MAX)
SiteDescription = _text_type("Site description", DESCRIPTION_MAX)
MetaTitle = _text_type("Meta title", META_TITLE_MAX)
MetaDescription = _text_type("Meta description", META_DESCRIPTION_MAX)
Logo, Icon, CoverImage = _image_type("Logo"), _image_type("Icon"), _image_type("Cover image")
ProfileImage = _image_type("Profile image")
AccentColor = Annotated[str | None, BeforeValidator(_optional(clean_color))]
Navigation = Annotated[list | None, BeforeValidator(lambda value: clean_navigation(value, name="Navigation"))]
SecondaryNavigation = Annotated[list | None, BeforeValidator(
    lambda value: clean_navigation(value, name="Secondary navigation"))]
SocialAccounts = Annotated[dict | None, BeforeValidator(clean_socials)]
DisplayName = _text_type("Name", DISPLAY_NAME_MAX)
Bio = _text_type("Bio", BIO_MAX)
Location = _text_type("Location", LOCATION_MAX)
ProfileWebsite = Annotated[str | None, BeforeValidator(_optional(
    lambda value: clean_text(clean_url(value, WEBSITE_MESSAGE), name="Website", maximum=WEBSITE_MAX)))]
Facebook = Annotated[str | None, BeforeValidator(_optional(lambda value: clean_social("facebook", value)))]
Twitter = Annotated[str | None, BeforeValidator(_optional(lambda value: clean_social("twitter", value)))]
