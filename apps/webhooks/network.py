"""Outgoing webhook HTTP: which addresses may be reached (server-side request forgery guard) and
one signed POST to the address that was checked.

The guard runs twice: when an endpoint is saved, and before every send after resolving the host.
The send connects to the very address that passed the check (no second DNS lookup that could
answer differently), with the URL's host in the Host header and as TLS SNI/certificate name.
Redirects are never followed."""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

REFUSED_ADDRESS = "This URL points to a private or local network address, which webhooks cannot reach"
BAD_URL = "Enter a valid http or https URL"
URL_LINE_BREAK = "URL must not contain tabs or line breaks"


class AddressRefused(Exception):
    pass


def _refused(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    # not is_global: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16,
    # the cloud metadata address included), shared (100.64/10), unspecified, reserved, documentation
    return not ip.is_global or ip.is_multicast


def split_url(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an http(s) URL; ValueError otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(BAD_URL)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname, port


def resolve(host: str, port: int) -> list[str]:
    """The addresses of a host (an IP literal is its own); socket.gaierror when it does not resolve."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


def check_addresses(addresses: list[str]) -> str:
    """The first address, when every one is allowed; AddressRefused otherwise."""
    if not addresses:
        raise AddressRefused(REFUSED_ADDRESS)
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        for address in addresses:
            if _refused(ipaddress.ip_address(address.split("%", 1)[0])):
                raise AddressRefused(REFUSED_ADDRESS)
    return addresses[0]


def check_url_at_save(url: str) -> str:
    """The URL to store (trimmed), or ValueError for a URL that holds a tab or a line break (before
    trimming too), is not http(s) or resolves to a refused address. A name that does not resolve
    (yet) is accepted: the send-time check decides then. (urlsplit drops tabs and line breaks
    silently, so such a URL passed, was stored as typed and shown in the dashboard, the delivery
    log and the plain-text email that an endpoint was disabled.)"""
    if any(character in url for character in "\t\r\n"):
        raise ValueError(URL_LINE_BREAK)
    url = url.strip()
    _, host, port = split_url(url)
    try:
        addresses = resolve(host, port)
    except (socket.gaierror, UnicodeError):
        return url
    try:
        check_addresses(addresses)
    except AddressRefused as exc:
        raise ValueError(str(exc)) from exc
    return url


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """`v1=` + hex HMAC-SHA256 of `timestamp.body` with the endpoint's secret (docs/webhooks.md)."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"v1={digest}"
