"""Images of an imported blog fetched from its old site through the webhooks' guard against
server-side request forgery (apps.webhooks.network): the host is resolved once, every address
must be public (no private, loopback, link-local, shared or reserved address), the connection
goes to the address that was checked, and each redirect (at most IMPORT_FETCH_MAX_REDIRECTS) is
checked the same way before it is followed. A reply larger than the upload limit is cut off and
refused. `IMPORT_FETCH_ALLOWED_HOSTS` ("host:port" entries) lets tests reach a server of their
own; it is empty in production."""
from __future__ import annotations

import socket
from urllib.parse import urljoin, urlsplit, urlunsplit

import requests
from django.conf import settings

from apps.webhooks.network import AddressRefused, check_addresses, resolve, split_url
from apps.webhooks.sending import _PinnedHostAdapter


class FetchFailed(Exception):
    pass


def _address(url: str) -> tuple[str, str, int, str]:
    try:
        scheme, host, port = split_url(url)
    except ValueError as exc:
        raise FetchFailed(f"not an http(s) address: {url[:200]}") from exc
    try:
        addresses = resolve(host, port)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchFailed(f"the host {host} does not resolve") from exc
    if f"{host}:{port}" in settings.IMPORT_FETCH_ALLOWED_HOSTS:
        return scheme, host, port, addresses[0]
    try:
        return scheme, host, port, check_addresses(addresses)
    except AddressRefused as exc:
        raise FetchFailed(f"refused: {host} is a private or local network address") from exc


def fetch_image_bytes(url: str) -> bytes:
    """The body of a GET of `url` (FetchFailed: refused address, HTTP error, too large, timeout)."""
    limit = settings.MEDIA_MAX_UPLOAD_BYTES
    for _hop in range(settings.IMPORT_FETCH_MAX_REDIRECTS + 1):
        scheme, host, port, address = _address(url)
        parts = urlsplit(url)
        ip_host = f"[{address}]" if ":" in address else address
        pinned = urlunsplit((scheme, f"{ip_host}:{port}", parts.path or "/", parts.query, ""))
        default_port = (scheme == "https" and port == 443) or (scheme == "http" and port == 80)
        headers = {"Host": host if default_port else f"{host}:{port}", "User-Agent": "CMS-Import/1.0",
                   "Accept": "image/*"}
        with requests.Session() as session:
            session.trust_env = False
            if scheme == "https":
                session.mount("https://", _PinnedHostAdapter(host, max_retries=0))
            try:
                response = session.get(pinned, headers=headers, allow_redirects=False, stream=True,
                                       timeout=(settings.IMPORT_FETCH_CONNECT_TIMEOUT, settings.IMPORT_FETCH_TIMEOUT))
                try:
                    if response.is_redirect:
                        location = response.headers.get("Location", "")
                        url = urljoin(url, location)
                        continue
                    if response.status_code != 200:
                        raise FetchFailed(f"HTTP {response.status_code}")
                    declared = response.headers.get("Content-Length", "")
                    if declared.isdigit() and int(declared) > limit:
                        raise FetchFailed(f"larger than the upload limit ({int(declared)} bytes)")
                    body = response.raw.read(limit + 1, decode_content=True) or b""
                finally:
                    response.close()
            except requests.RequestException as exc:
                raise FetchFailed(f"connection failed: {exc.__class__.__name__}") from exc
        if len(body) > limit:
            raise FetchFailed("larger than the upload limit")
        return body
    raise FetchFailed("too many redirects")
