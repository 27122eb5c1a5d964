"""Who may see what only operators' tools see (the health detail, /metrics): the one rule, used by
apps.core.health and apps.core.metrics."""
from __future__ import annotations

import hmac
import ipaddress
from functools import lru_cache

from apps.core.ratelimit import client_ip


@lru_cache(maxsize=8)
def _networks(setting: str) -> tuple:
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in setting.split(",") if part.strip())


def _offered_token(request) -> str:
    header = request.headers.get("X-Health-Token", "")
    if header:
        return header
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def operator_caller(request, *, token: str, networks: str) -> bool:
    """The rule for what only operators' tools see (the health detail, /metrics): the caller sends
    `token` (empty: no token works), or calls from one of `networks` (comma-separated CIDRs)."""
    offered = _offered_token(request)
    if token and offered and hmac.compare_digest(offered.encode(), token.encode()):
        return True
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    return any(address in network for network in _networks(networks))
