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
import time
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter

REFUSED_ADDRESS = "This URL points to a private or local network address, which webhooks cannot reach"
BAD_URL = "Enter a valid http or https URL"


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


def check_url_at_save(url: str) -> None:
    """ValueError for a URL that is not http(s) or resolves to a refused address. A name that does
    not resolve (yet) is accepted: the send-time check decides then."""
    _, host, port = split_url(url)
    try:
        addresses = resolve(host, port)
    except (socket.gaierror, UnicodeError):
        return
    try:
        check_addresses(addresses)
    except AddressRefused as exc:
        raise ValueError(str(exc)) from exc


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """`v1=` + hex HMAC-SHA256 of `timestamp.body` with the endpoint's secret (README: Webhooks)."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"v1={digest}"


class _PinnedHostAdapter(HTTPAdapter):
    """HTTPS to an IP address with the URL's host name as SNI and as the certificate's name."""

    def __init__(self, hostname: str, **kwargs):
        self._hostname = hostname
        super().__init__(**kwargs)

    def init_poolmanager(self, *args, **kwargs):
        kwargs["server_hostname"] = self._hostname
        kwargs["assert_hostname"] = self._hostname
        super().init_poolmanager(*args, **kwargs)


@dataclass
class SendResult:
    status: int | None  # None: no HTTP answer (timeout, connection error, refused address)
    duration_ms: int
    excerpt: str = ""
    error: str = ""
    retryable: bool = False


def _is_retryable_status(status: int) -> bool:
    return status >= 500 or status in (408, 429)


def post_signed(*, url: str, secret: str, webhook_id: str, body: bytes) -> SendResult:
    """One POST of `body`, signed now. Never raises for network trouble: the result says what happened."""
    started = time.monotonic()

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        scheme, host, port = split_url(url)
        address = check_addresses(resolve(host, port))
    except (ValueError, AddressRefused) as exc:
        return SendResult(None, elapsed(), error=str(exc))
    except (socket.gaierror, UnicodeError) as exc:
        return SendResult(None, elapsed(), error=f"DNS lookup failed: {exc}", retryable=True)
    parts = urlsplit(url)
    ip_host = f"[{address}]" if ":" in address else address
    pinned = urlunsplit((scheme, f"{ip_host}:{port}", parts.path or "/", parts.query, ""))
    default_port = (scheme == "https" and port == 443) or (scheme == "http" and port == 80)
    timestamp = str(int(time.time()))
    headers = {
        "Host": host if default_port else f"{host}:{port}",
        "Content-Type": "application/json",
        "User-Agent": "CMS-Webhooks/1.0",
        "Webhook-Id": webhook_id,
        "Webhook-Timestamp": timestamp,
        "Webhook-Signature": sign(secret, timestamp, body),
    }
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the checked address is the one reached
        if scheme == "https":
            session.mount("https://", _PinnedHostAdapter(host, max_retries=0))
        try:
            response = session.post(
                pinned, data=body, headers=headers, allow_redirects=False, stream=True,
                timeout=(settings.WEBHOOK_CONNECT_TIMEOUT, settings.WEBHOOK_TIMEOUT),
            )
            try:
                raw = response.raw.read(settings.WEBHOOK_RESPONSE_EXCERPT_BYTES, decode_content=True) or b""
            finally:
                response.close()
        except requests.Timeout as exc:
            return SendResult(None, elapsed(), error=f"Timed out: {exc.__class__.__name__}", retryable=True)
        except requests.RequestException as exc:
            return SendResult(None, elapsed(), error=f"Connection failed: {exc.__class__.__name__}", retryable=True)
    excerpt = raw.decode("utf-8", errors="replace")
    status = response.status_code
    if 200 <= status < 300:
        return SendResult(status, elapsed(), excerpt)
    return SendResult(status, elapsed(), excerpt, error=f"HTTP {status}", retryable=_is_retryable_status(status))
