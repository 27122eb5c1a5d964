"""The routes of a content kind (apps.content.kinds): one implementation, registered for posts on
/api/posts and for pages on /api/pages (docs/content.md). Both take the same permissions (the
`post.*` capabilities), the same request and reply shapes (a page's create and update need no
category) and answer with messages that differ only by the noun. A row of the other kind is 404.

No `from __future__ import annotations` here: ninja reads each handler's payload type from its
annotations, which come from the configuration."""
from dataclasses import dataclass

from django.utils import timezone
from ninja import Path, Query, Router, Schema

from apps.content import selectors, services
from apps.content.kinds import Kind
from apps.content.schemas import (
    AutosaveIn,
    AutosaveOut,
    AutosaveReplyOut,
    DashboardPostOut,
    DashboardPostSummaryOut,
    PostBySlugOut,
    PostListOut,
    PostReplyOut,
    PostSavedOut,
    PreviewLinkListOut,
    PreviewLinkOut,
    PreviewLinkSavedOut,
    ReviewReturnIn,
    RevisionListOut,
    RevisionOut,
    RevisionReplyOut,
    RevisionSummaryOut,
    TranslationIn,
)
from apps.core.api import atomic_reply
from apps.core.pagination import page_params
from apps.core.permissions import requires
from apps.core.schemas import MessageOut, PaginationOut
from apps.core.selectors import paginate
from tenants.addresses import tenant_base_url

NEW = "new"  # /api/posts/new/autosave, /api/pages/new/autosave: the copy of a row not created yet


class PostListQuery(Schema):
    page: int | None = None
    limit: int | None = None
    status: str | None = None
    search: str | None = None
    category: str | None = None
    tag: str | None = None
    review: str | None = None  # (+) "waiting": the posts waiting for review, longest waiting first
    language: str | None = None  # (+) the posts in this language (docs/translations.md)
    missing: str | None = None  # (+) the posts without a translation in this language


class RevisionListQuery(Schema):
    page: int | None = None
    limit: int | None = None


class PostDeleteQuery(Schema):
    # (+) A default-language post with translations: "delete" deletes them too ...
    translations: str | None = None
    promote: str | None = None  # (+) ... or this language's translation becomes the default-language post


@dataclass(frozen=True)
class Routes:
    kind: Kind
    create_in: type  # the create payload (PostCreateIn; a page's: no category needed)
    update_in: type


# Each route's name (its OpenAPI operation id is `apps_content_api_<name>`, the posts' as they
# always were; a page's names say "page"), summary and description, `{noun}` the kind's.
_DOCS = {
    "list_posts": ("List Posts", None),
    "_create_post": ("Create Post", None),
    "create_post_at_collection": ("Create Post", None),
    "get_post_by_slug": ("Get Post By Slug", None),
    "get_post": ("Get Post", None),
    "update_post": ("Update Post", None),
    "request_review": ("Request Review", "(+) The writer marks a draft ready for review (whoever may edit it)."),
    "return_review": ("Return Review", "(+) An editor sends a waiting {noun} back to its writer with a note."),
    "list_revisions": ("List Revisions", "(+) The {noun}'s saves, newest first (whoever may edit the {noun})."),
    "get_revision": ("Get Revision", "(+) One revision with every field it kept."),
    "restore_revision": ("Restore Revision", "(+) The {noun} as the revision left it, saved as a new revision."),
    "get_autosave": ("Get Autosave", "(+) The caller's own unsaved copy of the {noun} (`new`: of the {noun} not "
                                     "created yet), or null."),
    "put_autosave": ("Put Autosave", "(+) Keep the caller's unsaved copy; the {noun} itself does not change. Saving "
                                     "the {noun} clears it."),
    "delete_autosave": ("Delete Autosave", "(+) Discard the caller's unsaved copy."),
    "list_preview_links": ("List Preview Links", "(+) The {noun}'s preview links, newest first (whoever may edit "
                                                 "the {noun})."),
    "create_preview_link": ("Create Preview Link", "(+) A link that reads this draft or scheduled {noun} through the "
                                                   "public API, for PREVIEW_LINK_DAYS."),
    "revoke_preview_link": ("Revoke Preview Link", "(+) The link stops working at once."),
    "delete_post": ("Delete Post", None),
    "add_translation": ("Add Translation", "(+) A draft copy of the {noun} in another of the company's languages "
                                           "(same translation group, same categories and tags); 409 "
                                           "`translation_exists` when the group has that language."),
}


