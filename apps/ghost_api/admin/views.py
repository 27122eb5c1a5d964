"""The requests of Ghost's Admin API (/ghost/api/admin/ on every company host): the company of the
host, the integration of the token (apps.ghost_api.admin.auth), the body (JSON under its limit, or
an image's multipart form), the route, and every failure in Ghost's error envelope and codes:

401 UnauthorizedError   a token that is missing its parts, expired, too old, for another audience or
                        algorithm, badly signed, or of an unknown (another company's, rotated, deleted) key
403 NoPermissionError   no Authorization header; a suspended company; a plan's limit, or a trial ended
404 NotFoundError       no such post, page, tag, user or route
409 UpdateCollisionError  an edit sent with an `updated_at` the post has moved on from
409 ConflictError       a slug taken, a tag still used by posts
429 TooManyRequestsError  an integration past GHOST_ADMIN_API_RATE (with Retry-After)
413 RequestEntityTooLargeError  a body over its limit (POST_BODY_MAX_BYTES; an image: MEDIA_MAX_UPLOAD_BYTES)
415 UnsupportedMediaTypeError  an upload that is not a supported image
422 ValidationError     a value the services' rules or Ghost's format refuse
"""
from __future__ import annotations

import json
import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt

from apps.accounts.profiles import author_name
from apps.content import kinds
from apps.content.services import post_delete
from apps.core import ratelimit
from apps.core.errors import ApplicationError, ErrorCode, RetryLater
from apps.core.middleware import DATABASE_DOWN, DATABASE_ERRORS, DATABASE_RETRY_AFTER
from apps.core.text import TextRefused, input_data
from apps.ghost_api import errors, ids, query
from apps.ghost_api import shapes as content_shapes
from apps.ghost_api.admin import auth, posts, resources
from apps.ghost_api.edge import CONTENT_VERSION, VARY
from apps.ghost_api.errors import GhostError
from apps.ghost_api.nql import FilterError
from apps.ghost_api.views import NOT_FOUND, _rows, _tag_replies
from apps.plans.rules import dashboard_write_gate

logger = logging.getLogger(__name__)

SUSPENDED = "This company account is suspended. Please contact support."
UPDATE_COLLISION = "Saving failed! Someone else is editing this post."
RATE_LIMITED = "Too many requests from this integration. Try again in {wait}."
NO_CACHE = "no-cache, private, no-store, must-revalidate, max-stale=0, post-check=0, pre-check=0"
UPLOAD_OVERHEAD = 64 * 1024  # a multipart form's own bytes around its file
_SAFE = ("GET", "HEAD")
_CONTENT_RESOURCE = {"users": "authors"}  # the query rules of Ghost's users are its authors'


@csrf_exempt
def admin(request, resource: str = "", ident: str | None = None, slug: str | None = None,
          email: str | None = None, rest: str | None = None):
    try:
        reply = _answer(request, resource, ident=ident, slug=slug, email=email, unknown=rest is not None)
    except GhostError as exc:
        reply = errors.response(exc)
    except FilterError as exc:
        reply = errors.response(errors.bad_request(errors.FILTER_ERROR, str(exc)))
    except ApplicationError as exc:
        reply = errors.response(_from_application(exc))
    except RequestDataTooBig:
        reply = errors.response(_too_large(settings.POST_BODY_MAX_BYTES))
    except DATABASE_ERRORS as exc:
        logger.error("Database unavailable on %s %s: %s", request.method, request.path, exc)
        reply = errors.response(GhostError(503, DATABASE_DOWN, retry_after=int(DATABASE_RETRY_AFTER)))
    if request.META.get("HTTP_ACCEPT_VERSION") is not None:
        reply["Content-Version"] = CONTENT_VERSION
    reply["Cache-Control"] = NO_CACHE
    patch_vary_headers(reply, [VARY, "Authorization"])
    return reply


