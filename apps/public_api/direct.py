"""Posts lists that are not cached, built in the WSGI layer (apps.public_api.fastpath).

A website's first request for a page after a write, and every request with the reply cache off,
would otherwise go through Django's middleware, the Host -> company lookup in PostgreSQL, ninja
and the key check, which together cost more than the page's SQL. For `GET /api/v1/posts` with
nothing but `page`, `limit`, `status` and `search`, and for `/api/v1/posts/category/{slug}` and
`/api/v1/posts/tag/{slug}` (what a site's list pages send), the fast path's Redis
round trip checks the key against the host map and takes the rate-limit entry as for a hit, and
this module then runs the selectors' one prepared statement in the host's schema and answers
with exactly the bytes and headers Django would (the tests compare them), storing the reply
for the next request as Django does.

Anything else, or anything this module is unsure of, goes to Django unchanged: a long search, a
repeated or malformed parameter, a value Django would refuse (400), a draft list asked with the
content key (403), an empty category or tag page (Django tells a missing one, 404, from a page
past the end), a database error.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

import redis
from django.db import DatabaseError, connection

from apps.analytics import redis_conn
from apps.core.errors import ValidationFailed
from apps.core.pagination import Page, page_params
from apps.public_api import cache, schemas, selectors
from apps.public_api.responses import encode, etag_of

logger = logging.getLogger(__name__)

LIST_PATH = "/api/v1/posts"
_NAMES = ("page", "limit", "status", "search")
_TERM_NAMES = ("page", "limit", "status")  # a category's or tag's list takes no search
_NUMBER = re.compile(r"[0-9]{1,7}")
_MAX_QUERY = 2048
MAX_SEARCH = 200  # longer searches are left to Django


@dataclass(frozen=True)
class Listing:
    page: Page
    status: str
    search: str | None
    term: tuple[str, str] | None  # ("category" or "tag", slug): the posts of a category or a tag
    filter_key: str  # the list's total is kept under it (apps.public_api.cache.Counts)

    @property
    def needs_preview(self) -> bool:
        return self.status != "published"


def _term(path: str) -> tuple[str, str] | None:
    """("category" or "tag", slug) of /api/v1/posts/category/{slug} or /api/v1/posts/tag/{slug}."""
    for kind in ("category", "tag"):
        prefix = f"{LIST_PATH}/{kind}/"
        if path.startswith(prefix):
            slug = path[len(prefix):]
            if slug and "/" not in slug and path.isascii():  # as Django's route (normalised as its lookup)
                return (kind, slug.strip().lower()) if slug.strip() else None
    return None


def listing(path: str, query_string: str) -> Listing | None:
    """The posts list this request asks for, when this module can answer it; else None."""
    path = path.rstrip("/")
    term = _term(path) if path != LIST_PATH else None
    if (path != LIST_PATH and term is None) or len(query_string) > _MAX_QUERY or not query_string.isascii():
        return None  # (raw non-ASCII bytes: Django decodes those its own way)
    names = _NAMES if term is None else _TERM_NAMES
    values: dict[str, str] = {}
    for name, value in parse_qsl(query_string, keep_blank_values=True):  # as Django's QueryDict
        if name in names:
            if name in values:
                return None
            values[name] = value
    search = values.get("search", "").strip() or None
    if search is not None and (len(search) > MAX_SEARCH or "\x00" in search):
        return None
    numbers = []
    for name in ("page", "limit"):
        value = values.get(name)
        if value is not None and not _NUMBER.fullmatch(value):
            return None
        numbers.append(None if value is None else int(value))
    try:
        page = page_params(*numbers, default_limit=10, max_limit=100)
    except ValidationFailed:
        return None
    status = (values.get("status") or "published").strip().lower()
    if status not in schemas.STATUSES:
        return None
    return Listing(page=page, status=status, search=search, term=term, filter_key=_filter_key(status, search, term))


def _filter_key(status: str, search: str | None, term: tuple[str, str] | None) -> str:
    # The key is the same in every schema (selectors.posts_filter, which caches it), so it is
    # known before Redis says which company the host is.
    return selectors.posts_filter(schema="", **_filters(status, search, term)).key


def _filters(status: str, search: str | None, term: tuple[str, str] | None) -> dict:
    filters = {"status": status, "search": search}
    if term is not None:
        filters[f"{term[0]}_slug"] = term[1]
    return filters


@dataclass(frozen=True)
class Built:
    body: bytes
    etag: str


def build(wanted: Listing, *, schema: str, version: str | None, kind: str, qhash: str, total) -> Built | None:
    """The reply of the list in `schema`, stored in the cache when `version` is given; None when
    the database failed (Django then answers, with its own handling of the error)."""
    known = int(total) if total is not None else None
    if wanted.search is not None:
        # The content app's search names its tables without a schema: it runs on the search_path
        # of the company (django-tenants sets it on the next cursor, only if it changes).
        if connection.schema_name != schema or not connection.search_path_set_schemas:
            connection.set_schema(schema)
    found = selectors.posts_filter(schema=schema, **_filters(wanted.status, wanted.search, wanted.term))
    try:
        rows, counted = selectors.posts_page_rows(found, wanted.page, with_total=known is None)
        if not rows and wanted.term is not None:
            return None  # no such category or tag (404), or a page past the end: Django tells which
        posts = selectors.posts_page_summaries(rows, schema)
    except DatabaseError as exc:
        logger.warning("posts list left to Django after a database error: %s", exc)
        if not connection.in_atomic_block:
            connection.close()  # a broken or restarted server: Django connects again
        return None
    body = encode(schemas.posts_reply(posts, wanted.page.meta(known if known is not None else counted)))
    etag = etag_of(body)
    if version is not None:
        try:
            cache.store(schema=schema, version=version, kind=kind, qhash=qhash, etag=etag, body=body,
                        count_key=found.key, total=None if found.total_kept else counted)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
    return Built(body=body, etag=etag)
