"""Reads of the Ghost-compatible Content API: published content only (Post.objects.public(), the
one visibility rule of the public API), each filter compiled from NQL to Q (apps.ghost_api.nql)
over the fields each resource allows.

Ghost's resources from ours (docs/coming-from-ghost.md):
- posts: published posts; pages: published pages (apps.content.kinds; Ghost's page object is its
  post object), each resource never showing the other's rows;
- tags: the company's categories and tags, one Ghost tag per slug (a category and a tag of the
  same slug are one tag, the category's); a post's tags are its tags in the post's order, then its
  categories by name, and its primary tag is its first tag (none without tags);
- languages (docs/translations.md): a list shows each translation group once, in the company's
  default language or along the fallback chain of the `locale` asked for (the rule of /api/v1's
  lists, apps.public_api.selectors.listed_language_sql, over the listing the posts table's triggers
  keep); a slug names the post /api/v1's posts/slug/{slug} names;
- authors: the staff members with at least one published post (never the others, never an
  email address), their slug the slug of their username (a clash: "-2", "-3" by sign-up order),
  with their author profile (apps.accounts.profiles).
"""
from __future__ import annotations

import json
import uuid
from collections import Counter, OrderedDict
from dataclasses import dataclass
from datetime import datetime, time, timezone as dt_timezone
from functools import cached_property

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import BooleanField, Count, Exists, Expression, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.expressions import RawSQL, Value
from django.db.models.functions import Coalesce
from django.utils.dateparse import parse_date, parse_datetime

from apps.accounts.models import User
from apps.accounts.profiles import PROFILE_FIELDS
from apps.content import kinds
from apps.content.models import Category, Post, PostListing, Tag, public_q
from apps.core import db
from apps.core import languages as company_languages
from apps.core.text import slugify
from apps.ghost_api import ids, nql
from apps.ghost_api.nql import EVERYTHING, NOTHING, FilterError, equality
from apps.public_api import request as public_request
from apps.public_api import selectors as public_selectors

PUBLISHED = Post.Status.PUBLISHED


# --- authors -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Author:
    user: User
    slug: str
    count: int  # published posts


def authors(*, with_counts: bool = True) -> list[Author]:
    """Everyone with a published post, in sign-up order, each with a slug of its own (and the
    number of their published posts when `with_counts`; else 0)."""
    users = (User.objects.filter(Exists(Post.objects.public().filter(author=OuterRef("pk"))))
             .order_by("created_at", "id").only("id", "username", "created_at", *PROFILE_FIELDS))
    if with_counts:  # their posts (a page of theirs makes them an author, counted in no post count)
        users = users.annotate(published=Count("posts", filter=public_q("posts__") & Q(posts__kind=kinds.POST.name)))
    taken: set[str] = set()
    found = []
    for user in users:
        base = slugify(user.username) or f"author-{ids.ghost_id(user.id)[:8]}"
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        taken.add(slug)
        found.append(Author(user, slug, getattr(user, "published", 0)))
    return found


# --- tags ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GhostTag:
    slug: str
    name: str
    description: str
    row_id: object  # the UUID of the category (or, without one, the tag) it stands for


_TERMS_MEMO_MAX = 4096  # the distinct term lists a Reads keeps (Reads.tags_reply)


