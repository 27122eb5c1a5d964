"""Ghost posts lists that are not cached, built in the public API's WSGI layer
(apps.public_api.fastpath), as apps.public_api.direct builds /api/v1's.

For `GET /ghost/api/content/posts/` and `.../pages/` (what a website's list pages send) the query is read by the
same function as Django's (apps.ghost_api.query.parse), the fast path's Redis round trip checks the
Ghost key against the host map and takes the rate-limit entry, and this module builds the body
with the same function as Django's (apps.ghost_api.views.build_reply) on the host's schema,
storing it for the next request as Django does. Anything it is unsure of goes to Django, which
answers as it would without this layer: a query Django refuses (Ghost's 400 or 422), a company
row not found, a database error.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl

import redis
from django.db import DatabaseError, connection

from apps.core import db, languages, redis_conn
from apps.core.errors import ApplicationError
from apps.ghost_api import edge, query, shapes
from apps.ghost_api.errors import GhostError
from apps.ghost_api.nql import FilterError
from apps.ghost_api.selectors import Reads
from apps.ghost_api.views import build_reply
from apps.public_api import cache
from apps.public_api.encoding import encode, etag_of
from tenants.models import Client

logger = logging.getLogger(__name__)

_LIST_PATHS = {edge.PREFIX + "posts": "posts", edge.PREFIX + "pages": "pages"}  # pages are read as posts are
_MAX_QUERY = 4096


@lru_cache(maxsize=256)
def listing(path: str, query_string: str) -> query.GhostQuery | None:
    """The posts list a request asks for, when this layer can build it; else None (kept per
    worker by path and query: a GhostQuery never changes)."""
    resource = _LIST_PATHS.get(path.rstrip("/"))
    if resource is None or len(query_string) > _MAX_QUERY or not query_string.isascii():
        return None
    params: dict[str, list[str]] = {}
    for name, value in parse_qsl(query_string, keep_blank_values=True):  # as Django's QueryDict
        params.setdefault(name, []).append(value)
    try:
        return query.parse(resource, params)
    except GhostError:  # Django answers Ghost's 400 or 422
        return None


_KEPT: OrderedDict[tuple[str, str], tuple] = OrderedDict()  # (schema, content version) -> (company, reads)
_KEPT_MAX = 256


def _company(schema: str, version: str | None):
    """The company of `schema` and what a posts list reads besides its page (the authors, the
    company's languages), kept per worker for its content version: a write, or a change of its
    settings or languages, bumps the version (apps.core.subscribers); the lookup gives the version
    with the cache off too. Without one they are read each time."""
    kept = _KEPT.get((schema, version)) if version else None
    if kept is None:
        client = Client.objects.filter(schema_name=schema).first()
        kept = (client, Reads(languages=languages.of_client(client) if client is not None else None))
        if version and client is not None:
            _KEPT[(schema, version)] = kept
            while len(_KEPT) > _KEPT_MAX:
                _KEPT.popitem(last=False)
    return kept


@dataclass(frozen=True)
class Built:
    body: bytes
    etag: str


def build(wanted: query.GhostQuery, *, schema: str, version: str | None, kind: str, qhash: str,
          total: int | None = None, kept: str | None = None) -> Built | None:
    """The reply in `schema`, stored in the cache when `version` is given; None when Django must
    answer. (`total`: what the lookup kept of /api/v1 totals, which Ghost's pages do not use.)
    `kept`: the company's content version, also with the cache off: what this worker keeps of the
    company (its row, its authors, its tags' JSON) is kept by it."""
    # The page's statement names its tables without a schema: it runs on the company's search_path.
    if connection.schema_name != schema or not connection.search_path_set_schemas:
        connection.set_schema(schema)
    try:
        client, reads = _company(schema, version or kept)
        if client is None:
            return None
        reply = build_reply(wanted.resource, wanted, None, None, shapes.Site(client), client, reads=reads)
        db.schema_visited(schema)
    except (GhostError, FilterError, ApplicationError):  # Django answers it, in Ghost's shape
        return None
    except DatabaseError as exc:
        logger.warning("Ghost posts list left to Django after a database error: %s", exc)
        if not connection.in_atomic_block:
            connection.close()
        return None
    body = encode(reply)
    etag = etag_of(body)
    if version:
        try:
            cache.store(schema=schema, version=version, kind=kind, qhash=qhash, etag=etag, body=body)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
    return Built(body=body, etag=etag)
