"""Django's side of a public read: the ninja routes' adapter over apps.public_api.core.

A ninja handler gives its request and what builds its reply; this module turns the request into
the core's plain `Ask`, and the core's `Reply` (status, headers, body) into an HttpResponse, to
which Django's middleware then adds the request id, security and CORS headers. The rules (the
cache's lookup and store, ETags and 304s, the reply headers) are the core's.
"""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse, HttpResponseNotModified

from apps.public_api import core, keys
from apps.public_api.encoding import accepts_gzip
from apps.public_api.encoding import encode, etag_matches, etag_of  # noqa: F401 (the names replies are made with)
from apps.public_api.request import EdgeKeys

HOST_UNKNOWN = keys.HOST_UNKNOWN


def ask_of(request) -> core.Ask:
    """The plain data the core reads of a request Django's middleware has put on a company."""
    return core.Ask(host=request.tenant.domain_url, path=request.path_info, query=request.META.get("QUERY_STRING", ""),
                    key=None, if_none_match=request.headers.get("If-None-Match", ""),
                    host_unknown=bool(request.META.get(HOST_UNKNOWN)),
                    gzip=accepts_gzip(request.headers.get("Accept-Encoding")))


def http_response(reply: core.Reply) -> HttpResponse:
    if reply.status == 304:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(reply.body, status=reply.status, content_type="application/json")
    for name, value in reply.headers:
        if name != "Content-Type":
            response[name] = value
    return response


def remember_host(request, *, always: bool = False) -> None:
    """Let the fast path know this host (tracking calls; reads do it in their lookup)."""
    core.remember_host(request.tenant.domain_url, request.tenant, always=always)


def cached_json(request, build: Callable[[str | None], dict], *,
                edge_reader: Callable[[bytes], EdgeKeys] | None = None) -> HttpResponse:
    """The reply of `build(version)` for this request, from the cache when it is there (core.cached)."""
    return http_response(core.cached(ask_of(request), request.auth, schema=request.tenant.schema_name,
                                     tenant=request.tenant, build=build, edge_reader=edge_reader))


def uncached_json(request, data: dict) -> HttpResponse:
    """A reply built for this request only and kept by no cache (a preview link's, a member's read of a
    post: docs/content.md#members-only-posts)."""
    return http_response(core.uncached(ask_of(request), request.auth, data))
