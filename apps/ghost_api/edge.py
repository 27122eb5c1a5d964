"""What the WSGI layer in front of Django (apps.public_api.fastpath) needs to answer a cached
reply of the Ghost-compatible routes as Django does, without importing Django's side of them:
the key of a request, the surrogate keys of a reply, the version headers."""
from __future__ import annotations

import json
from functools import lru_cache
from urllib.parse import parse_qs

from apps.core.edge_cache import post_tag
from apps.public_api.request import EdgeKeys

PREFIX = "/ghost/api/content/"
CONTENT_VERSION = "v5.0"  # answered to any Accept-Version, as Ghost answers with its own version
VARY = "Accept-Version"


@lru_cache(maxsize=1024)
def query_key(query_string: str) -> str | None:
    """The request's `key` when it is given exactly once (else None: Django answers). Kept per
    worker by query string: a website sends the same few again and again."""
    if "key=" not in query_string or not query_string.isascii():
        return None
    values = parse_qs(query_string, keep_blank_values=True).get("key") or []
    return values[0] if len(values) == 1 and values[0] else None


def edge_keys(body: bytes) -> EdgeKeys:
    """The surrogate keys of a Ghost reply: a reply with posts is purged with every change of a
    public post (`search-<host>`: its filters reach more than a posts list of /api/v1 does) and by
    its posts' own keys; every other reply with the company's."""
    data = json.loads(body)
    for resource in ("posts", "pages"):  # a page's keys are a post's (apps.content.kinds)
        if isinstance(data, dict) and isinstance(data.get(resource), list):
            return EdgeKeys("search", tuple(dict.fromkeys(post_tag(post["id"]) for post in data[resource]
                                                          if isinstance(post.get("id"), str))))
    return EdgeKeys(None, ())


def with_vary(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Reply headers with Accept-Version added to Vary (as django.utils.cache.patch_vary_headers
    adds it in the view)."""
    return [(name, f"{value}, {VARY}" if name == "Vary" else value) for name, value in headers]
