"""The query parameters of Ghost's Content API, as Ghost reads them (docs/coming-from-ghost.md).

key       the Ghost content key (apps.ghost_api.views; 26 hex digits)
include   comma-separated: tags, authors (posts); count.posts (tags, authors)
fields    comma-separated field names: only those are sent (names a resource lacks are dropped, as Ghost does)
formats   comma-separated: html (the default), plaintext
limit     1 to MAX_LIMIT, or `all` (MAX_LIMIT: the cap Ghost puts on it); DEFAULT_LIMIT when absent
page      1, 2, ...
order     comma-separated `field [asc|desc]` of the resource's ORDER_FIELDS
filter    NQL (apps.ghost_api.nql)
locale    (+) posts and pages in this language along its fallback chain, as /api/v1's `locale`
          (docs/translations.md); without it, the company's default language's

A value Ghost's validators refuse gets Ghost's 422 (`Validation (matches) failed for limit`); an
include, format, order or filter this API does not serve gets Ghost's 400. A parameter given
twice is refused (400), as Ghost refuses a repeated key. Anything else in the query is ignored,
as Ghost ignores it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from apps.core.languages import normalize
from apps.core.pagination import MAX_PAGE
from apps.ghost_api import errors
from apps.ghost_api import nql

DEFAULT_LIMIT = 15
MAX_LIMIT = 100  # `limit=all` and larger numbers are capped here (Ghost caps Content API pages at 100)
_NUMBER = re.compile(r"[0-9]{1,9}")
_ORDER_PART = re.compile(r"\s*([a-z_]+)(?:\s+(asc|desc))?\s*", re.IGNORECASE)
_READS = ("key", "include", "fields", "formats", "limit", "page", "order", "filter", "locale")

INCLUDES = {"posts": {"tags", "authors"}, "pages": {"tags", "authors"}, "tags": {"count.posts"},
            "authors": {"count.posts"}, "settings": set(), "tiers": {"monthly_price", "yearly_price", "benefits"}}
ORDER_FIELDS = {
    "posts": {"published_at": "published_at", "created_at": "created_at", "updated_at": "updated_at",
              "title": "title", "slug": "slug", "id": "id"},
    "tags": {"name": "name", "slug": "slug"},
    "authors": {"name": "name", "slug": "slug"},
}
ORDER_FIELDS["pages"] = ORDER_FIELDS["posts"]  # Ghost's pages are read as its posts are
DEFAULT_ORDER = {"posts": (("published_at", True),), "pages": (("published_at", True),), "tags": (("name", False),),
                 "authors": (("name", False),)}
FORMATS = {"html", "plaintext"}


@dataclass(frozen=True)
class GhostQuery:
    resource: str
    include: frozenset[str]
    fields: tuple[str, ...] | None  # None: every field
    formats: frozenset[str]
    limit: int
    limit_all: bool  # asked with limit=all (meta says "all" only when everything fitted)
    page: int
    order: tuple[tuple[str, bool], ...]  # (field, descending)
    filter: str | None
    filter_tree: object = None  # nql.parse(filter)
    locale: str | None = None  # a BCP 47 code in its usual case (`pt-br` -> `pt-BR`); None: not asked

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit

    def pagination(self, total: int) -> dict:
        pages = max(1, -(-total // self.limit)) if total else 1
        return {"page": self.page, "limit": "all" if self.limit_all and total <= self.limit else self.limit,
                "pages": pages, "total": total, "next": self.page + 1 if self.page < pages else None,
                "prev": self.page - 1 if self.page > 1 else None}


def _list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def parse(resource: str, params: dict[str, list[str]]) -> GhostQuery:
    """The query of a request (`params`: each name's values, as `request.GET.lists()` gives them)."""
    for name in _READS:
        if len(params.get(name, ())) > 1:
            raise errors.bad_request(f"The {name} parameter is given more than once")
    value = {name: params[name][0] for name in _READS if name in params}
    if any("\x00" in text for name, text in value.items() if name != "filter"):  # a filter's: nql refuses it
        raise errors.bad_request("A query value has a NUL character")

    include = frozenset(_list(value.get("include")))
    unknown = include - INCLUDES.get(resource, set())
    if unknown:
        raise errors.validation("AllowedValues", "include")

    fields = tuple(_list(value.get("fields"))) or None
    formats = frozenset(_list(value.get("formats"))) or frozenset({"html"})
    if formats - FORMATS:
        raise errors.validation("AllowedValues", "formats")

    limit_text = (value.get("limit") or "").strip().lower()
    limit_all = limit_text == "all"
    if not limit_text:
        limit = DEFAULT_LIMIT
    elif limit_all:
        limit = MAX_LIMIT
    elif _NUMBER.fullmatch(limit_text) and int(limit_text) >= 1:
        limit = min(int(limit_text), MAX_LIMIT)
    else:
        raise errors.validation("matches", "limit")

    page_text = (value.get("page") or "").strip()
    if not page_text:
        page = 1
    elif _NUMBER.fullmatch(page_text) and 1 <= int(page_text) <= MAX_PAGE:
        page = int(page_text)
    else:
        raise errors.validation("matches", "page")

    order = _order(resource, value.get("order"))
    text = value.get("filter")
    tree = None
    if text is not None and text.strip():
        try:
            tree = nql.parse(text.strip())
        except nql.FilterError as exc:
            raise errors.bad_request(errors.FILTER_ERROR, str(exc)) from None
    else:
        text = None
    locale = None
    if (value.get("locale") or "").strip():
        locale = normalize(value["locale"])
        if locale is None:
            raise errors.validation("matches", "locale")
    return GhostQuery(resource=resource, include=include, fields=fields, formats=formats, limit=limit,
                      limit_all=limit_all, page=page, order=order, filter=text, filter_tree=tree, locale=locale)


def _order(resource: str, text: str | None) -> tuple[tuple[str, bool], ...]:
    known = ORDER_FIELDS.get(resource, {})
    if not text or not text.strip():
        return DEFAULT_ORDER.get(resource, ())
    order = []
    for part in text.split(","):
        match = _ORDER_PART.fullmatch(part)
        if match is None or match.group(1).lower() not in known:
            raise errors.bad_request("Ordering is not supported", f"order: {part.strip()[:100]}")
        order.append((known[match.group(1).lower()], (match.group(2) or "asc").lower() == "desc"))
        if len(order) > 5:
            raise errors.bad_request("Ordering is not supported", "order takes at most 5 fields")
    return tuple(order)
