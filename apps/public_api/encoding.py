"""The bytes of a public API reply: its JSON and its ETag (a hash of the body), and the
If-None-Match comparison. Both entry points and the builders of posts lists use these."""
from __future__ import annotations

import hashlib
import json

from django.core.serializers.json import DjangoJSONEncoder


def encode(data: dict) -> bytes:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")).encode()


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    for tag in (if_none_match or "").split(","):
        tag = tag.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag == "*" or (tag and tag == etag):
            return True
    return False
