"""The Ghost-compatible Content API (Ghost 5), read-only, under /ghost/api/content/ on every company
host (docs/coming-from-ghost.md).

One implementation with the public content API: the key is checked (`request.identify`, with the
company's Ghost content key), counted against the same per-key rate limit (`request.count`), the
reply is cached in Redis with its ETag and served with the same cache headers and surrogate keys
(`responses.cached_json`), and only published posts are read (`Post.objects.public()`). This
module only reads Ghost's query (apps.ghost_api.query) and writes Ghost's shapes
(apps.ghost_api.shapes) and errors (apps.ghost_api.errors).

`Accept-Version` is accepted (any value) and answered with `Content-Version: v5.0`, as Ghost
answers it with its own version.

A members-only post (docs/content.md#members-only-posts) is shown to everyone as Ghost shows a
gated post to a visitor (apps.ghost_api.shapes.post: `access` false, no `html`); a posts or pages
read with a valid member token of the company (X-Member-Token, as on /api/v1) gets its body, in
a reply built for that request and kept by no cache.

Cache hits are usually answered before Django by the public API's WSGI layer
(apps.public_api.fastpath, with apps.ghost_api.edge), with the same bytes and headers.
"""
from __future__ import annotations

import logging

from django.utils.cache import patch_vary_headers

from apps.accounts.profiles import author_name
from apps.content import kinds
from apps.core.api import BROKER_DOWN, BROKER_RETRY_AFTER, is_broker_outage
from apps.core.errors import ApplicationError
from apps.core.middleware import DATABASE_DOWN, DATABASE_ERRORS, DATABASE_RETRY_AFTER
from apps.core.text import TextRefused, input_text
from apps.ghost_api import errors, ids, query, selectors, shapes
from apps.ghost_api.edge import CONTENT_VERSION, VARY, edge_keys
from apps.ghost_api.errors import GhostError
from apps.ghost_api.nql import FilterError
from apps.integrations import selectors as integration_selectors
from apps.public_api import core
from apps.public_api import keys as public_keys
from apps.public_api.request import reader_is_member
from apps.public_api.responses import cached_json, uncached_json

logger = logging.getLogger(__name__)

NOT_FOUND = {"posts": "Post not found.", "pages": "Page not found.", "tags": "Tag not found.",
             "authors": "Author not found.", "users": "User not found."}  # users: the Admin API's
UNAVAILABLE = "This site's content is not available"


def content(request, resource: str, ident: str | None = None, slug: str | None = None):
    try:
        reply = _answer(request, resource, ident, slug)
    except GhostError as exc:
        reply = errors.response(exc)
    except FilterError as exc:
        reply = errors.response(errors.bad_request(errors.FILTER_ERROR, str(exc)))
    except ApplicationError as exc:
        reply = errors.response(errors.from_application(exc))
    except DATABASE_ERRORS as exc:
        logger.error("Database unavailable on %s %s: %s", request.method, request.path, exc)
        reply = errors.response(GhostError(503, DATABASE_DOWN, retry_after=int(DATABASE_RETRY_AFTER)))
    except Exception as exc:
        if not is_broker_outage(exc):
            raise
        reply = errors.response(GhostError(503, BROKER_DOWN, retry_after=int(BROKER_RETRY_AFTER)))
    if request.META.get("HTTP_ACCEPT_VERSION") is not None:
        reply["Content-Version"] = CONTENT_VERSION
    patch_vary_headers(reply, [VARY])
    return reply


def not_found(request, rest: str = ""):
    """Anything else under /ghost/api/: Ghost's 404."""
    return content(request, "", None, None)


def _answer(request, resource: str, ident: str | None, slug: str | None):
    if request.method not in ("GET", "HEAD"):
        raise GhostError(405, "Method not allowed")
    tenant = getattr(request, "tenant", None)
    if tenant is None or not resource:
        raise errors.not_found()
    if not tenant.may_syndicate:  # suspended, or its email not verified yet: as /api/v1 (tenants.middleware)
        raise GhostError(403, UNAVAILABLE)
    keys = request.GET.getlist("key")
    if len(keys) > 1:
        raise errors.bad_request("Invalid request", "The key parameter is given more than once")
    if not keys or not keys[0]:
        raise GhostError(403, errors.NO_KEY, context=errors.NO_KEY_CONTEXT)
    api_key = core.admit(tenant, keys[0], counted=bool(request.META.get(public_keys.COUNTED)), ghost=True,
                         also=_integration_key)
    wanted = query.parse(resource, dict(request.GET.lists()))
    for value in (ident, slug):
        _must_name_a_row(resource, value)
    if ident is not None:
        ident = ident.lower()  # Ghost's validator takes either case
        if not ids.is_ghost_id(ident):
            raise errors.validation("matches", "id")
    request.auth = api_key
    site = shapes.Site(tenant)
    if resource in ("posts", "pages") and reader_is_member(request):
        # A member's reply holds members-only bodies: built for this request, kept by no cache.
        return uncached_json(request, build_reply(resource, wanted, ident, slug, site, tenant, member=True))
    # Replies show the company's settings too (name, addresses, time zone): a change of them bumps
    # the content version like a content write (apps.core.subscribers).
    return cached_json(request, lambda version: build_reply(resource, wanted, ident, slug, site, tenant),
                       edge_reader=edge_keys)


