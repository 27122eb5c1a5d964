"""Dashboard routes of the content app (docs/content.md): posts, pages, categories, tags and search.

Handlers validate with a schema, check the capability, call one service or selector and shape
the reply. Post permissions that depend on the post (own post, publishing) live in the services.
"""
from __future__ import annotations

from ninja import Query, Router, Schema

from apps.content import kinds, selectors, services
from apps.content.post_routes import Routes, add_content_routes
from apps.content.term_routes import Term, add_term_routes
from apps.content.schemas import (
    CategoryIn,
    CategoryListOut,
    CategoryOut,
    CategoryReplyOut,
    CategorySavedOut,
    CategoryUpdateIn,
    PageCreateIn,
    PageUpdateIn,
    PostCreateIn,
    PostSummaryOut,
    PostUpdateIn,
    SearchOut,
    SearchResultsOut,
    TagIn,
    TagListOut,
    TagOut,
    TagReplyOut,
    TagSavedOut,
    TagUpdateIn,
)
from apps.core.pagination import page_params
from apps.core.selectors import paginate
from apps.core.permissions import requires
from apps.core.schemas import PaginationOut

posts_router = Router(tags=["posts"])
pages_router = Router(tags=["pages"])
categories_router = Router(tags=["categories"])
tags_router = Router(tags=["tags"])
search_router = Router(tags=["search"])


# --- posts and pages (apps.content.post_routes: one implementation, the kind bound) ----------------
add_content_routes(posts_router, Routes(kinds.POST, create_in=PostCreateIn, update_in=PostUpdateIn))
add_content_routes(pages_router, Routes(kinds.PAGE, create_in=PageCreateIn, update_in=PageUpdateIn))


# --- categories ----------------------------------------------------------------------------------
@categories_router.get("", response=CategoryListOut)
@requires("content.read")
def list_categories(request):
    return CategoryListOut(categories=[CategoryOut.from_category(c) for c in selectors.category_list()])


# --- tags ----------------------------------------------------------------------------------------
class TagListQuery(Schema):
    page: int | None = None
    limit: int | None = None
    search: str | None = None


@tags_router.get("", response=TagListOut)
@requires("content.read")
def list_tags(request, filters: Query[TagListQuery]):
    page = page_params(filters.page, filters.limit, default_limit=10, max_limit=1000)
    tags, total = paginate(selectors.tag_list(search=filters.search), page)
    return TagListOut(tags=[TagOut.from_tag(tag) for tag in tags], pagination=PaginationOut(**page.meta(total)),
                      total=total)


add_term_routes(categories_router, Term(
    noun="category", get=selectors.category_get, create=services.category_create, update=services.category_update,
    delete=services.category_delete, out=CategoryOut.from_category, create_in=CategoryIn, update_in=CategoryUpdateIn,
    saved_out=CategorySavedOut, reply_out=CategoryReplyOut))
add_term_routes(tags_router, Term(
    noun="tag", get=selectors.tag_get, create=services.tag_create, update=services.tag_update,
    delete=services.tag_delete, out=TagOut.from_tag, create_in=TagIn, update_in=TagUpdateIn,
    saved_out=TagSavedOut, reply_out=TagReplyOut))


# --- search --------------------------------------------------------------------------------------
class SearchQueryParams(Schema):
    q: str | None = None
    types: str | None = None
    status: str | None = None
    dateRange: str | None = None


@search_router.get("", response=SearchOut)
@requires("content.read")
def search(request, params: Query[SearchQueryParams]):
    results = selectors.content_search(
        query=params.q, types=params.types, status=params.status, date_range=params.dateRange
    )
    return SearchOut(
        query=(params.q or "").strip(),
        results=SearchResultsOut(
            posts=PostSummaryOut.many(results["posts"]),
            categories=[CategoryOut.from_category(category) for category in results["categories"]],
            tags=[TagOut.from_tag(tag) for tag in results["tags"]],
        ),
    )


ROUTES = [
    ("/posts", posts_router),
    ("/pages", pages_router),
    ("/categories", categories_router),
    ("/tags", tags_router),
    ("/search", search_router),
]