class Reads:
    """What one request reads, each once (the authors' slugs, the tags). `counts`: the authors'
    published posts are counted (include=count.posts on authors). `languages`: the company's
    (apps.core.languages.Languages; the connection's company when None)."""

    def __init__(self, *, counts: bool = False, languages: company_languages.Languages | None = None) -> None:
        self.counts = counts
        if languages is not None:
            self.languages = languages

    @cached_property
    def languages(self) -> company_languages.Languages:
        return company_languages.current()

    def chain(self, locale: str | None) -> tuple[str, ...] | None:
        """The languages a list shows, best first (None: every post, a company with one language)."""
        return public_request.languages_for(locale, self.languages).chain

    @cached_property
    def authors(self) -> list[Author]:
        return authors(with_counts=self.counts)

    @cached_property
    def author_by_id(self) -> dict:
        return {author.user.id: author for author in self.authors}

    def author_ids(self, slug: str) -> list:
        return [author.user.id for author in self.authors if author.slug == slug.strip().lower()]

    def tags_reply(self, terms: str, site, shape) -> tuple[list[dict], dict | None]:
        """A post's tags' JSON from its `terms` column (post_terms), and its primary tag's (its first
        tag's; None without tags), made once per distinct value for this Reads: the posts of a page
        share their lists with the posts of the pages before (replies are encoded, never changed)."""
        memo = self.__dict__.setdefault("_terms_replies", {})
        found = memo.get((terms, site.base))
        if found is None:
            ghost_tags, has_tags = post_terms(terms, with_primary=True)
            replies = [self.tag_reply(term, site, shape) for term in ghost_tags]
            found = (replies, replies[0] if has_tags else None)
            if len(memo) >= _TERMS_MEMO_MAX:
                memo.clear()
            memo[(terms, site.base)] = found
        return found

    def tag_reply(self, term: GhostTag, site, shape) -> dict:
        """A tag's JSON in posts' replies (`shape(term, site)`, apps.ghost_api.shapes.tag), made once
        per term for this Reads (a request's, or a company's content version's in the WSGI layer):
        one dict shared by every post that has the tag (replies are encoded, never changed)."""
        replies = self.__dict__.setdefault("_tag_replies", {})
        key = (term, site.base)
        found = replies.get(key)
        if found is None:
            found = replies[key] = shape(term, site)
        return found

    @cached_property
    def tags(self) -> list[GhostTag]:
        merged: dict[str, GhostTag] = {}
        for row in Category.objects.order_by("name", "id").only("id", "name", "slug", "description"):
            merged.setdefault(row.slug, GhostTag(row.slug, row.name, row.description, row.id))
        for row in Tag.objects.order_by("name", "id").only("id", "name", "slug"):
            merged.setdefault(row.slug, GhostTag(row.slug, row.name, "", row.id))
        return sorted(merged.values(), key=lambda tag: (tag.name.lower(), tag.slug))


def term_posts_q(slug: str) -> Q:
    """Posts with a category or a tag of this slug (subqueries: no join, no duplicate rows)."""
    slug = slug.strip().lower()
    return (Q(id__in=Post.categories.through.objects.filter(category__slug=slug).values("post_id"))
            | Q(id__in=Post.tags.through.objects.filter(tag__slug=slug).values("post_id")))


def tag_post_counts(slugs: list[str]) -> Counter:
    """Published posts per Ghost tag (a post with the category and the tag of one slug counts once;
    pages are not counted: apps.content.kinds)."""
    listed = kinds.having("in_term_lists")
    pairs = set(Post.categories.through.objects.filter(post__status=PUBLISHED, post__kind__in=listed,
                                                       category__slug__in=slugs)
                .values_list("post_id", "category__slug"))
    pairs |= set(Post.tags.through.objects.filter(post__status=PUBLISHED, post__kind__in=listed, tag__slug__in=slugs)
                 .values_list("post_id", "tag__slug"))
    return Counter(slug for _, slug in pairs)


