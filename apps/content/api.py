"""Dashboard routes of the content app (docs/content.md): posts, categories, tags and search.

Handlers validate with a schema, check the capability, call one service or selector and shape
the reply. Post permissions that depend on the post (own post, publishing) live in the services.
"""
from __future__ import annotations

from django.utils import timezone
from ninja import Query, Router, Schema

from apps.content import selectors, services
from apps.content.term_routes import Term, add_term_routes
from apps.content.schemas import (
    AutosaveIn,
    AutosaveOut,
    AutosaveReplyOut,
    CategoryIn,
    CategoryListOut,
    CategoryOut,
    CategoryReplyOut,
    CategorySavedOut,
    CategoryUpdateIn,
    DashboardPostOut,
    DashboardPostSummaryOut,
    PostBySlugOut,
    PostCreateIn,
    PostListOut,
    PostReplyOut,
    PostSavedOut,
    PostSummaryOut,
    PostUpdateIn,
    PreviewLinkListOut,
    PreviewLinkOut,
    PreviewLinkSavedOut,
    ReviewReturnIn,
    RevisionListOut,
    RevisionOut,
    RevisionReplyOut,
    RevisionSummaryOut,
    SearchOut,
    SearchResultsOut,
    TagIn,
    TagListOut,
    TagOut,
    TagReplyOut,
    TagSavedOut,
    TagUpdateIn,
)
from apps.core.api import atomic_reply
from apps.core.pagination import page_params
from apps.core.selectors import paginate
from apps.core.permissions import requires
from apps.core.schemas import MessageOut, PaginationOut
from tenants.addresses import tenant_base_url

posts_router = Router(tags=["posts"])
categories_router = Router(tags=["categories"])
tags_router = Router(tags=["tags"])
search_router = Router(tags=["search"])



# --- posts ---------------------------------------------------------------------------------------
class PostListQuery(Schema):
    page: int | None = None
    limit: int | None = None
    status: str | None = None
    search: str | None = None
    category: str | None = None
    tag: str | None = None
    review: str | None = None  # (+) "waiting": the posts waiting for review, longest waiting first


@posts_router.get("", response=PostListOut)
@requires("content.read")
def list_posts(request, filters: Query[PostListQuery]):
    page = page_params(filters.page, filters.limit, default_limit=10, max_limit=100)
    posts, total = paginate(selectors.post_list(
        status=filters.status, search=filters.search, category=filters.category, tag=filters.tag,
        review=filters.review,
    ), page)
    return PostListOut(
        posts=DashboardPostSummaryOut.many(posts),
        page=page.page,
        limit=page.limit,
        totalPosts=total,
        pagination=PaginationOut(**page.meta(total)),
    )


@requires("post.create", services.CANNOT_CREATE)
@atomic_reply
def _create_post(request, payload: PostCreateIn):
    post = services.post_create(author=request.auth, **payload.service_kwargs())
    return PostSavedOut(message="Post created successfully", post=DashboardPostOut.from_post(selectors.post_get(post.pk)))


# Declared before "/{post_id}": Django tries the URL patterns in order.
posts_router.post("/upload", response={201: PostSavedOut})(_create_post)
posts_router.post("", response={201: PostSavedOut}, operation_id="create_post_at_collection")(_create_post)


@posts_router.get("/slug/{slug}", response=PostBySlugOut)
@requires("content.read")
def get_post_by_slug(request, slug: str):
    return PostBySlugOut.from_post(selectors.post_get_by_slug(slug))


@posts_router.get("/{post_id}", response=PostReplyOut)
@requires("content.read")
def get_post(request, post_id: str):
    return PostReplyOut(post=DashboardPostOut.from_post(selectors.post_get(post_id)))


@posts_router.put("/{post_id}", response=PostSavedOut)
@requires("post.edit_own", services.CANNOT_EDIT)
@atomic_reply
def update_post(request, post_id: str, payload: PostUpdateIn):
    post = selectors.post_get(post_id)
    post = services.post_update(actor=request.auth, post=post, **payload.service_kwargs())
    return PostSavedOut(message="Post updated successfully", post=DashboardPostOut.from_post(selectors.post_get(post.pk)))


@posts_router.post("/{post_id}/review/request", response=PostSavedOut)
@requires("post.request_review", services.CANNOT_EDIT)
def request_review(request, post_id: str):
    """(+) The writer marks a draft ready for review (whoever may edit it)."""
    post = services.post_review_request(actor=request.auth, post=selectors.post_get(post_id))
    return PostSavedOut(message="Post submitted for review",
                        post=DashboardPostOut.from_post(selectors.post_get(post.pk)))


@posts_router.post("/{post_id}/review/return", response=PostSavedOut)
@requires("post.review", services.CANNOT_REVIEW)
def return_review(request, post_id: str, payload: ReviewReturnIn):
    """(+) An editor sends a waiting post back to its writer with a note."""
    post = services.post_review_return(actor=request.auth, post=selectors.post_get(post_id), note=payload.note)
    return PostSavedOut(message="Post sent back to the writer",
                        post=DashboardPostOut.from_post(selectors.post_get(post.pk)))


class RevisionListQuery(Schema):
    page: int | None = None
    limit: int | None = None