def _from_application(exc: ApplicationError) -> GhostError:
    """A service's refusal in Ghost's words and codes."""
    status = exc.status_code
    field = (exc.errors or [{}])[0].get("field") if exc.errors else None
    code = str(exc.detail) if exc.detail else None
    if status == 400:
        if exc.detail == ErrorCode.UNSUPPORTED_FILE_TYPE:
            return GhostError(415, exc.message, code=code, prop="file")
        return GhostError(422, exc.message, prop=field, code=code)
    if status == 409 and exc.detail == ErrorCode.EDIT_CONFLICT:
        return GhostError(409, UPDATE_COLLISION, context=exc.message, type="UpdateCollisionError", code=code)
    if status == 401:
        return GhostError(401, auth.UNKNOWN_KEY, code="UNKNOWN_ADMIN_API_KEY")
    retry_after = exc.retry_after if isinstance(exc, RetryLater) else None
    return GhostError(status, exc.message, prop=field, code=code, retry_after=retry_after)


def _too_large(limit: int) -> GhostError:
    return GhostError(413, "Request is larger than the maximum size the server allows",
                      context=f"The limit is {limit // (1024 * 1024) or 1} MB")


def _reply(data, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})


# --- the request ---------------------------------------------------------------------------------
def _answer(request, resource: str, *, ident, slug, email, unknown: bool):
    tenant = getattr(request, "tenant", None)
    if tenant is None or unknown or not resource:
        raise errors.not_found()
    if tenant.is_suspended:
        raise GhostError(403, SUSPENDED)
    method = request.method
    site = content_shapes.Site(tenant)
    if resource == "site":  # as Ghost: no key needed (a tool checks the address with it)
        if method not in _SAFE:
            raise GhostError(405, "Method not allowed")
        return _reply({"site": resources.site_out(tenant, site)})
    actor = auth.authenticate(request.META.get("HTTP_AUTHORIZATION"))
    request.auth = actor
    # Each integration's requests, reads and writes alike, under GHOST_ADMIN_API_RATE (429 with
    # Retry-After in Ghost's shape): a runaway script or a leaked key cannot flood the company.
    ratelimit.spend([(ratelimit.parse_rate(settings.GHOST_ADMIN_API_RATE),
                      ("ghost-admin", tenant.schema_name, str(actor.integration_id)))], RATE_LIMITED)
    if method not in _SAFE:
        dashboard_write_gate(request)  # a trial that ended: reads only (403)
    for value in (ident, slug, email):
        if value is not None:
            try:
                input_data(value)
            except TextRefused:
                raise errors.not_found(NOT_FOUND.get(resource, errors.NOT_FOUND)) from None
    if resource == "users" and ident == "me":  # who the tool writes as: the author its posts get
        return _me(request, site)
    if ident is not None:
        ident = ident.lower()
        if not ids.is_ghost_id(ident):
            raise errors.validation("matches", "id")
    if resource in ("posts", "pages"):
        return _posts(request, kinds.POST if resource == "posts" else kinds.PAGE, ident, slug, actor, site)
    if resource == "tags":
        return _tags(request, ident, slug, actor, site)
    if resource == "users" and email is None:
        return _users(request, ident, slug, site)
    if resource == "users":
        return _user_by_email(request, email, site)
    if resource == "images":
        return _image(request, actor)
    raise errors.not_found()


def _body(request, root: str) -> dict:
    """The one object of a JSON body `{root: [object]}` (Ghost's write bodies)."""
    limit = settings.POST_BODY_MAX_BYTES
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit:
        raise _too_large(limit)
    body = request.body
    if len(body) > limit:
        raise _too_large(limit)
    try:
        data = input_data(json.loads(body or b"{}"))
    except (ValueError, TextRefused, RecursionError):
        raise errors.bad_request("Request body is not valid JSON") from None
    items = data.get(root) if isinstance(data, dict) else None
    if not isinstance(items, list) or len(items) != 1 or not isinstance(items[0], dict):
        raise GhostError(422, f"No root key ('{root}') provided.", prop=root)
    return items[0]