def _integration_key(key: str) -> bool:
    """An integration's Content API key (apps.integrations: the company's own Ghost content key is
    the company's, checked first)."""
    return integration_selectors.content_key_integration(key) is not None


def _must_name_a_row(resource: str, value: str | None) -> None:
    """Ghost's 404 for a slug or id no row can have: text that PostgreSQL cannot hold (a NUL, an
    unpaired surrogate; the input rule of apps.core.text) is never looked up."""
    if value is None:
        return
    try:
        input_text(value)
    except TextRefused:
        raise errors.not_found(NOT_FOUND.get(resource, errors.NOT_FOUND)) from None


# --- the replies ---------------------------------------------------------------------------------
def build_reply(resource, wanted: query.GhostQuery, ident, slug, site: shapes.Site, tenant, *,
                reads: selectors.Reads | None = None, member: bool = False) -> dict:
    """The reply of a request (Django's path, and posts lists in the WSGI layer: apps.ghost_api.direct,
    which may give the `reads` it keeps for the company's content version)."""
    reads = reads or selectors.Reads(counts=resource == "authors" and "count.posts" in wanted.include)
    if resource in ("posts", "pages"):  # Ghost's page object is its post object (apps.content.kinds)
        return _posts(wanted, ident, slug, site, reads, kinds.POST if resource == "posts" else kinds.PAGE, member=member)
    if resource == "tags":
        return _rows("tags", wanted, ident, slug, reads.tags, lambda term: {
            "slug": term.slug, "name": term.name, "id": ids.ghost_id(term.row_id)},
            lambda page: _tag_replies(page, wanted, site))
    if resource == "authors":
        return _rows("authors", wanted, ident, slug, reads.authors, lambda found: {
            "slug": found.slug, "name": author_name(found.user.display_name, found.user.username),
            "id": ids.ghost_id(found.user.id)},
            lambda page: [shapes.only(shapes.author(found, site, with_count="count.posts" in wanted.include), wanted)
                          for found in page])
    if resource == "settings":
        return {"settings": shapes.only(shapes.settings(tenant, site), wanted), "meta": {}}
    if resource == "tiers":
        tiers = [shapes.only(shapes.free_tier(tenant, site), wanted)] if wanted.page == 1 else []
        return {"tiers": tiers, "meta": {"pagination": wanted.pagination(1)}}
    raise errors.not_found()


def _posts(wanted, ident, slug, site, reads, kind: kinds.Kind = kinds.POST, *, member: bool = False) -> dict:
    """Posts, or pages (`kind`): each resource reads its own rows only, in the company's default
    language or along `locale`'s chain (docs/translations.md)."""
    images = shapes.Images()
    if ident is not None or slug is not None:
        row = selectors.post_read(reads, ghost_id=ident, slug=slug, kind=kind, locale=wanted.locale)
        if row is None:
            raise errors.not_found(NOT_FOUND[kind.plural])
        return {kind.plural: [shapes.post(row, wanted, site=site, reads=reads, images=images, member=member)]}
    rows, total = selectors.posts_page(reads, filter_tree=wanted.filter_tree, order=wanted.order,
                                       offset=wanted.offset, limit=wanted.limit, kind=kind, locale=wanted.locale)
    return {kind.plural: [shapes.post(row, wanted, site=site, reads=reads, images=images, member=member)
                          for row in rows],
            "meta": {"pagination": wanted.pagination(total)}}


def _rows(resource, wanted, ident, slug, rows, row_of, replies) -> dict:
    """Tags or authors (a company's few, in memory): filtered, ordered, paged, or one by id or slug."""
    if ident is not None or slug is not None:
        match = [row for row in rows if (row_of(row)["id"] == ident if ident is not None
                                         else row_of(row)["slug"] == slug.strip().lower())]
        if not match:
            raise errors.not_found(NOT_FOUND[resource])
        return {resource: replies(match[:1])}
    condition = selectors.row_filter(wanted.filter_tree)
    if condition is not None:
        rows = [row for row in rows if selectors.matches(condition, row_of(row))]
    for field, descending in reversed(wanted.order):
        rows = sorted(rows, key=lambda row: str(row_of(row)[field]).lower(), reverse=descending)
    page = rows[wanted.offset:wanted.offset + wanted.limit]
    return {resource: replies(page), "meta": {"pagination": wanted.pagination(len(rows))}}


def _tag_replies(page, wanted, site) -> list[dict]:
    counts = selectors.tag_post_counts([term.slug for term in page]) if "count.posts" in wanted.include else None
    return [shapes.only(shapes.tag(term, site, count=counts[term.slug] if counts is not None else None), wanted)
            for term in page]