def add_content_routes(router: Router, routes: Routes) -> None:
    """Registers the calls of one content kind on its router (Django tries the URL patterns in
    order: `/upload` and `/slug/{slug}` come before `/{id}`)."""
    kind = routes.kind
    noun, label = kind.name, kind.label
    id_path = f"/{{{noun}_id}}"
    row_id = Path(..., alias=f"{noun}_id")

    def operation(name: str) -> dict:
        summary, description = _DOCS[name]
        own = name if noun == "post" else name.replace("post", noun) if "post" in name else f"{name}_{noun}"
        found = {"operation_id": own if name == "create_post_at_collection" else f"apps_content_api_{own}",
                 "summary": summary.replace("Post", label)}
        if description:
            found["description"] = description.format(noun=noun)
        return found

    def get(row_id_value: str):
        return selectors.post_get(row_id_value, kind=kind)

    def full(post) -> DashboardPostOut:
        return DashboardPostOut.from_post(selectors.post_get(post.pk, kind=kind))

    @router.get("", response=PostListOut, **operation("list_posts"))
    @requires("content.read")
    def list_rows(request, filters: Query[PostListQuery]):
        page = page_params(filters.page, filters.limit, default_limit=10, max_limit=100)
        rows, total = paginate(selectors.post_list(
            status=filters.status, search=filters.search, category=filters.category, tag=filters.tag,
            review=filters.review, language=filters.language, missing=filters.missing, kind=kind,
        ), page)
        return PostListOut(
            posts=DashboardPostSummaryOut.many(rows),
            page=page.page,
            limit=page.limit,
            totalPosts=total,
            pagination=PaginationOut(**page.meta(total)),
        )

    create_in = routes.create_in

    @requires("post.create", services.CANNOT_CREATE)
    @atomic_reply
    def create(request, payload: create_in):
        post = services.post_create(author=request.auth, kind=kind, **payload.service_kwargs())
        return PostSavedOut(message=f"{label} created successfully", post=full(post))

    router.post("/upload", response={201: PostSavedOut}, **operation("_create_post"))(create)
    router.post("", response={201: PostSavedOut}, **operation("create_post_at_collection"))(create)

    @router.get("/slug/{slug}", response=PostBySlugOut, **operation("get_post_by_slug"))
    @requires("content.read")
    def get_by_slug(request, slug: str):
        return PostBySlugOut.from_post(selectors.post_get_by_slug(slug, kind=kind))

    @router.get(id_path, response=PostReplyOut, **operation("get_post"))
    @requires("content.read")
    def get_one(request, *, post_id: str = row_id):
        return PostReplyOut(post=DashboardPostOut.from_post(get(post_id)))

    update_in = routes.update_in

    @router.put(id_path, response=PostSavedOut, **operation("update_post"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    @atomic_reply
    def update(request, *, post_id: str = row_id, payload: update_in):
        post = services.post_update(actor=request.auth, post=get(post_id), **payload.service_kwargs())
        return PostSavedOut(message=f"{label} updated successfully", post=full(post))

    @router.post(f"{id_path}/review/request", response=PostSavedOut, **operation("request_review"))
    @requires("post.request_review", services.CANNOT_EDIT)
    def request_review(request, *, post_id: str = row_id):
        post = services.post_review_request(actor=request.auth, post=get(post_id))
        return PostSavedOut(message=f"{label} submitted for review", post=full(post))

    @router.post(f"{id_path}/review/return", response=PostSavedOut, **operation("return_review"))
    @requires("post.review", services.CANNOT_REVIEW)
    def return_review(request, *, post_id: str = row_id, payload: ReviewReturnIn):
        post = services.post_review_return(actor=request.auth, post=get(post_id), note=payload.note)
        return PostSavedOut(message=f"{label} sent back to the writer", post=full(post))

    @router.get(f"{id_path}/revisions", response=RevisionListOut, **operation("list_revisions"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def list_revisions(request, *, post_id: str = row_id, filters: Query[RevisionListQuery]):
        post = get(post_id)
        services.check_can_see_history(request.auth, post)
        page = page_params(filters.page, filters.limit, default_limit=20, max_limit=100)
        revisions, total = paginate(selectors.revision_list(post), page)
        return RevisionListOut(revisions=[RevisionSummaryOut.from_revision(r) for r in revisions],
                               pagination=PaginationOut(**page.meta(total)))

    @router.get(f"{id_path}/revisions/{{revision_id}}", response=RevisionReplyOut, **operation("get_revision"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def get_revision(request, *, post_id: str = row_id, revision_id: str):
        post = get(post_id)
        services.check_can_see_history(request.auth, post)
        return RevisionReplyOut(revision=RevisionOut.from_revision(selectors.revision_get(post, revision_id)))

    @router.post(f"{id_path}/revisions/{{revision_id}}/restore", response=PostSavedOut,
                 **operation("restore_revision"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def restore_revision(request, *, post_id: str = row_id, revision_id: str):
        post = get(post_id)
        services.check_can_see_history(request.auth, post)
        revision = selectors.revision_get(post, revision_id)
        post = services.revision_restore(actor=request.auth, post=post, revision=revision)
        return PostSavedOut(message="Revision restored", post=full(post))

    # autosaved copies (+)
    def autosaved(post_id: str):
        return None if post_id == NEW else get(post_id)

    def autosave_reply(autosave) -> AutosaveReplyOut:
        return AutosaveReplyOut(autosave=AutosaveOut.from_autosave(autosave) if autosave else None)

    @router.get(f"{id_path}/autosave", response=AutosaveReplyOut, **operation("get_autosave"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def get_autosave(request, *, post_id: str = row_id):
        post = autosaved(post_id)
        services.check_can_autosave(request.auth, post)
        return autosave_reply(selectors.autosave_get(user=request.auth, post=post, kind=kind))

    @router.put(f"{id_path}/autosave", response=AutosaveReplyOut, **operation("put_autosave"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def put_autosave(request, *, post_id: str = row_id, payload: AutosaveIn):
        autosave = services.autosave_put(actor=request.auth, post=autosaved(post_id), data=payload.fields,
                                         base_updated_at=payload.baseUpdatedAt, kind=kind)
        return autosave_reply(autosave)

    @router.delete(f"{id_path}/autosave", response=MessageOut, **operation("delete_autosave"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def delete_autosave(request, *, post_id: str = row_id):
        services.autosave_discard(actor=request.auth, post=autosaved(post_id), kind=kind)
        return MessageOut(message="Unsaved changes discarded")

    # preview links (+)
    def link_out(request, link) -> PreviewLinkOut:
        return PreviewLinkOut.from_link(link, now=timezone.now(), base_url=tenant_base_url(request.tenant.subdomain))

    @router.get(f"{id_path}/preview-links", response=PreviewLinkListOut, **operation("list_preview_links"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def list_preview_links(request, *, post_id: str = row_id):
        post = get(post_id)
        services.check_can_see_history(request.auth, post)
        return PreviewLinkListOut(links=[link_out(request, link) for link in selectors.preview_link_list(post)])

    @router.post(f"{id_path}/preview-links", response={201: PreviewLinkSavedOut}, **operation("create_preview_link"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def create_preview_link(request, *, post_id: str = row_id):
        link = services.preview_link_create(actor=request.auth, post=get(post_id))
        return 201, PreviewLinkSavedOut(message="Preview link created", link=link_out(request, link))

    @router.delete(f"{id_path}/preview-links/{{link_id}}", response=PreviewLinkSavedOut,
                   **operation("revoke_preview_link"))
    @requires("post.edit_own", services.CANNOT_EDIT)
    def revoke_preview_link(request, *, post_id: str = row_id, link_id: str):
        post = get(post_id)
        services.check_can_see_history(request.auth, post)
        link = services.preview_link_revoke(actor=request.auth, post=post,
                                            link=selectors.preview_link_get(post, link_id))
        return PreviewLinkSavedOut(message="Preview link revoked", link=link_out(request, link))

    @router.delete(id_path, response=MessageOut, **operation("delete_post"))
    @requires("post.delete_own", services.CANNOT_DELETE)
    def delete(request, *, post_id: str = row_id, options: Query[PostDeleteQuery]):
        services.post_delete(actor=request.auth, post=get(post_id), translations=options.translations,
                             promote=options.promote)
        return MessageOut(message=f"{label} deleted successfully")

    @router.post(f"{id_path}/translations", response={201: PostSavedOut}, **operation("add_translation"))
    @requires("post.create", services.CANNOT_CREATE)
    @atomic_reply
    def add_translation(request, *, post_id: str = row_id, payload: TranslationIn):
        post = services.post_translation_create(actor=request.auth, source=get(post_id), language=payload.language)
        return 201, PostSavedOut(message="Translation created", post=full(post))
