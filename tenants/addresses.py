"""The addresses of the product: a company's host and base URL, and the root domain's (from
ROOT_DOMAIN, PUBLIC_SCHEME and PUBLIC_PORT). Apart from lifecycle.services so that what only
builds links (media URLs in the public content API, emails, feeds) does not load sign-up and
account services."""
from __future__ import annotations

from django.conf import settings


def tenant_host(subdomain: str) -> str:
    return f"{subdomain}.{settings.ROOT_DOMAIN}"


def _base_url(host: str) -> str:
    port = settings.PUBLIC_PORT
    default_port = {"http": "80", "https": "443"}.get(settings.PUBLIC_SCHEME)
    suffix = f":{port}" if port and port != default_port else ""
    return f"{settings.PUBLIC_SCHEME}://{host}{suffix}"


def tenant_base_url(subdomain: str) -> str:
    return _base_url(tenant_host(subdomain))


def root_base_url() -> str:
    """The root domain's address (sign-up, sign-in by email)."""
    return _base_url(settings.ROOT_DOMAIN)
