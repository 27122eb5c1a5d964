"""The replies' bytes: orjson writes what json.dumps with Django's encoder wrote (the replies'
ETags, the parity of the fast path and Django's path, and every cached reply depend on it)."""
from __future__ import annotations

import datetime
import decimal
import json
import uuid

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.functional import lazy
from django.utils.safestring import mark_safe

from apps.public_api.encoding import encode


def _reference(data) -> bytes:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")).encode()


def _lazy_text():
    return "made when written"


def test_a_reply_is_written_byte_for_byte_as_django_wrote_it():
    at = datetime.datetime(2026, 11, 26, 9, 41, 7, 123456, tzinfo=datetime.UTC)
    reply = {
        "success": True,
        "message": "Posts retrieved successfully",
        "data": {
            "posts": [{
                "id": uuid.UUID("0b4e7c1a-58f5-4c43-9f0c-1f0d7a1c2b3d"),
                "title": "Café, naïve — 日本語 🚀 \u2028 line",
                "excerpt": 'Quotes " and \\ backslash, tab\t, newline\n, bell\x07, delete\x7f',
                "content": mark_safe("<p>Safe <b>HTML</b></p>"),
                "createdAt": at,
                "publishedAt": at.replace(microsecond=0),
                "localTime": datetime.datetime(2026, 1, 2, 3, 4, 5, 6000,
                                               tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
                "day": datetime.date(2026, 2, 28),
                "time": datetime.time(13, 45, 1, 250000),
                "duration": datetime.timedelta(minutes=3, seconds=7),
                "price": decimal.Decimal("12.50"),
                "readingTime": 7,
                "views": 2**53 + 1,
                "ratio": 0.25,
                "tags": ("news", "tech"),
                "empty": [],
                "nothing": None,
                "note": lazy(_lazy_text, str)(),
            }],
            "pagination": {"page": 1, "limit": 10, "total": 1, "pages": 1},
        },
    }
    assert encode(reply) == _reference(reply)


def test_a_large_page_is_the_same_bytes():
    html = "<p>" + "Ünïcode text, &amp; <a href=\"https://example.com/x?a=1&b=2\">links</a>. " * 400 + "</p>"
    page = {"posts": [{"id": str(n), "html": html, "tags": [{"slug": f"t{n}", "name": f"Tag {n}"}]}
                      for n in range(20)],
            "meta": {"pagination": {"page": 1, "limit": 20, "pages": 5, "total": 100, "next": 2, "prev": None}}}
    assert encode(page) == _reference(page)


def test_what_orjson_does_not_write_is_written_as_before():
    odd = {"counts": {1: "one", 2: "two"}, "huge": 2**70, "flag": {True: "yes", None: "none"}}
    assert encode(odd) == _reference(odd)
