"""The public content API (docs/api/public.md), mounted at /api/v1 on every tenant host, x-api-key auth.

GET  posts                   page, limit (<= 100), status (published; others need the preview key), search
GET  posts/slug/{slug}       a published post (any status with the preview key); a members-only
                             post's content with a member's X-Member-Token only
GET  posts/category/{slug}   page, limit, status: posts of a category
GET  posts/tag/{slug}        page, limit, status: posts of a tag
GET  pages                   page, limit, status, search: the pages (About, Contact...), never among posts
GET  pages/slug/{slug}       a published page (any status with the preview key)
GET  preview/{token}          the post of a preview link (a draft or scheduled post), never cached
GET  categories, tags        with their published post counts
GET  settings                the company's site settings (title, images, navigation, social accounts...)
GET  redirects               old addresses of imported published posts -> their slugs (for 301s)
POST analytics/track         a page view of the website (not rate limited; never an error
                             status for a well-formed body)

Thin handlers: every rule of a public request (query, key, rate limit, bodies, headers) is in
apps.public_api.request, which the WSGI layer in front of Django (apps.public_api.fastpath)
follows too. Every GET reply is cached in Redis (apps.public_api.responses) and carries ETag
and Cache-Control; cache hits are usually answered before Django by the fast path. A post or
page read with a valid member token (X-Member-Token: docs/content.md#members-only-posts) is
built for that request and kept by no cache.
"""
from __future__ import annotations

from django.db import connection
from ninja import Router

from apps.analytics.tracking import TrackIn, TrackOut, track_request
from apps.core.api import query_parameters
from apps.portability.selectors import redirects
from apps.public_api import request as public
from apps.public_api import selectors
from apps.public_api.auth import api_key_auth, tracking_key_auth
from apps.public_api.responses import cached_json, remember_host, uncached_json
from apps.content import kinds
from apps.public_api.schemas import (CategoriesReply, PageReply, PagesReply, PostReply, PostsReply, RedirectsReply,
                                     TagsReply)
from apps.site.public_schemas import PublicSettingsReply
from apps.site.selectors import public_settings

router = Router(tags=["public content"], auth=api_key_auth)
# The query is read by apps.public_api.request.parse_list (as the fast path reads it); these
# document it.
_POSTS_QUERY = {"parameters": query_parameters(public.PostsQuery)}
_PAGE_QUERY = {"parameters": query_parameters(public.PageQuery)}
# The handlers answer cached bytes (an HttpResponse, which ninja does not validate); `response=`
# documents their shape (apps.public_api.schemas).


def _posts(request, term: tuple[str, str] | None = None, kind: str = kinds.POST.name):
    wanted = public.parse_list(dict(request.GET.lists()), term=term, kind=kind)
    public.check_may_read(wanted, request.auth)
    return cached_json(request, lambda version: public.list_reply(wanted, schema=connection.schema_name,
                                                                  version=version))


@router.get("/posts", response=PostsReply, openapi_extra=_POSTS_QUERY)
def list_posts(request):
    return _posts(request)


# A post's or page's read also takes a member's token (documented here; read by request.reader_is_member).
_MEMBER_HEADER = {"name": public.MEMBER_HEADER, "in": "header", "required": False, "schema": {"type": "string"},
                  "description": "A member's token (POST /api/v1/members/session): a members-only post's `content` "
                                 "is sent with a valid one of this company only, in a reply no cache keeps"}
_SLUG_QUERY = {"parameters": [*query_parameters(public.LocaleQuery), _MEMBER_HEADER]}


def _by_slug(request, slug: str, kind: str):
    published_only = not request.auth.is_preview
    locale = public.parse_locale(request.GET.get("locale"))
    if public.reader_is_member(request):  # a members-only body: built for this request, kept by no cache
        return uncached_json(request, public.post_by_slug_reply(slug, locale=locale, published_only=published_only,
                                                                kind=kind, member=True))
    return cached_json(
        request, lambda _: public.post_by_slug_reply(slug, locale=locale, published_only=published_only, kind=kind))


@router.get("/posts/slug/{slug}", response=PostReply, openapi_extra=_SLUG_QUERY)
def get_post_by_slug(request, slug: str):
    return _by_slug(request, slug, kinds.POST.name)


@router.get("/posts/category/{slug}", response=PostsReply, openapi_extra=_PAGE_QUERY)
def list_posts_by_category(request, slug: str):
    return _posts(request, ("category", slug))


@router.get("/posts/tag/{slug}", response=PostsReply, openapi_extra=_PAGE_QUERY)
def list_posts_by_tag(request, slug: str):
    return _posts(request, ("tag", slug))


@router.get("/pages", response=PagesReply, openapi_extra=_POSTS_QUERY)
def list_pages(request):
    """(+) The pages (apps.content.kinds): the posts' rules, their own list."""
    return _posts(request, kind=kinds.PAGE.name)


@router.get("/pages/slug/{slug}", response=PageReply, openapi_extra=_SLUG_QUERY)
def get_page_by_slug(request, slug: str):
    """(+) A published page (any status with the preview key); `?locale=` as a post's."""
    return _by_slug(request, slug, kinds.PAGE.name)


@router.get("/preview/{token}", response=PostReply)
def get_preview(request, token: str):
    return uncached_json(request, public.preview_reply(token))


_LOCALE_QUERY = {"parameters": query_parameters(public.LocaleQuery)}


@router.get("/categories", response=CategoriesReply, openapi_extra=_LOCALE_QUERY)
def list_categories(request):
    locale = public.parse_locale(request.GET.get("locale"))
    return cached_json(request, lambda _: public.categories_reply(selectors.categories(), locale=locale))


@router.get("/tags", response=TagsReply, openapi_extra=_LOCALE_QUERY)
def list_tags(request):
    locale = public.parse_locale(request.GET.get("locale"))
    return cached_json(request, lambda _: public.tags_reply(selectors.tags(), locale=locale))


@router.get("/settings", response=PublicSettingsReply)
def get_settings(request):
    """(+) The site settings (docs/company-settings.md#site-settings), cached like every read."""
    tenant = request.tenant
    return cached_json(request, lambda _: {"success": True, "message": "Settings retrieved successfully",
                                           "data": {"settings": public_settings(tenant)}})


@router.get("/redirects", response=RedirectsReply)
def list_redirects(request):
    return cached_json(request, lambda _: public.redirects_reply(redirects()))


@router.post("/analytics/track", auth=tracking_key_auth, response=TrackOut)
def track(request, payload: TrackIn):
    remember_host(request)
    return track_request(request, payload)


ROUTES = [("", router)]