@posts_router.get("/{post_id}/revisions", response=RevisionListOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def list_revisions(request, post_id: str, filters: Query[RevisionListQuery]):
    """(+) The post's saves, newest first (whoever may edit the post)."""
    post = selectors.post_get(post_id)
    services.check_can_see_history(request.auth, post)
    page = page_params(filters.page, filters.limit, default_limit=20, max_limit=100)
    revisions, total = paginate(selectors.revision_list(post), page)
    return RevisionListOut(revisions=[RevisionSummaryOut.from_revision(r) for r in revisions],
                           pagination=PaginationOut(**page.meta(total)))


@posts_router.get("/{post_id}/revisions/{revision_id}", response=RevisionReplyOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def get_revision(request, post_id: str, revision_id: str):
    """(+) One revision with every field it kept."""
    post = selectors.post_get(post_id)
    services.check_can_see_history(request.auth, post)
    return RevisionReplyOut(revision=RevisionOut.from_revision(selectors.revision_get(post, revision_id)))


@posts_router.post("/{post_id}/revisions/{revision_id}/restore", response=PostSavedOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def restore_revision(request, post_id: str, revision_id: str):
    """(+) The post as the revision left it, saved as a new revision."""
    post = selectors.post_get(post_id)
    services.check_can_see_history(request.auth, post)
    revision = selectors.revision_get(post, revision_id)
    post = services.revision_restore(actor=request.auth, post=post, revision=revision)
    return PostSavedOut(message="Revision restored", post=DashboardPostOut.from_post(selectors.post_get(post.pk)))


# --- autosaved copies (+) ------------------------------------------------------------------------
NEW_POST = "new"  # /api/posts/new/autosave: the copy of a post not created yet


def _autosaved_post(post_id: str):
    return None if post_id == NEW_POST else selectors.post_get(post_id)


def _autosave_reply(autosave) -> AutosaveReplyOut:
    return AutosaveReplyOut(autosave=AutosaveOut.from_autosave(autosave) if autosave else None)


@posts_router.get("/{post_id}/autosave", response=AutosaveReplyOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def get_autosave(request, post_id: str):
    """(+) The caller's own unsaved copy of the post (`new`: of the post not created yet), or null."""
    post = _autosaved_post(post_id)
    services.check_can_autosave(request.auth, post)
    return _autosave_reply(selectors.autosave_get(user=request.auth, post=post))


@posts_router.put("/{post_id}/autosave", response=AutosaveReplyOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def put_autosave(request, post_id: str, payload: AutosaveIn):
    """(+) Keep the caller's unsaved copy; the post itself does not change. Saving the post clears it."""
    autosave = services.autosave_put(actor=request.auth, post=_autosaved_post(post_id), data=payload.fields,
                                     base_updated_at=payload.baseUpdatedAt)
    return _autosave_reply(autosave)


@posts_router.delete("/{post_id}/autosave", response=MessageOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def delete_autosave(request, post_id: str):
    """(+) Discard the caller's unsaved copy."""
    services.autosave_discard(actor=request.auth, post=_autosaved_post(post_id))
    return MessageOut(message="Unsaved changes discarded")


# --- preview links (+) ---------------------------------------------------------------------------
def _link_out(request, link) -> PreviewLinkOut:
    return PreviewLinkOut.from_link(link, now=timezone.now(), base_url=tenant_base_url(request.tenant.subdomain))


@posts_router.get("/{post_id}/preview-links", response=PreviewLinkListOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def list_preview_links(request, post_id: str):
    """(+) The post's preview links, newest first (whoever may edit the post)."""
    post = selectors.post_get(post_id)
    services.check_can_see_history(request.auth, post)
    return PreviewLinkListOut(links=[_link_out(request, link) for link in selectors.preview_link_list(post)])


@posts_router.post("/{post_id}/preview-links", response={201: PreviewLinkSavedOut})
@requires("post.edit_own", services.CANNOT_EDIT)
def create_preview_link(request, post_id: str):
    """(+) A link that reads this draft or scheduled post through the public API, for PREVIEW_LINK_DAYS."""
    link = services.preview_link_create(actor=request.auth, post=selectors.post_get(post_id))
    return 201, PreviewLinkSavedOut(message="Preview link created", link=_link_out(request, link))


@posts_router.delete("/{post_id}/preview-links/{link_id}", response=PreviewLinkSavedOut)
@requires("post.edit_own", services.CANNOT_EDIT)
def revoke_preview_link(request, post_id: str, link_id: str):
    """(+) The link stops working at once."""
    post = selectors.post_get(post_id)
    services.check_can_see_history(request.auth, post)
    link = services.preview_link_revoke(actor=request.auth, post=post,
                                        link=selectors.preview_link_get(post, link_id))
    return PreviewLinkSavedOut(message="Preview link revoked", link=_link_out(request, link))


@posts_router.delete("/{post_id}", response=MessageOut)
@requires("post.delete_own", services.CANNOT_DELETE)
def delete_post(request, post_id: str):
    services.post_delete(actor=request.auth, post=selectors.post_get(post_id))
    return MessageOut(message="Post deleted successfully")


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
    ("/categories", categories_router),
    ("/tags", tags_router),
    ("/search", search_router),
]