# --- filter fields -------------------------------------------------------------------------------
def _time(value) -> datetime:
    if not isinstance(value, str):
        raise FilterError("A date is expected")
    try:
        parsed = parse_datetime(value.replace(" ", "T", 1)) if ("T" in value or " " in value or ":" in value) else None
        if parsed is None:
            day = parse_date(value) if len(value) == 10 else None
            if day is None:
                raise FilterError(f"Not a date: {value[:40]}")
            parsed = datetime.combine(day, time.min)
    except ValueError:  # well formed, but no such day or time (2024-02-30)
        raise FilterError(f"Not a date: {value[:40]}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt_timezone.utc)


def _ordered(column: str, *, name: str):
    lookups = {"=": "exact", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte"}

    def build(op: str, values: tuple, is_list: bool) -> Q:
        if op == "!=":
            return ~equality(lambda v: Q(**{column: _time(v)}), name=name)("=", values, is_list)
        if op == "=":
            return equality(lambda v: Q(**{column: _time(v)}), name=name)("=", values, is_list)
        return Q(**{f"{column}__{lookups[op]}": _time(values[0])})
    return build


def _text(value) -> str:
    if not isinstance(value, str):
        return "true" if value is True else "false" if value is False else ""
    return value


def _flag(value_true: Q, value_false: Q):
    def match(value) -> Q:
        if value is True or value == "true":
            return value_true
        if value is False or value == "false":
            return value_false
        raise FilterError("true or false is expected")
    return match


def _one_of(accepted: str):
    return lambda value: EVERYTHING if _text(value).lower() == accepted else NOTHING


def _visibility_q(value) -> Q:
    """Ghost's visibility: public or members are ours (apps.content.models.Post.visibility); paid and
    tiers are no post's."""
    wanted = _text(value).lower()
    return Q(visibility=wanted) if wanted in ("public", "members") else NOTHING


def _uuid_q(value) -> Q:
    try:
        return Q(id=uuid.UUID(_text(value)))
    except ValueError:
        return NOTHING


def post_fields(reads: Reads, kind: kinds.Kind = kinds.POST) -> nql.Fields:
    term = equality(lambda v: term_posts_q(_text(v)), name="tag")
    author = equality(lambda v: Q(author_id__in=reads.author_ids(_text(v))), name="author")
    fields = {
        "id": equality(lambda v: ids.id_q(_text(v)), name="id"),
        "uuid": equality(_uuid_q, name="uuid"),
        "slug": equality(lambda v: Q(slug=_text(v).strip().lower()), name="slug"),
        "title": equality(lambda v: Q(title=_text(v)), name="title"),
        "tag": term, "tags": term, "tags.slug": term,
        "primary_tag": equality(lambda v: Q(ghost_primary_tag=_text(v).strip().lower()), name="primary_tag"),
        "author": author, "authors": author, "authors.slug": author, "primary_author": author,
        "featured": equality(_flag(Q(featured=True), Q(featured=False)), name="featured"),
        "visibility": equality(_visibility_q, name="visibility"),
        "status": equality(_one_of("published"), name="status"),
        "type": equality(_one_of(kind.name), name="type"),
        "published_at": _ordered("published_at", name="published_at"),
        "updated_at": _ordered("updated_at", name="updated_at"),
        "created_at": _ordered("created_at", name="created_at"),
    }
    fields["primary_tag.slug"] = fields["primary_tag"]
    fields["primary_author.slug"] = fields["primary_author"]
    return fields


def _primary_tag_slug():
    """A post's primary tag: the slug of its first tag in the post's order (apps.content.services.
    _set_tags: the order its links were made in), as a column; "" without tags (no slug is empty:
    `primary_tag:-news` keeps the posts without tags, `primary_tag:null` finds them)."""
    first = Post.tags.through.objects.filter(post_id=OuterRef("pk")).order_by("id").values("tag__slug")[:1]
    return Coalesce(Subquery(first), Value(""))


class _InChain(Expression):
    """The posts a list along a fallback chain shows: /api/v1's rule (apps.public_api.selectors.
    listed_language_sql) over each post's language and its row of the listing the posts table's
    triggers keep (its group's published languages). A post of the chain's first language passes
    on its language; a later one's listing row is read by its key. Compiled through the ORM's own
    columns, so it holds inside a subquery (the page's ids) as in its own statement."""

    conditional = True

    def __init__(self, chain: tuple[str, ...]) -> None:
        super().__init__(output_field=BooleanField())
        self.chain = chain
        self.language = F("language")
        self.group = Subquery(PostListing.objects.filter(post_id=OuterRef("pk")).values("group_published")[:1])

    def get_source_expressions(self):
        return [self.language, self.group]

    def set_source_expressions(self, exprs):
        self.language, self.group = exprs

    def as_sql(self, compiler, connection):
        language, language_params = compiler.compile(self.language)
        group, group_params = compiler.compile(self.group)
        if language_params or group_params:  # (each is written into the rule more than once)
            raise ValueError("a chain's columns take no parameters")
        # (cast: `ALL ((SELECT ...))` would compare with each row of the subquery, not its array's items)
        return public_selectors.listed_language_sql(self.chain, language=language,
                                                    group_published=f"{group}::text[]"), []


# --- posts ---------------------------------------------------------------------------------------
# A page of posts is one statement: the posts' columns, their images' (joins), their Ghost tags as
# JSON (a correlated subquery: the tags in the post's order, then the categories by name; a tag
# with a category's slug is that category) and the total (the trigger-kept count of published posts
# without a filter or a language, as apps.public_api.selectors counts it; else a window count of
# the matches).
POST_COLUMNS = ("id", "kind", "title", "slug", "content", "excerpt", "created_at", "updated_at", "published_at",
                "canonical_url", "meta_title", "meta_description", "og_title", "og_description", "twitter_title",
                "twitter_description", "author_id", "featured_image__storage_key", "featured_image__alt_text",
                "og_image__storage_key", "twitter_image__storage_key", "featured", "language", "visibility")


def _terms_json() -> RawSQL:
    q = connection.ops.quote_name
    post = q(Post._meta.db_table)
    categories, tags = q(Category._meta.db_table), q(Tag._meta.db_table)
    post_categories, post_tags = q(Post.categories.through._meta.db_table), q(Post.tags.through._meta.db_table)
    # `tag`: the entry is one of the post's tags (the first such is its primary tag: post_terms).
    return RawSQL(
        "(SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, "
        "'description', t.description, 'tag', t.kind = 0) ORDER BY t.kind, t.position, t.sort_name, t.row_id), "
        "'[]'::json) FROM ("
        f"SELECT 0 AS kind, x.id AS position, g.name AS sort_name, g.id AS row_id, coalesce(c.id, g.id)::text AS id, "
        f"coalesce(c.name, g.name) AS name, g.slug, coalesce(c.description, '') AS description "
        f"FROM {post_tags} x JOIN {tags} g ON g.id = x.tag_id "
        f"LEFT JOIN {categories} c ON c.slug = g.slug WHERE x.post_id = {post}.id "
        "UNION ALL "
        f"SELECT 1, 0, c.name, c.id, c.id::text, c.name, c.slug, c.description "
        f"FROM {post_categories} x JOIN {categories} c ON c.id = x.category_id WHERE x.post_id = {post}.id) t)::text",
        [])


# A page's times, written by PostgreSQL in Ghost's form (apps.ghost_api.shapes.ghost_time, which
# gives the same text from a datetime): read as text, a page's thirty dates are not made into
# Python datetimes only to be written out again. Named `<field>_text` in the page's rows.
_TIMES = ("created_at", "updated_at", "published_at")
_GHOST_TIME_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"'


def _ghost_times() -> dict[str, RawSQL]:
    post = connection.ops.quote_name(Post._meta.db_table)
    return {f"{field}_text": RawSQL(f"to_char({post}.{field} AT TIME ZONE 'UTC', '{_GHOST_TIME_FORMAT}')", [])
            for field in _TIMES}


def _published_total(kind: kinds.Kind = kinds.POST) -> RawSQL:
    """The number of published posts (or pages), from the counts the posts table's triggers keep
    (the public API's total of a list filtered by status only)."""
    found = public_selectors.posts_filter(schema=connection.schema_name, status=Post.Status.PUBLISHED.value,
                                          kind=kind.name)
    return RawSQL(f"({found.count_sql})", found.count_params)


def matching(reads: Reads, filter_tree=None, kind: kinds.Kind = kinds.POST,
             chain: tuple[str, ...] | None = None) -> QuerySet:
    """The published posts (or pages: `kind`) a parsed filter matches; with `chain` (Reads.chain),
    each translation group's best along it."""
    found = Post.objects.public().of_kind(kind)
    if chain:
        found = found.filter(_InChain(chain))
    if filter_tree is not None:
        if {"primary_tag", "primary_tag.slug"} & nql.fields_of(filter_tree):
            found = found.annotate(ghost_primary_tag=_primary_tag_slug())
        found = found.filter(nql._compile(filter_tree, post_fields(reads, kind)))
    return found


# A page's statement, compiled once per worker for each (schema, filter, order, offset, limit): the
# ORM takes about a millisecond to compile it, several times the statement's own time. A filter
# on authors is compiled each time (it names the authors' ids, which a request's Reads hold).
_STATEMENTS: OrderedDict[tuple, tuple[str, tuple, tuple[str, ...]] | None] = OrderedDict()
_STATEMENTS_MAX = 512
_READS_FIELDS = frozenset({"author", "authors", "authors.slug", "primary_author", "primary_author.slug"})


def posts_page(reads: Reads, *, filter_tree=None, order=(("published_at", True),), offset: int = 0,
               limit: int = 15, kind: kinds.Kind = kinds.POST, locale: str | None = None) -> tuple[list[dict], int]:
    """A page of the posts a filter matches, in `order` (then newest first), as rows of
    POST_COLUMNS and `terms` (JSON), and the total of all matches: one prepared statement
    (apps.core.db: planned once per worker and filter shape). The page's ids come first (an index
    walk that stops at the page's end), then the joins and the JSON of those rows only, as
    apps.public_api.selectors reads a page. The statement names its posts tables without a schema:
    it runs on the company's search_path, on the primary (PostgreSQL plans it again when the
    search_path differs from its last run). `locale`: the language asked for (Reads.chain)."""
    chain = reads.chain(locale)
    key = None
    if filter_tree is None or not (_READS_FIELDS & nql.fields_of(filter_tree)):
        key = (connection.schema_name, kind.name, filter_tree, tuple(order), offset, limit, chain)
    if key is not None and key in _STATEMENTS:
        statement = _STATEMENTS[key]
        _STATEMENTS.move_to_end(key)
    else:
        statement = _page_statement(reads, filter_tree, order, offset, limit, kind, chain)
        if key is not None:
            _STATEMENTS[key] = statement
            while len(_STATEMENTS) > _STATEMENTS_MAX:
                _STATEMENTS.popitem(last=False)
    if statement is None:  # a filter that matches nothing (visibility:paid): the ORM says so without SQL
        return [], 0
    sql, params, names = statement
    with db.search_path_cursor(connection):  # django-tenants sets the company's search_path on a cursor (when not yet set)
        pass
    rows = [dict(zip(names, row)) for row in db.fetch_prepared(sql, list(params))]
    if rows:
        return rows, rows[0]["total"]
    return rows, matching(reads, filter_tree, kind, chain).count()  # past the last page: counted on its own


def _page_statement(reads: Reads, filter_tree, order, offset: int, limit: int, kind: kinds.Kind = kinds.POST,
                    chain: tuple[str, ...] | None = None):
    """posts_page's statement: (SQL, parameters, column names), or None when it matches nothing."""
    found = matching(reads, filter_tree, kind, chain)
    ordering = [f"-{field}" if descending else field for field, descending in order]
    ordering += [name for name in ("-published_at", "-id") if name.lstrip("-") not in {f for f, _ in order}]
    ids = found.order_by(*ordering).values("id")[offset:offset + limit]
    # Without a filter or a language the total is the trigger-kept count; else the matches counted once.
    total = (_published_total(kind) if filter_tree is None and not chain
             else Subquery(found.order_by().annotate(matches=Window(Count("*"))).values("matches")[:1]))
    page = (Post.objects.filter(id__in=Subquery(ids)).annotate(terms=_terms_json(), total=total)
            .values(*(name for name in POST_COLUMNS if name not in _TIMES), "terms", "total", **_ghost_times())
            .order_by(*ordering))
    try:
        sql, params = page.query.get_compiler(using=page.db).as_sql()
    except EmptyResultSet:
        return None
    names = (*page.query.extra_select, *page.query.values_select, *page.query.annotation_select)
    return sql, tuple(params), names


def post_read(reads: Reads, *, ghost_id: str | None = None, slug: str | None = None,
              kind: kinds.Kind = kinds.POST, locale: str | None = None) -> dict | None:
    """One post (or page) by its Ghost id (that row, whatever its language), or by slug: the post
    /api/v1's posts/slug/{slug} names (the default language's, or along `locale`'s chain)."""
    found = Post.objects.public().of_kind(kind)
    if ghost_id is not None:
        found = found.filter(ids.id_q(ghost_id))
    else:
        sql, params = public_selectors.post_id_by_slug_sql(
            slug or "", published_only=True, kind=kind.name, **public_request.slug_languages(locale, reads.languages))
        found = found.filter(id=RawSQL(sql, params))
    return found.annotate(terms=_terms_json()).values(*POST_COLUMNS, "terms").first()


def post_terms(terms: str, *, with_primary: bool = False):
    """A post's Ghost tags from its `terms` column (_terms_json, text), one per slug (the first:
    its tags come before its categories). `with_primary`: and whether the first is one of the
    post's tags (its primary tag; a post without tags has none)."""
    seen, found = set(), []
    parsed = json.loads(terms)
    for term in parsed:
        if term["slug"] not in seen:
            seen.add(term["slug"])
            found.append(GhostTag(term["slug"], term["name"], term["description"] or "", term["id"]))
    if with_primary:
        return found, bool(parsed) and bool(parsed[0].get("tag"))
    return found


# --- tags and authors, filtered ------------------------------------------------------------------
# The filter fields of tags and authors, over their rows in memory (a company's taxonomy and staff
# are small), compiled with the same grammar: each Q is applied as a predicate (`matches`).
ROW_FIELDS: nql.Fields = {
    "slug": equality(lambda v: Q(slug=_text(v).strip().lower()), name="slug"),
    "name": equality(lambda v: Q(name=_text(v)), name="name"),
    "id": equality(lambda v: Q(id=_text(v).lower()), name="id"),
    "visibility": equality(_one_of("public"), name="visibility"),
}


def matches(q: Q, row: dict) -> bool:
    """Whether `row` (field -> value) meets a Q built from _row_fields (and, or, not; exact values;
    EVERYTHING / NOTHING)."""
    if not q.children:
        return not q.negated
    results = []
    for child in q.children:
        if isinstance(child, Q):
            results.append(matches(child, row))
        else:
            lookup, value = child
            if lookup == "pk__in":
                results.append(bool(value))  # NOTHING: pk__in=[]
            else:
                results.append(row.get(lookup) == value)
    result = all(results) if q.connector == Q.AND else any(results)
    return not result if q.negated else result


def row_filter(filter_tree) -> Q | None:
    return nql._compile(filter_tree, ROW_FIELDS) if filter_tree is not None else None