def _wanted(request, resource: str) -> tuple[query.GhostQuery, frozenset[str]]:
    """The browse or read query: Ghost's Content API parameters (apps.ghost_api.query), with the
    Admin API's `formats` (html, plaintext, lexical, mobiledoc) and any `include` (posts always
    have their tags and authors)."""
    params = dict(request.GET.lists())
    for name in ("formats", "include"):
        if len(params.get(name, ())) > 1:
            raise errors.bad_request(f"The {name} parameter is given more than once")
    formats = frozenset(part.strip() for part in (params.pop("formats", [""])[0]).split(",") if part.strip())
    if formats - posts.FORMATS:
        raise errors.validation("AllowedValues", "formats")
    include = frozenset(part.strip() for part in (params.pop("include", [""])[0]).split(",") if part.strip())
    content_resource = _CONTENT_RESOURCE.get(resource, resource)
    if content_resource in ("tags", "authors") and "count.posts" in include:
        params["include"] = ["count.posts"]
    wanted = query.parse(content_resource, params)
    return wanted, formats or posts.DEFAULT_FORMATS


# --- posts and pages -----------------------------------------------------------------------------
def _posts(request, kind: kinds.Kind, ident, slug, actor, site):
    method = request.method
    if ident is None and slug is None:
        if method in _SAFE:
            return _posts_browse(request, kind, site)
        if method == "POST":
            data = _body(request, kind.plural)
            with transaction.atomic():
                post = posts.create(data, kind=kind, actor=actor, source_html=request.GET.get("source") == "html")
                posts.email(post, request.GET, actor)
            return _post_reply(request, kind, post.pk, site, status=201)
        raise GhostError(405, "Method not allowed")
    if method not in _SAFE and ident is None:
        raise GhostError(405, "Method not allowed")
    found = posts.find(kind, ghost_id=ident, slug=slug)
    if found is None:
        raise errors.not_found(NOT_FOUND[kind.plural])
    if method in _SAFE:
        return _post_reply(request, kind, found.pk, site)
    if method == "PUT":
        data = _body(request, kind.plural)
        with transaction.atomic():
            post = posts.edit(found, data, kind=kind, actor=actor, source_html=request.GET.get("source") == "html")
            posts.email(post, request.GET, actor)
        return _post_reply(request, kind, post.pk, site)
    if method == "DELETE":
        post_delete(actor=actor, post=found)
        return HttpResponse(status=204)
    raise GhostError(405, "Method not allowed")


def _post_reply(request, kind: kinds.Kind, pk, site, *, status: int = 200):
    wanted, formats = _wanted(request, kind.plural)
    reads = posts.StaffReads()
    row = posts.rows(posts.Post.objects.filter(pk=pk))[0]
    body = {kind.plural: [posts.post_out(row, wanted, formats, site=site, reads=reads,
                                         images=content_shapes.Images())]}
    return _reply(body, status=status)


def _posts_browse(request, kind: kinds.Kind, site):
    wanted, formats = _wanted(request, kind.plural)
    reads = posts.StaffReads()
    found = posts.matching(reads, wanted.filter_tree, kind)
    ordering = [f"-{field}" if descending else field for field, descending in wanted.order]
    ordering += [name for name in ("-updated_at", "-id") if name.lstrip("-") not in {f for f, _ in wanted.order}]
    total = found.count()
    page = posts.rows(found.order_by(*ordering)[wanted.offset:wanted.offset + wanted.limit])
    images = content_shapes.Images()
    return _reply({kind.plural: [posts.post_out(row, wanted, formats, site=site, reads=reads, images=images)
                                 for row in page],
                   "meta": {"pagination": wanted.pagination(total)}})


