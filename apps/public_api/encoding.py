"""The bytes of a public API reply: its JSON and its ETag (a hash of the body), the
If-None-Match comparison, and its gzip for a client that accepts it. Both entry points and the
builders of posts lists use these."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from functools import lru_cache

import blake3
import orjson
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from isal import isal_zlib

_DJANGO = DjangoJSONEncoder()
# Dates, times and anything orjson does not know go to Django's encoder, whose forms the replies
# have always had (a datetime to the millisecond with "Z"); subclasses of str, int, dict and list
# are written as their base type, as json.dumps writes them.
# (Floats are written by orjson itself, as json.dumps writes them but for small exponents:
# 1e-7 where json.dumps writes 1e-07; no reply carries such a number.)
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME


def encode(data: dict) -> bytes:
    """The same bytes as json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False,
    separators=(",", ":")).encode() (apps/public_api/tests/test_encoding.py), several times
    faster on a large reply (a Ghost posts page with its HTML: 61 KB)."""
    try:
        return orjson.dumps(data, default=_DJANGO.default, option=_OPTIONS)
    except orjson.JSONEncodeError:  # what orjson does not write (a key that is no string, an int past 64 bits)
        return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")).encode()


def etag_of(body: bytes) -> str:
    """A strong ETag: the first 16 bytes of the body's BLAKE3. A worker keeps one copy of each
    body by its ETag for every company it serves (core.Bodies), so the hash must be one no
    company can match with a body of its own: a cryptographic one. BLAKE3 hashes a 61 KB Ghost
    page in 15 us on any x86-64 processor (its vector instructions); SHA-256 took 34 us where the
    processor hashes it in hardware and 175 us where it does not."""
    return '"' + blake3.blake3(body).hexdigest(length=16) + '"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    for tag in (if_none_match or "").split(","):
        tag = tag.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag == "*" or (tag and tag == etag):
            return True
    return False


# gzip (RFC 1952) through ISA-L at its fastest level: a 61 KB Ghost page in about 70 us to 9 KB,
# where zlib takes 180 us at level 1 and 1 ms at its default level (for 7.5 KB).
GZIP_LEVEL = 1
_GZIP_WINDOW = 31  # zlib's wbits for a gzip container


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header (RFC 9110, 12.5.3) admits gzip: `gzip`, `x-gzip` or `*`
    with a weight above 0, and no `gzip;q=0` refusing it by name."""
    if not accept_encoding:
        return False
    if len(accept_encoding) > 200:  # no client sends such a header: read, not remembered
        return _accepts_gzip(accept_encoding)
    return _accepts_gzip_seen(accept_encoding)


def _accepts_gzip(accept_encoding: str) -> bool:
    named = star = None
    for item in accept_encoding.split(","):
        coding, _, params = item.partition(";")
        coding = coding.strip().lower()
        if coding not in ("gzip", "x-gzip", "*"):
            continue
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value.strip())
                except ValueError:
                    weight = 0.0
        if coding == "*":
            star = weight > 0
        else:
            named = weight > 0 if named is None else named or weight > 0
    return named if named is not None else bool(star)


_accepts_gzip_seen = lru_cache(maxsize=256)(_accepts_gzip)  # a few client libraries send most requests


def gzipped(body: bytes) -> bytes:
    return isal_zlib.compress(body, GZIP_LEVEL, wbits=_GZIP_WINDOW)


class Gzips:
    """The gzip of the replies this worker compressed or read from the cache last, by their ETag (a
    hash of the uncompressed body, as core.Bodies), the least recently used dropped first past
    `budget` bytes: a reply is compressed once, when it is built."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self.held: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def of(self, etag: str, body: bytes) -> bytes:
        with self.lock:
            held = self.held.get(etag)
            if held is not None:
                self.held.move_to_end(etag)
                return held
        compressed = gzipped(body)
        self.keep(etag, compressed)
        return compressed

    def keep(self, etag: str, compressed: bytes) -> None:
        if len(compressed) > self.budget // 4:
            return
        with self.lock:
            if etag not in self.held:
                self.held[etag] = compressed
                self.size += len(compressed)
                while self.size > self.budget:
                    self.size -= len(self.held.popitem(last=False)[1])


_gzips: Gzips | None = None


def gzips() -> Gzips:
    """This worker's gzips (half of PUBLIC_API_LOCAL_CACHE_BYTES)."""
    global _gzips
    if _gzips is None:
        _gzips = Gzips(settings.PUBLIC_API_LOCAL_CACHE_BYTES // 2)
    return _gzips


def gzip_of(etag: str, body: bytes) -> bytes:
    """The gzip of a reply's body, compressed once per worker (by its ETag): what a client that
    accepts gzip is sent, and the form the reply cache keeps (9 KB for a 61 KB Ghost page: less to
    send to Redis on every miss and to hold there; `unpacked` reads it back)."""
    return gzips().of(etag, body)


_GZIP_MAGIC = b"\x1f\x8b"  # a gzip member's first bytes; a JSON body starts with "{"


def unpacked(etag: str, stored: bytes) -> bytes:
    """A body read from the reply cache, uncompressed (an entry that holds plain JSON is read as
    it is); its gzip is kept for the clients that accept it."""
    if stored[:2] != _GZIP_MAGIC:
        return stored
    gzips().keep(etag, stored)
    return isal_zlib.decompress(stored, wbits=_GZIP_WINDOW)


def weak(etag: str) -> str:
    """The ETag of a reply's gzip: the body's own, weak (as nginx and Varnish mark what they
    compress); If-None-Match compares weakly (etag_matches), so either form of it matches."""
    return etag if etag.startswith("W/") else f"W/{etag}"
