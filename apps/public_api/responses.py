"""Cached JSON replies of the public content API, with ETag and Cache-Control.

A reply is looked up in Redis by (tenant, content version, key kind, path and query) before
anything is read from the database; on a miss it is built, encoded once and stored. The ETag is
a hash of the body, so `If-None-Match` is answered with 304 without building anything when the
entry is cached. Redis down: the reply is built uncached (and still carries its ETag).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import redis
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.http import HttpResponse, HttpResponseNotModified

from apps.core import redis_conn
from apps.public_api import cache
from apps.public_api.request import EdgeKeys, edge_tag_headers, reply_headers

HOST_UNKNOWN = "cms.public_api.host_unknown"  # set by the fast path: the host map lacks this host


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


def _reply(request, body: bytes, etag: str, if_none_match: str, cache_status: str, *,
           cached: bool = True, edge_reader=None) -> HttpResponse:
    modified = not etag_matches(if_none_match, etag)
    response = HttpResponse(body, content_type="application/json") if modified else HttpResponseNotModified()
    edge_tags = edge_tag_headers(connection.tenant.domain_url, request.auth.kind, request.auth.limit,
                                 request.META.get("QUERY_STRING", ""), body if modified else None,
                                 reader=edge_reader) if cached else []
    for name, value in [*reply_headers(etag, cache_status, cached=cached), *edge_tags]:
        response[name] = value
    return response


def remember_host(request, *, always: bool = False) -> None:
    """Let the fast path know this host (tracking calls; reads do it in their lookup)."""
    if (always or settings.PUBLIC_API_CACHE) and redis_conn.available():
        try:
            cache.host_remember(request.tenant.domain_url, request.tenant)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")


def cached_json(request, build: Callable[[str | None], dict], *,
                edge_reader: Callable[[bytes], EdgeKeys] | None = None) -> HttpResponse:
    """The reply of `build(version)` for this request, from the cache when it is there.
    `version` is the company's content version read with the lookup (None when the cache is
    off or Redis is down); builders may cache parts of the reply under it. `edge_reader`: what a
    body says to the cache tier, for bodies not of /api/v1's shapes (request.edge_tag_headers)."""
    kind = request.auth.kind
    schema = connection.schema_name
    qhash = cache.query_hash(request.path_info, request.META.get("QUERY_STRING", ""))
    if_none_match = request.headers.get("If-None-Match", "")
    version = None
    if not settings.PUBLIC_API_CACHE and request.META.get(HOST_UNKNOWN) and redis_conn.available():
        # Cache off: the fast path still builds posts lists, once the host map knows this host.
        remember_host(request, always=True)
    if settings.PUBLIC_API_CACHE and redis_conn.available():
        try:
            version, etag, body = cache.lookup(schema=schema, kind=kind, qhash=qhash, host=request.tenant.domain_url,
                                               client=request.tenant)
            if etag is not None and body is not None:
                return _reply(request, body, etag.decode(), if_none_match, "HIT", edge_reader=edge_reader)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
            version = None
    body = encode(build(version))
    etag = etag_of(body)
    if version is not None:
        try:
            cache.store(schema=schema, version=version, kind=kind, qhash=qhash, etag=etag, body=body)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API served uncached")
    return _reply(request, body, etag, if_none_match, "MISS", edge_reader=edge_reader)


def uncached_json(request, data: dict) -> HttpResponse:
    """A reply built for this request only and kept by no cache (a preview link's)."""
    body = encode(data)
    return _reply(request, body, etag_of(body), request.headers.get("If-None-Match", ""), "BYPASS", cached=False)
