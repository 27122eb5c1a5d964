"""Sending one signed webhook POST (requests). Only the Celery worker sends: the web process never
imports this module (requests and urllib3 are about 10 MB per web worker), see services."""
from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter

from apps.webhooks.network import AddressRefused, check_addresses, resolve, sign, split_url


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