# --- tags ----------------------------------------------------------------------------------------
def _tags(request, ident, slug, actor, site):
    method = request.method
    if ident is None and slug is None:
        if method in _SAFE:
            return _tags_reply(request, None, None, site)
        if method == "POST":
            with transaction.atomic():
                made = resources.tag_create(_body(request, "tags"), actor)
            return _tags_reply(request, None, made, site, status=201)
        raise GhostError(405, "Method not allowed")
    if method in _SAFE:
        return _tags_reply(request, ident, slug, site)
    term = resources.term_of(ident) if ident is not None else None
    if term is None:
        raise errors.not_found(NOT_FOUND["tags"]) if ident is not None else GhostError(405, "Method not allowed")
    if method == "PUT":
        with transaction.atomic():
            changed = resources.tag_edit(term, _body(request, "tags"), actor)
        return _tags_reply(request, None, changed, site)
    if method == "DELETE":
        resources.tag_delete(term, actor)
        return HttpResponse(status=204)
    raise GhostError(405, "Method not allowed")


def _tags_reply(request, ident, slug, site, *, status: int = 200):
    wanted, _formats = _wanted(request, "tags")
    reads = posts.StaffReads()
    body = _rows("tags", wanted, ident, slug, reads.tags, lambda term: {
        "slug": term.slug, "name": term.name, "id": ids.ghost_id(term.row_id)},
        lambda page: _tag_replies(page, wanted, site))
    return _reply(body, status=status)


# --- users ---------------------------------------------------------------------------------------
def _users(request, ident, slug, site):
    if request.method not in _SAFE:
        raise GhostError(405, "Method not allowed")
    wanted, _formats = _wanted(request, "users")
    counts = "count.posts" in wanted.include
    body = _rows("users", wanted, ident, slug, resources.users(with_counts=counts), lambda found: {
        "slug": found.slug, "name": author_name(found.user.display_name, found.user.username),
        "id": ids.ghost_id(found.user.id)},
        lambda page: [content_shapes.only(resources.user_out(found, site, with_count=counts), wanted)
                      for found in page])
    return _reply(body)


def _me(request, site):
    """Ghost's users/me/ (a tool that signs in with a staff access token asks it who it is): the
    member of the staff an integration's posts are written for when it names none."""
    if request.method not in _SAFE:
        raise GhostError(405, "Method not allowed")
    wanted, _formats = _wanted(request, "users")
    author = posts.default_author()
    match = [found for found in resources.users(with_counts="count.posts" in wanted.include)
             if author is not None and found.user.pk == author.pk]
    if not match:
        raise errors.not_found(NOT_FOUND["users"])
    counts = "count.posts" in wanted.include
    return _reply({"users": [content_shapes.only(resources.user_out(match[0], site, with_count=counts), wanted)]})


def _user_by_email(request, email: str, site):
    if request.method not in _SAFE:
        raise GhostError(405, "Method not allowed")
    wanted, _formats = _wanted(request, "users")
    counts = "count.posts" in wanted.include
    match = [found for found in resources.users(with_counts=counts) if found.user.email == email.strip().lower()]
    if not match:
        raise errors.not_found(NOT_FOUND["users"])
    return _reply({"users": [content_shapes.only(resources.user_out(match[0], site, with_count=counts), wanted)]})


# --- images --------------------------------------------------------------------------------------
def _image(request, actor):
    if request.method != "POST":
        raise GhostError(405, "Method not allowed")
    limit = settings.MEDIA_MAX_UPLOAD_BYTES
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit + UPLOAD_OVERHEAD:
        raise _too_large(limit)
    if not (request.content_type or "").startswith("multipart/form-data"):
        raise invalid_upload()
    with transaction.atomic():
        image = resources.image_upload(request.FILES, request.POST, actor)
    return _reply({"images": [image]}, status=201)


def invalid_upload() -> GhostError:
    return GhostError(422, "Please select an image.", prop="file")
