"""The public content API (API.md), mounted at /api/v1 on every tenant host, x-api-key auth.

GET  posts                   page, limit (<= 100), status (published; others need the preview key), search
GET  posts/slug/{slug}       a published post (any status with the preview key)
GET  posts/category/{slug}   page, limit, status: posts of a category
GET  posts/tag/{slug}        page, limit, status: posts of a tag
GET  categories, tags        with their published post counts
POST analytics/track         a page view of the website (not rate limited; never an error
                             status for a well-formed body)
Every GET reply is cached in Redis (apps.public_api.responses) and carries ETag and
Cache-Control; cache hits are usually answered before Django by apps.public_api.fastpath.
"""
from __future__ import annotations

from django.db import connection
from ninja import Query, Router

from apps.analytics.api import track_request
from apps.analytics.schemas import TrackIn
from apps.core.pagination import page_params
from apps.public_api import schemas, selectors
from apps.public_api.auth import api_key_auth, tracking_key_auth
from apps.public_api.cache import Counts
from apps.public_api.responses import cached_json, remember_host

router = Router(tags=["public content"], auth=api_key_auth)


def _posts(request, query, **filters):
    page = page_params(query.page, query.limit, default_limit=10, max_limit=100)
    status = schemas.clean_status(query.status, request.auth)

    def build(version: str | None) -> dict:
        resolved = dict(filters)
        if version is not None:
            resolved["counts"] = Counts(connection.schema_name, version)
        if "category" in resolved:
            resolved["category_id"] = selectors.category_id_by_slug(resolved.pop("category"))
        if "tag" in resolved:
            resolved["tag_id"] = selectors.tag_id_by_slug(resolved.pop("tag"))
        posts, total = selectors.posts_page(page=page, status=status, **resolved)
        return schemas.posts_reply(posts, page.meta(total))

    return cached_json(request, build)


@router.get("/posts")
def list_posts(request, query: Query[schemas.PostsQuery]):
    return _posts(request, query, search=query.search)


@router.get("/posts/slug/{slug}")
def get_post_by_slug(request, slug: str):
    published_only = not request.auth.is_preview
    return cached_json(
        request, lambda _: schemas.post_reply(selectors.post_by_slug(slug, published_only=published_only))
    )


@router.get("/posts/category/{slug}")
def list_posts_by_category(request, slug: str, query: Query[schemas.PageQuery]):
    return _posts(request, query, category=slug)


@router.get("/posts/tag/{slug}")
def list_posts_by_tag(request, slug: str, query: Query[schemas.PageQuery]):
    return _posts(request, query, tag=slug)


@router.get("/categories")
def list_categories(request):
    return cached_json(request, lambda _: schemas.categories_reply(selectors.categories()))


@router.get("/tags")
def list_tags(request):
    return cached_json(request, lambda _: schemas.tags_reply(selectors.tags()))


@router.post("/analytics/track", auth=tracking_key_auth)
def track(request, payload: TrackIn):
    remember_host(request)
    return track_request(request, payload)


ROUTES = [("", router)]
