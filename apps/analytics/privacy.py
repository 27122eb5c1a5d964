"""Visitor identity without personal data.

visitor_hash = HMAC-SHA256(daily_secret(day), schema NUL ip NUL user_agent), truncated to
128 bits, where daily_secret(day) = HMAC-SHA256(ANALYTICS_HASH_SECRET, "visitor-salt:" + day).

- The IP address and user agent are used inside the request that carries them and never
  leave it: not in Redis, not in PostgreSQL, not in logs.
- The secret changes every UTC day, so the same visitor gets unrelated hashes on two days
  (visits cannot be linked across days) and one company's hashes cannot be matched with
  another's (the schema is part of the message).
- ANALYTICS_HASH_SECRET defaults to SECRET_KEY; without it a hash cannot be recomputed.
Unique visitors are therefore counted per day; a window's figure is the sum of its days.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from datetime import date
from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings

DIRECT = "direct"
_HOSTNAME = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*")


@lru_cache(maxsize=8)
def _daily_secret(secret: str, day: str) -> bytes:
    return hmac.new(secret.encode(), f"visitor-salt:{day}".encode(), hashlib.sha256).digest()


def visitor_hash(*, schema: str, ip: str, user_agent: str, day: date) -> str:
    key = _daily_secret(settings.ANALYTICS_HASH_SECRET, day.isoformat())
    message = f"{schema}\x00{ip}\x00{user_agent}".encode("utf-8", "replace")
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def clean_ip(value: str | None) -> str | None:
    """A valid IP address in canonical form, or None."""
    if not value:
        return None
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def _host(url: str) -> str:
    url = (url or "").strip()
    if not url:
        return ""
    if "://" not in url and not url.startswith("//"):
        url = "//" + url
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return ""
    host = host.lower().rstrip(".")
    if not _HOSTNAME.fullmatch(host):
        return ""
    return host[4:] if host.startswith("www.") else host


def referrer_source(referrer: str | None, page_url: str | None) -> str:
    """The referring site's host name ("google.com"); "direct" when there is none or when the
    visitor came from another page of the same site."""
    host = _host(referrer or "")
    if not host or host == _host(page_url or ""):
        return DIRECT
    return host[:255]
