"""The rules of a public content API request, from its query string to its reply headers.

The order they are applied in (key -> rate limit -> cache -> build) is apps.public_api.core's,
and the API's two entry points are thin adapters over that core: the ninja endpoints
(apps.public_api.api, apps.public_api.auth, apps.public_api.responses) and the WSGI layer in
front of Django (apps.public_api.fastpath, which builds posts lists with apps.public_api.direct).
Each rule of a public request is one function here:

- the query of a posts list (page, limit, status, search; the same 400s): `parse_list`
- the key may read what it asks for (drafts need the preview key, 403): `check_may_read`
- the company and the key (401): `identify`; the fast path makes the same comparison inside
  Redis, against the host entry written from `keys.host_fields`
- the rate limit (429 with Retry-After): `keys.throttle` (taken by `core.admit`); the fast
  path's script takes its entry from the same window (`keys.throttle_key`)
- the body of a posts list: `list_body` (its posts: apps.public_api.selectors, whose fields are
  apps.content.post_fields); replies: `posts_reply`, `post_reply`, `categories_reply`, `tags_reply`
- a members-only post's body (docs/content.md#members-only-posts): for a request with a valid
  member token of the company only (`reader_is_member`, `post_reply`), answered by Django and kept
  by no cache; every other reply carries "" in its place
- a draft read through a preview link (`/api/v1/preview/{token}`, never cached, in front of Django
  or in it: `is_preview`, `preview_reply`, headers `reply_headers(..., cached=False)`)
- the headers of a reply: `reply_headers` (ETag, Cache-Control, Vary, X-Cache) and, for replies
  made in front of Django, `EdgeHeaders` (what Django's middleware adds: the request id, the
  security headers and django-cors-headers' own headers).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple
from urllib.parse import parse_qs

import pydantic
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ninja import Schema
from ninja.errors import ValidationError

from apps.content import kinds
from apps.content.models import PUBLIC_STATUS, STATUS_FILTER_INVALID, STATUS_FILTERS, search_configs
from apps.content.rules import body_for_reader
from apps.content.post_schemas import CategoryOut, TagOut
from apps.content.selectors import preview_post_id
from apps.core.api import refuse_repeated
from apps.core.edge_cache import host_name, post_tag
from apps.core.errors import ErrorCode, NotFound, PermissionDenied, Unauthorized, ValidationFailed
from apps.core.languages import current as current_languages
from apps.core.languages import normalize
from apps.core.middleware import request_id as make_request_id
from apps.core.pagination import Page, page_params
from apps.core.security import api_security_headers
from apps.core.validation import NUL_MESSAGE
from apps.members.tokens import session_member
from apps.public_api import keys, selectors
from apps.public_api.cache import Counts

PREFIX = "/api/v1/"
PREVIEW_PREFIX = "/api/v1/preview/"
LIST_PATH = "/api/v1/posts"
# The lists of each content kind (apps.content.kinds): /api/v1/posts, /api/v1/pages.
LIST_PATHS = {f"{PREFIX}{kind.plural}": kind.name for kind in kinds.KINDS.values()}
TERMS = ("category", "tag")  # /api/v1/posts/category/{slug}, /api/v1/posts/tag/{slug}
DEFAULT_LIMIT, MAX_LIMIT = 10, 100
# A reply depends on the key and on a member's token (a members-only post's body: reader_is_member),
# and is gzip for a client that accepts it (core.encoded).
VARY = "x-api-key, x-member-token, Accept-Encoding"
# A member's session token (apps.members.tokens.session_token, from POST /api/v1/members/session):
# with it, a members-only post's body (docs/content.md#members-only-posts). A request that carries
# the header is answered by Django, never by the WSGI layer (MEMBER_ENVIRON) nor the Varnish tier.
MEMBER_HEADER = "X-Member-Token"
MEMBER_ENVIRON = "HTTP_X_MEMBER_TOKEN"

KEY_REQUIRED = "API key is required. Send it in the x-api-key header."
KEY_INVALID = "Invalid API key"
PREVIEW_REQUIRED = "Reading unpublished posts needs the preview key"
CATEGORY_NOT_FOUND = "Category not found"
TAG_NOT_FOUND = "Tag not found"


# --- the query -----------------------------------------------------------------------------------
class PostsQuery(Schema):  # the query of GET /posts (also its OpenAPI parameters: no docstring)
    page: int | None = None
    limit: int | None = None
    status: str | None = None
    search: str | None = None
    locale: str | None = None
    featured: bool | None = None  # (+) true: the featured posts only; false: the others (parse_featured)


class PageQuery(Schema):  # the query of a category's or tag's posts: no search
    page: int | None = None
    limit: int | None = None
    status: str | None = None
    locale: str | None = None
    featured: bool | None = None


class LocaleQuery(Schema):  # the query of a post by slug
    locale: str | None = None


LOCALE_INVALID = "Locale must be a BCP 47 language code such as en, fr or pt-BR"


def parse_locale(value: str | None) -> str | None:
    """A `locale` parameter (docs/translations.md): None when absent or empty, the code in its
    usual case (`pt-br` -> `pt-BR`), or 400 for what is not a language code."""
    if value is None or not value.strip():
        return None
    code = normalize(value)
    if code is None:
        raise ValidationFailed(LOCALE_INVALID, field="locale")
    return code


FEATURED_INVALID = "Featured must be true or false"


def parse_featured(value: str | None) -> bool | None:
    """A `featured` parameter: `true` or `false` (any case); None when absent or empty; 400 for
    anything else (not pydantic's reading of a bool, which takes `1`, `yes`, `on`...)."""
    if value is None or not value.strip():
        return None
    word = value.strip().lower()
    if word not in ("true", "false"):
        raise ValidationFailed(FEATURED_INVALID, field="featured")
    return word == "true"


@dataclass(frozen=True)
class Languages:
    """What a reply needs of the company's languages: the languages shown, best first (None: all
    posts, a company with one language and no locale asked), whether posts carry `locale` and
    `translations`, the search configurations."""

    chain: tuple[str, ...] | None
    configs: tuple[str, ...]
    localized: bool


def languages_for(locale: str | None, company) -> Languages:
    """`company`: apps.core.languages.Languages. Without a locale: the default language's posts
    (every post of a company with one language: the replies it always got). With one: the best
    translation of each group along the locale's fallback chain (a locale the company lacks: its
    primary subtag's chain, else the default's)."""
    if locale is None:
        chain = None if company.single else (company.default,)
        return Languages(chain=chain, configs=search_configs(company.codes), localized=False)
    resolved = company.resolve(locale) or company.default
    chain = company.chain(resolved)
    if company.single:
        chain = None  # every post is in the one language
    return Languages(chain=chain, configs=search_configs(chain or company.codes), localized=True)


@dataclass(frozen=True)
class ListQuery:
    page: Page
    status: str  # one of STATUS_FILTERS
    search: str | None  # stripped; None when empty
    term: tuple[str, str] | None  # ("category" or "tag", slug as given): a category's or tag's posts
    locale: str | None = None  # a BCP 47 code (parse_locale); None: no locale asked
    kind: str = kinds.POST.name  # the content kind listed (apps.content.kinds): posts, or pages
    featured: bool | None = None  # the featured posts only (True), the others (False), or all (None)

    @property
    def needs_preview(self) -> bool:
        return self.status != PUBLIC_STATUS

    @cached_property
    def filters(self) -> dict:
        """The arguments of selectors.posts_filter (a term by its normalised slug)."""
        filters = {"status": self.status, "search": self.search}
        if self.kind != kinds.POST.name:
            filters["kind"] = self.kind
        if self.locale is not None:
            filters["locale"] = self.locale
        if self.featured is not None:
            filters["featured"] = self.featured
        if self.term is not None:
            filters[f"{self.term[0]}_slug"] = self.term[1].strip().lower()
        return filters

    @cached_property
    def _shape(self):
        return selectors.posts_filter(schema="", **self.filters)

    @property
    def filter_key(self) -> str:
        """The key its total is kept under: the same in every schema (selectors.posts_filter),
        so the fast path knows it before Redis says which company the host is."""
        return self._shape.key

    @property
    def total_kept(self) -> bool:
        """Its total is a row of the trigger-kept counts, read with the page (never cached)."""
        return self._shape.total_kept


_PLAIN_NUMBER = re.compile(r"[0-9]{1,7}")


def parse_list(params: dict[str, list[str]], *, term: tuple[str, str] | None = None,
               kind: str = kinds.POST.name) -> ListQuery:
    """The list of `kind` (posts, or pages) a query asks for (`params`: each name's values, as
    `request.GET.lists()` gives them), or the 400 both paths answer (ValidationFailed, or ninja's
    ValidationError for values that are not numbers, exactly as ninja answers for its own query
    parameters)."""
    refuse_repeated(params.items())
    if any("\x00" in name or any("\x00" in value for value in values) for name, values in params.items()):
        raise ValidationFailed(NUL_MESSAGE)
    schema = PostsQuery if term is None else PageQuery
    values = {name: params[name][-1] for name in schema.model_fields if name in params}
    featured = parse_featured(values.pop("featured", None))  # its own rule, whichever way the rest is read
    page, limit = values.get("page"), values.get("limit")
    if (page is None or _PLAIN_NUMBER.fullmatch(page)) and (limit is None or _PLAIN_NUMBER.fullmatch(limit)):
        # What pydantic reads these as, without it (a site's every list request is one of these).
        page, limit = (None if page is None else int(page)), (None if limit is None else int(limit))
        status, search = values.get("status"), values.get("search")
    else:
        try:
            query = schema.model_validate(values)
        except pydantic.ValidationError as exc:
            raise ValidationError([{**error, "loc": ("query", *error["loc"])}
                                   for error in exc.errors(include_url=False, include_input=False)]) from None
        page, limit, status, search = query.page, query.limit, query.status, getattr(query, "search", None)
    locale = parse_locale(values.get("locale"))
    page = page_params(page, limit, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    status = (status or PUBLIC_STATUS).strip().lower()
    if status not in STATUS_FILTERS:
        raise ValidationFailed(STATUS_FILTER_INVALID, field="status")
    search = (search or "").strip() or None
    return ListQuery(page=page, status=status, search=search, term=term, locale=locale, kind=kinds.of(kind).name,
                     featured=featured)


def list_of(path: str) -> tuple[str, tuple[str, str] | None] | None:
    """(kind, term) of a list's path (no trailing slash): /api/v1/posts, /api/v1/pages, or a
    category's or tag's posts (term_of); else None."""
    if path in LIST_PATHS:
        return LIST_PATHS[path], None
    term = term_of(path)
    return (kinds.POST.name, term) if term is not None else None


def term_of(path: str) -> tuple[str, str] | None:
    """("category" or "tag", slug) of /api/v1/posts/category/{slug} or .../tag/{slug}, as
    Django's routes match them (a non-empty segment without "/"); else None."""
    for kind in TERMS:
        prefix = f"{LIST_PATH}/{kind}/"
        if path.startswith(prefix):
            slug = path[len(prefix):]
            if slug and "/" not in slug:
                return kind, slug
    return None


def check_may_read(wanted: ListQuery, api_key: keys.ApiKey) -> None:
    """Posts that are not public need the preview key (403 with the content key)."""
    if wanted.needs_preview and not api_key.is_preview:
        raise PermissionDenied(PREVIEW_REQUIRED, detail=ErrorCode.PREVIEW_KEY_REQUIRED)


def term_missing(kind: str) -> NotFound:
    return NotFound(CATEGORY_NOT_FOUND if kind == "category" else TAG_NOT_FOUND)


# --- the company and the key ---------------------------------------------------------------------
def identify(tenant, key: str | None, *, ghost: bool = False) -> keys.ApiKey:
    """The key of the request, compared with the keys of the company of its host only (a
    missing, wrong, rotated-out or other company's key: 401). `ghost`: the Ghost-compatible
    routes (apps.ghost_api), whose one key is the company's Ghost content key."""
    if not key:
        raise Unauthorized(KEY_REQUIRED, detail=ErrorCode.API_KEY_REQUIRED)
    kind = keys.kind_of(tenant, key, ghost=ghost) if tenant is not None else None
    if kind is None:
        raise Unauthorized(KEY_INVALID, detail=ErrorCode.API_KEY_INVALID)
    return keys.ApiKey(kind=kind, key_hash=keys.key_hash(key), limit=keys.limit_of(tenant))


# --- bodies --------------------------------------------------------------------------------------
def posts_reply(posts: list[dict], pagination: dict, kind: str = kinds.POST.name) -> dict:
    """A list of `kind`: `data.posts`, or `data.pages`."""
    kind = kinds.of(kind)
    return {"success": True, "message": f"{kind.plural.capitalize()} retrieved successfully",
            "data": {kind.plural: posts, "pagination": pagination}}


def slug_languages(locale: str | None, company) -> dict:
    """Which post a slug names in a company of these languages (`company`: apps.core.languages.
    Languages), as the selectors' `chain` or `default` (docs/translations.md): without a locale, a
    slug two languages use is the default language's; with one, the post of that slug (in the
    chain's languages first) gives its group's best translation along the locale's chain."""
    if locale is None:
        return {"default": None if company.single else company.default}
    return {"chain": languages_for(locale, company).chain}


def post_by_slug_reply(slug: str, *, locale: str | None, published_only: bool, kind: str = kinds.POST.name,
                       member: bool = False) -> dict:
    """The reply of posts/slug/{slug}[?locale=] (docs/translations.md), or of pages/slug/{slug}."""
    found = selectors.post_by_slug(slug, published_only=published_only, kind=kind, localized=locale is not None,
                                   **slug_languages(locale, current_languages()))
    return post_reply(found, kind, member=member)


def post_reply(post: dict, kind: str = kinds.POST.name, *, member: bool = False) -> dict:
    """One row of `kind`: `data.post`, or `data.page`. A members-only post's `content` is "" but
    for a `member` (apps.content.rules.body_for_reader); its other fields are everyone's."""
    kind = kinds.of(kind)
    post = {**post, "content": body_for_reader(post["visibility"], post["content"], member=member)}
    return {"success": True, "message": f"{kind.label} retrieved successfully", "data": {kind.name: post}}


def reader_is_member(request) -> bool:
    """Whether the request carries a valid member token of the company of its host (X-Member-Token:
    apps.members.tokens.session_member). A token of another company, expired, forged, or of a member
    deleted or whose address changed since is no member's: the reply withholds the body, as for a
    request without one (never an error). A member's reply is built for that request alone and kept
    by no cache (apps.public_api.responses.uncached_json); the WSGI layer and the Varnish tier pass
    every request that carries the header to Django."""
    token = request.headers.get(MEMBER_HEADER)
    return bool(token) and session_member(token) is not None


def is_preview(path: str) -> bool:
    """A preview link's read: answered by Django only, never from the reply cache (a revoked or
    expired link stops at once)."""
    return path.startswith(PREVIEW_PREFIX)


def preview_reply(token: str) -> dict:
    """The post a preview link reads (the shape of posts/slug/{slug}); 404 for a forged,
    revoked, expired or other company's token."""
    # A preview link is the staff's (a draft shown to whoever it is sent to): the whole post, never cached.
    return post_reply(selectors.post_by_id(preview_post_id(token)), member=True)


def term_language(locale: str | None) -> str | None:
    """The language of terms' names for a `locale` parameter (None: the names as stored)."""

    if locale is None:
        return None
    chosen = languages_for(locale, current_languages())
    return chosen.chain[0] if chosen.chain else None


def _in_language(term: dict, language: str | None) -> dict:
    translated = (term.get("translations") or {}).get(language) if language else None
    if translated:
        term["name"], term["slug"] = translated["name"], translated["slug"]
    return term


def categories_reply(categories, locale: str | None = None) -> dict:
    """`locale`: names and slugs in that language where a category has them (docs/translations.md)."""
    language = term_language(locale)
    return {"success": True, "message": "Categories retrieved successfully",
            "data": {"categories": [_in_language(CategoryOut.from_category(c).model_dump(mode="json"),
                                                 language) for c in categories]}}


def redirects_reply(rows) -> dict:
    """rows: (old path, slug, kind) of published posts and pages (apps.portability.selectors.redirects)."""
    return {"success": True, "message": "Redirects retrieved successfully",
            "data": {"redirects": [{"oldPath": old_path, "slug": slug, "kind": kind} for old_path, slug, kind in rows]}}


def tags_reply(tags, locale: str | None = None) -> dict:
    language = term_language(locale)
    return {"success": True, "message": "Tags retrieved successfully",
            "data": {"tags": [_in_language(TagOut.from_tag(t).model_dump(mode="json"), language)
                              for t in tags]}}


@dataclass(frozen=True)
class ListBody:
    reply: dict
    filter_key: str
    counted: int | None  # the total, when this call counted it (for the cache)
    total_kept: bool  # the total is a row of the trigger-kept counts (never cached)
    # An empty page of a category's or tag's posts: the term may not exist (404), which only
    # Django's path tells (`term_exists`).
    unsure: bool


def list_filter(wanted: ListQuery, *, schema: str, company):
    """The selectors' filter of the list in `schema`, of a company whose languages are `company`
    (apps.core.languages.Languages)."""
    chosen = languages_for(wanted.locale, company)
    return selectors.posts_filter(schema=schema, **wanted.filters, chain=chosen.chain, configs=chosen.configs)


def list_body(wanted: ListQuery, *, schema: str, total: int | None, company) -> ListBody:
    """The reply of a posts list in `schema`: one SQL statement (apps.public_api.selectors);
    `total`, when known (cached for this listing), is not counted again. `company`: its languages
    (apps.core.languages.Languages)."""
    found = list_filter(wanted, schema=schema, company=company)
    rows, counted = selectors.posts_page_rows(found, wanted.page, with_total=total is None, known=total)
    posts = selectors.posts_page_summaries(rows, schema, localized=found.localized, listed=found.listed)
    reply = posts_reply(posts, wanted.page.meta(total if total is not None else counted), wanted.kind)
    return ListBody(reply, found.key, counted, found.total_kept, unsure=not rows and wanted.term is not None)


def list_reply(wanted: ListQuery, *, schema: str, version: str | None) -> dict:
    """The reply of a posts list on Django's path: a search's total is kept in Redis at the
    company's content version (apps.public_api.cache.Counts), shared with the fast path."""
    company = current_languages()
    found = list_filter(wanted, schema=schema, company=company)
    counts = Counts(schema, version) if version is not None and not found.total_kept else None
    total = counts.get(found.key) if counts is not None else None
    body = list_body(wanted, schema=schema, total=total, company=company)
    if body.unsure:
        check_term_exists(wanted)
    if counts is not None and total is None and body.counted is not None:
        counts.set(body.filter_key, body.counted)
    return body.reply


def check_term_exists(wanted: ListQuery) -> None:
    """404 for the posts of a category or tag that does not exist (not an empty page)."""

    kind, slug = wanted.term
    chosen = languages_for(wanted.locale, current_languages()) if wanted.locale else None
    term_locale = chosen.chain[0] if chosen is not None and chosen.chain else None
    if not selectors.term_exists(kind, wanted.filters[f"{kind}_slug"], term_locale):
        raise term_missing(kind)


# --- headers -------------------------------------------------------------------------------------
def reply_headers(etag: str, cache_status: str, *, cached: bool = True) -> list[tuple[str, str]]:
    """Headers of a 200 or 304 of a GET (both paths). `s-maxage` is how long a shared cache (the
    Varnish tier, a CDN) keeps the reply: it is purged on every change (apps.core.edge_cache).
    `cached=False`: a reply no cache may keep (a preview link's)."""
    return [
        ("ETag", etag),
        ("Cache-Control", f"public, max-age={settings.PUBLIC_API_MAX_AGE}, s-maxage={settings.PUBLIC_API_EDGE_MAX_AGE}"
         if cached else "private, no-store"),
        ("Vary", VARY),
        ("X-Cache", cache_status),
    ]


class EdgeKeys(NamedTuple):
    """What a reply body says to the cache tier: whether it is a posts list, and if so whose
    surrogate key names such lists ("posts" or "search"; None: not a list), and the keys of its
    posts (apps.core.edge_cache.post_tag)."""

    list_scope: str | None
    posts: tuple[str, ...]


def edge_tag_headers(host: str, kind: str, limit: int, query: str = "", body: bytes | None = None, *,
                     reader: Callable[[bytes], EdgeKeys] | None = None,
                     etag: str | None = None) -> list[tuple[str, str]]:
    """What the cache tier in front reads from a cacheable reply served for `host` to a key of
    `kind` ("c" content, "p" preview, "g" Ghost content): the surrogate keys, as apps.core.edge_cache
    names them (Varnish's `xkey` and `Surrogate-Key`, space-separated; `Cache-Tag` for CDNs,
    comma-separated), and `X-RateLimit-Limit`, the key's requests per PUBLIC_API_RATE_WINDOW (its
    company's plan), which Varnish keeps per host for the limit it applies to hits. `body`: the
    reply's JSON, for the keys of the posts in it (None for a 304, which no cache stores: then the
    host's keys only), read by `reader` (the /api/v1 shapes when None; apps.ghost_api reads its own).
    `etag`: the body's ETag (a hash of it), when known, so the body is not hashed again.

    The headers are made once per worker for each (host, kind, limit, reply, search or not) and
    kept (4,096 at most, the oldest dropped first): a cache hit only looks them up. The list
    returned is shared: callers copy it, never change it."""
    searched = body is not None and _searches(query)
    digest = None if body is None else (etag or hashlib.blake2b(body, digest_size=16).digest())
    memo = (host, kind, limit, digest, searched, reader)
    found = _EDGE_HEADERS.get(memo)
    if found is None:
        found = _edge_tag_headers(host, kind, limit, body, reader or _read_posts, searched)
        if len(_EDGE_HEADERS) >= 4096:
            _EDGE_HEADERS.pop(next(iter(_EDGE_HEADERS)), None)  # the oldest (dicts keep insertion order)
        _EDGE_HEADERS[memo] = found
    return found


_EDGE_HEADERS: dict[tuple, list[tuple[str, str]]] = {}


def _edge_tag_headers(host: str, kind: str, limit: int, body: bytes | None, reader: Callable[[bytes], EdgeKeys],
                      searched: bool) -> list[tuple[str, str]]:
    name = host_name(host)
    tags = [f"host-{name}"]
    if kind == "p":
        tags.append(f"drafts-{name}")
    if body is not None:
        scope, posts = reader(body)
        if scope == "posts" and searched:
            scope = "search"
        if scope is not None:
            tags.append(f"{scope}-{name}")
        tags.extend(posts)
    return [("xkey", " ".join(tags)), ("Surrogate-Key", " ".join(tags)), ("Cache-Tag", ",".join(tags)),
            ("X-RateLimit-Limit", str(limit))]


def _read_posts(body: bytes) -> EdgeKeys:
    """A list of posts or pages (`data.posts`, `data.pages`: one scope, `posts`), or one of them."""
    data = json.loads(body).get("data") or {}
    for kind in kinds.KINDS.values():
        if isinstance(data.get(kind.plural), list):
            return EdgeKeys("posts", tuple(dict.fromkeys(post_tag(post["id"]) for post in data[kind.plural])))
        if isinstance(data.get(kind.name), dict):
            return EdgeKeys(None, (post_tag(data[kind.name]["id"]),))
    return EdgeKeys(None, ())


def _searches(query: str) -> bool:
    return "search=" in query and bool((parse_qs(query).get("search") or [""])[-1].strip())


def _django_cors(origin: str | None) -> tuple[list[tuple[str, str]], str]:
    """What django-cors-headers (the library, as configured) adds to a public GET reply: its
    headers, and what it adds to Vary."""
    from corsheaders.middleware import CorsMiddleware

    request = HttpRequest()
    request.method, request.path_info, request.path = "GET", LIST_PATH, LIST_PATH
    if origin:
        request.META["HTTP_ORIGIN"] = origin
    response = HttpResponse()
    CorsMiddleware(lambda request: response).add_response_headers(request, response)
    added = [(name, value) for name, value in response.headers.items() if name.lower().startswith("access-control")]
    return added, response.headers.get("Vary", "")


class EdgeHeaders:
    """The headers Django's middleware adds to a public API reply, for replies made in front of
    Django (read once from settings and the libraries; again after a settings change)."""

    def __init__(self) -> None:
        self.security = {secure: api_security_headers(secure=secure) for secure in (False, True)}
        cors, self.vary = _django_cors("https://origin.example")
        # django-cors-headers answers every origin alike only when it allows all (no credentials);
        # otherwise replies to a browser are left to Django.
        self.cors = cors if cors and _django_cors("https://other.example")[0] == cors else None

    def answers(self, origin: str | None) -> bool:
        """False when only Django can make the headers (CORS answered per origin)."""
        return self.cors is not None or not origin

    def of(self, *, request_id: str, secure: bool, origin: str | None) -> list[tuple[str, str]]:
        """The request id (kept from X-Request-ID when sent), security and CORS headers."""
        headers = [("X-Request-ID", make_request_id(request_id)), *self.security[secure]]
        if origin:
            headers.extend(self.cors)
        return headers

    def with_vary(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """`headers` with Vary extended as django-cors-headers extends it."""
        if not self.vary:
            return headers
        return [(name, f"{value}, {self.vary}" if name == "Vary" else value) for name, value in headers]
