"""Posts lists that are not cached, built in the WSGI layer (apps.public_api.fastpath).

A website's first request for a page after a write, and every request with the reply cache off,
would otherwise go through Django's middleware, the Host -> company lookup in PostgreSQL, ninja
and the key check, which together cost more than the page's SQL. For `GET /api/v1/posts`,
`/api/v1/posts/category/{slug}`, `/api/v1/posts/tag/{slug}` and `/api/v1/pages` (what a site's list pages send) the
query is read by the same function as Django's (apps.public_api.request.parse_list), the fast
path's Redis round trip checks the key against the host map and takes the rate-limit entry as
for a hit, and this module builds the body with the same function as Django's
(`request.list_body`, the selectors' one prepared statement in the host's schema), storing the
reply for the next request as Django does.

Anything this layer does not answer goes to Django unchanged, which answers as it would without
this layer: a query Django refuses (parse_list's 400s), a long search, raw non-ASCII bytes in
the query (Django decodes those its own way), a draft list asked with the content key (403),
an empty page of a category or tag (Django tells a missing one, 404, from a page past the end),
a database error.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl

import redis
from django.db import DatabaseError, connection
from ninja.errors import ValidationError

from apps.core import db, redis_conn
from apps.core.errors import ApplicationError
from apps.public_api import cache
from apps.public_api import request as public
from apps.public_api.encoding import encode, etag_of
from apps.core import languages

logger = logging.getLogger(__name__)

_MAX_QUERY = 2048
MAX_SEARCH = 200  # longer searches are left to Django (each search term compiles a statement)


@lru_cache(maxsize=256)
def listing(path: str, query_string: str) -> public.ListQuery | None:
    """The posts list this request asks for, when this layer can answer it; else None. Kept per
    worker by path and query (a website sends the same few again and again; the answer depends
    on nothing else, and a ListQuery never changes)."""
    path = path.rstrip("/")
    found = public.list_of(path)  # posts, pages, or a category's or tag's posts
    if found is None:
        return None
    kind, term = found
    if len(query_string) > _MAX_QUERY or not query_string.isascii() or not path.isascii():
        return None
    params: dict[str, list[str]] = {}
    for name, value in parse_qsl(query_string, keep_blank_values=True):  # as Django's QueryDict
        params.setdefault(name, []).append(value)
    try:
        wanted = public.parse_list(params, term=term, kind=kind)
    except (ApplicationError, ValidationError):  # Django answers the 400
        return None
    if wanted.search is not None and len(wanted.search) > MAX_SEARCH:
        return None
    return wanted


@dataclass(frozen=True)
class Built:
    body: bytes
    etag: str


def build(wanted: public.ListQuery, *, schema: str, version: str | None, kind: str, qhash: str,
          total: int | None, kept: str | None = None) -> Built | None:
    """The reply of the list in `schema`, stored in the cache when `version` is given; None when
    Django must answer (an empty page of a term, or the database failed). `kept`: the company's
    content version, also with the cache off (its languages are kept by it)."""
    if wanted.search is not None:
        # The content app's search names its tables without a schema: it runs on the search_path
        # of the company (django-tenants sets it on the next cursor, only if it changes).
        if connection.schema_name != schema or not connection.search_path_set_schemas:
            connection.set_schema(schema)
    try:
        made = public.list_body(wanted, schema=schema, total=total, company=languages.of_schema(schema, version or kept))
        db.schema_visited(schema)
    except DatabaseError as exc:
        logger.warning("posts list left to Django after a database error: %s", exc)
        if not connection.in_atomic_block:
            connection.close()  # a broken or restarted server: Django connects again
        return None
    if made.unsure:
        return None
    body = encode(made.reply)
    etag = etag_of(body)
    if version is not None:
        try:
            cache.store(schema=schema, version=version, kind=kind, qhash=qhash, etag=etag, body=body,
                        count_key=made.filter_key, total=None if made.total_kept else made.counted)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
    elif kept is not None and made.counted is not None and not made.total_kept:
        # The cache off: the reply is not kept, its total is (for the content version, as with it on).
        cache.Counts(schema, kept).set(made.filter_key, made.counted)
    return Built(body=body, etag=etag)
