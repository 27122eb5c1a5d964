"""Reads of the public content API.

Every website page view may reach these on a cache miss, so a page of posts is one SQL
statement: the rows, their author and featured image (joins), their categories and tags (JSON
built by PostgreSQL in correlated subqueries) and the total (an uncorrelated scalar subquery,
computed once), on one cursor. Compared with the content app's ORM selectors (4 queries, ORM
objects, then pydantic schemas) this is several times cheaper per request; the results are
the same, which the tests check against the content app itself:
- filters follow apps.content.selectors.post_list (status, search through its
  `search_matches`, or `search_parts` for a page that tests the newest posts one by one:
  `_walks`, category, tag) and its order (newest first), but for a members-only post, which a
  search finds by its title only (its body is its members': content.TEXT_FOR_EVERYONE);
- each post is exactly the content app's PostSummaryOut / PostOut, as JSON.
Categories and tags count published posts only here: a website must not learn how many drafts
a category holds.
"""
from __future__ import annotations

import functools

import re
import time
from dataclasses import dataclass
from functools import lru_cache

from django.db import connection
from django.db.models import Count, Q, QuerySet

from apps.accounts.models import User
from apps.accounts.profiles import PROFILE_FIELDS, author_fields
from apps.content import kinds
from apps.content import selectors as content
from apps.content import post_fields
from apps.content.post_schemas import media_urls
from apps.content.models import (PUBLIC_VISIBILITY, SEARCH_CONFIG, Category, Post, PostCount, PostListing, Tag,
                                 public_q, public_sql)
from apps.content.post_fields import iso
from apps.core import db, digests
from apps.core.errors import NotFound
from apps.core.pagination import Page
from apps.core.text import slug_lookup
from apps.media.models import Media

# The posts a category or tag counts publicly: published, of the kinds its lists show (posts).
PUBLISHED = public_q("posts__") & Q(posts__kind__in=kinds.having("in_term_lists"))
TRIGRAM = 3  # pg_trgm's unit: a title pattern shorter than this cannot use the title's index
_STATUS_LITERALS = {status.value: status.value for status in Post.Status}
_POST = Post._meta.db_table


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model, schema: str) -> str:
    """A table of the company's schema, named with its schema: the statement means the same
    whatever the connection's search_path, so one prepared statement serves each company."""
    return f"{_q(schema)}.{_q(model._meta.db_table)}"


def _terms_sql(through, column: str, model, schema: str, locale: str | None = None) -> str:
    """JSON array of {id, name, slug} of one post, ordered by name (as the content app); with
    `locale`, the name and slug in that language where the term has them (docs/translations.md)."""
    name, slug = "t.name", "t.slug"
    if locale is not None:
        name = f"coalesce(t.translations -> {_literal(locale)} ->> 'name', t.name)"
        slug = f"coalesce(t.translations -> {_literal(locale)} ->> 'slug', t.slug)"
    return (
        f"(SELECT coalesce(json_agg(json_build_object('id', t.id::text, 'name', {name}, 'slug', {slug}) "
        f"ORDER BY {name}, t.id), '[]'::json) FROM {_table(through, schema)} x "
        f"JOIN {_table(model, schema)} t ON t.id = x.{_q(column)} WHERE x.post_id = {_q(_POST)}.id)"
    )


_AUTHOR_PROFILE = PROFILE_FIELDS  # the author's profile columns, after id and username


def _author(values, urls) -> dict | None:
    author_id, username, *profile = values
    return author_fields(id=author_id, username=username, **dict(zip(_AUTHOR_PROFILE, profile))) if author_id else None


def _image(values, urls) -> dict | None:
    image_id, storage_key, alt_text = values
    if not image_id:
        return None
    built = urls()
    return {"id": str(image_id), "spacesKey": storage_key, "altText": alt_text or "",
            "link": built.link(storage_key), "cdnUrl": built.cdn(storage_key)}


def _image_columns(alias: str):
    def columns(schema: str, locale: str | None = None) -> list[str]:
        alt = f"{alias}.alt_text" if locale is None else (
            f"coalesce(nullif({alias}.alt_texts ->> {_literal(locale)}, ''), {alias}.alt_text)")
        return [f"{alias}.id", f"{alias}.storage_key", alt]
    return columns


def _first(values, urls):
    return values[0]


# The fields of apps.content.post_fields built from joins (or derived): their SQL, given the
# schema, and their JSON from those columns.
_JOINED = {
    "author": (lambda schema, locale=None: ["author.id", "author.username",
                                            *(f"author.{_q(column)}" for column in _AUTHOR_PROFILE)], _author),
    "categories": (lambda schema, locale=None: [_terms_sql(Post.categories.through, "category_id", Category, schema,
                                                           locale)], _first),
    "tags": (lambda schema, locale=None: [_terms_sql(Post.tags.through, "tag_id", Tag, schema, locale)], _first),
    "featured_image": (_image_columns("image"), _image),
    # only in the full post (post_by_slug joins them: _detail_joins)
    "og_image": (_image_columns("og_image"), _image),
    "twitter_image": (_image_columns("twitter_image"), _image),
    "scheduled": (lambda schema, locale=None: [f"({_q(_POST)}.publish_scheduled AND {_q(_POST)}.status = "
                                               f"'{Post.Status.DRAFT.value}')"], _first),
}


def _columns(fields, schema: str, locale: str | None = None) -> list[str]:
    """`locale`: terms' names and slugs and images' alt text in that language (docs/translations.md)."""
    columns = []
    for field in fields:
        columns.extend(_JOINED[field.kind][0](schema, locale) if field.column is None else
                       [f"{_q(_POST)}.{_q(field.column)}"])
    return columns


def _one_column(convert):
    return lambda values, urls: convert(values[0])


def _reader(fields) -> list[tuple]:
    """Per field: its JSON name, the slice of the row that holds it, and its JSON from that slice."""
    steps, at = [], 0
    for field in fields:
        if field.column is None:
            width, convert = len(_JOINED[field.kind][0]("-")), _JOINED[field.kind][1]
        else:
            width = 1
            convert = _one_column(iso if field.kind in post_fields.TIMES else field.from_column)
        steps.append((field.name, at, at + width, convert))
        at += width
    return steps


_SUMMARY_READER = _reader(post_fields.SUMMARY)
_DETAIL_READER = _reader(post_fields.DETAIL)
_SUMMARY_WIDTH = _SUMMARY_READER[-1][2]


def _read(row, reader, urls, into: dict | None = None) -> dict:
    out = {} if into is None else into
    for name, start, stop, convert in reader:
        out[name] = convert(row[start:stop], urls)
    return out


def _summary_columns(schema: str, locale: str | None = None) -> str:
    return ", ".join(_columns(post_fields.SUMMARY, schema, locale))


def _joins(schema: str) -> str:
    return (
        f"LEFT JOIN {_table(User, schema)} author ON author.id = {_q(_POST)}.author_id "
        f"LEFT JOIN {_table(Media, schema)} image ON image.id = {_q(_POST)}.featured_image_id"
    )


def _detail_joins(schema: str) -> str:
    return (
        f"LEFT JOIN {_table(Media, schema)} og_image ON og_image.id = {_q(_POST)}.og_image_id "
        f"LEFT JOIN {_table(Media, schema)} twitter_image ON twitter_image.id = {_q(_POST)}.twitter_image_id"
    )


def _kind_literal(kind: str) -> str:
    """A kind written into a statement (one of apps.content.kinds', checked): it leads the lists' indexes."""
    return f"'{kinds.of(kind).name}'"


def _where(*, schema: str, status: str, category_id=None, tag_id=None, category_slug=None,
           tag_slug=None, fenced: bool = False, term_locale: str | None = None,
           kind: str = kinds.POST.name, featured: bool | None = None) -> tuple[str, list]:
    """The rows of `kind` (apps.content.kinds: posts, or pages). `fenced`: the category/tag
    condition is checked post by post (OFFSET 0 keeps PostgreSQL from turning it into a join), so
    a page walks the date index and stops at its last row. `featured`: the featured rows only
    (True), the others (False)."""
    post = _q(_POST)
    fence = " OFFSET 0" if fenced else ""
    parts, params = [f"{post}.kind = {_kind_literal(kind)}"], []
    if status != "all":
        # Written into the statement (one of a fixed few): each status gets a plan of its own.
        parts.append(f"{post}.status = '{_STATUS_LITERALS[status]}'")
    if featured is not None:
        # A constant too: `featured = true` reads the featured rows' own index (content_post_featured_idx).
        parts.append(f"{post}.featured = {'true' if featured else 'false'}")
    for through, column, term, value, slug in (
            (Post.categories.through, "category_id", Category, category_id, category_slug),
            (Post.tags.through, "tag_id", Tag, tag_id, tag_slug)):
        if value is not None:
            parts.append(f"EXISTS (SELECT 1 FROM {_table(through, schema)} f "
                         f"WHERE f.post_id = {post}.id AND f.{_q(column)} = %s{fence})")
            params.append(value)
        elif slug is not None and term_locale is not None:  # its slug, or its slug in that language
            parts.append(f"EXISTS (SELECT 1 FROM {_table(through, schema)} f JOIN {_table(term, schema)} t "
                         f"ON t.id = f.{_q(column)} WHERE f.post_id = {post}.id AND (t.slug = %s OR "
                         f"t.translations -> {_literal(term_locale)} ->> 'slug' = %s){fence})")
            params.extend([slug, slug])
        elif slug is not None:
            parts.append(f"EXISTS (SELECT 1 FROM {_table(through, schema)} f JOIN {_table(term, schema)} t "
                         f"ON t.id = f.{_q(column)} WHERE f.post_id = {post}.id AND t.slug = %s{fence})")
            params.append(slug)
    return " AND ".join(parts) or "TRUE", params


def _summary(row, urls) -> dict:
    return _read(row, _SUMMARY_READER, urls)


class _Urls:
    """The media URL builder of the company of `schema` (the connection's when None), made on
    first use (only pages with images need it)."""

    def __init__(self, schema: str | None = None) -> None:
        self._schema = schema
        self._urls = None

    def __call__(self):
        if self._urls is None:
            self._urls = media_urls(self._schema)
        return self._urls


@dataclass(frozen=True)
class PostFilter:
    """Which posts a listing shows (not which page): the rows of `source` (the posts table, or a
    search's matches) that meet `where`. `key` names it for totals kept between pages
    (apps.public_api.cache.Counts)."""
    schema: str
    source: str
    where: str
    params: list  # of source, then where
    # (source: the search's matches, named as the posts table so `where` applies as is)
    key: str
    searched: bool  # a search: run on the company's search_path, on the primary (_fetch_search)
    # A search too short for the title's trigram index: planned on its values (_fetch_search)
    planned: bool
    count_sql: str  # the number of posts it shows
    count_params: list
    # The total is one row of the trigger-kept counts (status-only and category/tag lists): it is
    # read with the page, never also kept in Redis. Search totals are counted, and kept there.
    total_kept: bool
    # A category's or tag's list: its size and the size of all posts of its status, from the
    # trigger-kept counts (with count_params), and `where` with the term checked post by post.
    sizes_sql: str | None = None
    walk_where: str | None = None
    # With `?locale=`: each post also carries its `locale` and `translations` (of `status`).
    localized: bool = False
    status: str = "published"
    term_locale: str | None = None  # the language of terms' names and images' alt text (a locale asked)
    # A search (stripped) and its configurations, `where`'s own parameters (without the search's):
    # a page may test the newest posts one by one against it (_walks, _search_test); and the
    # number of posts of the status, which that choice weighs.
    search: str | None = None
    configs: tuple = ()
    where_params: tuple = ()
    everything_sql: str = ""
    # Read from the published posts' listing (_listing): a chain of two languages or more.
    listed: bool = False


_CODE = re.compile(r"[A-Za-z0-9-]{1,35}")


def _literal(code: str) -> str:
    """A language code written into a statement (codes are checked by apps.core.languages, and
    again here: letters, digits and hyphens only). Constants, not parameters: each chain gets a
    prepared statement of its own whose generic plan is as good as a custom one (with an array
    parameter PostgreSQL kept planning each execution, a millisecond each time)."""
    if not _CODE.fullmatch(code):
        raise ValueError(f"not a language code: {code!r}")
    return f"'{code}'"


def _language_where(schema: str, status: str, chain: tuple[str, ...] | None) -> tuple[str, list]:
    """The posts of a language (`chain` of one), or the best of each translation group along a
    fallback chain: a post in the chain whose group has no post of the same status in a language
    earlier in the chain. Used by searches and by lists of other statuses than published (a
    published list reads the listing: _listed_language_where). A post of the chain's first
    language is taken as it is; a later one looks up each earlier language of its group, one
    probe of the (translation_group, language) unique index that holds the status too (an
    index-only read). Written as scalar subqueries after the language's comparison (_ranked): a
    NOT EXISTS there is hashed over every post of the earlier languages (3,000 rows read per
    page), and as an anti-join every post probes, the first language's too."""
    if not chain:
        return "", []
    post = _q(_POST)
    if len(chain) == 1:
        return f"{post}.language = {_literal(chain[0])}", []
    table = _table(Post, schema)

    def absent(code: str) -> str:
        found = (f"FROM {table} b WHERE b.translation_group = {post}.translation_group "
                 f"AND b.language = {_literal(code)}")
        if status == "all":
            return f"(SELECT 1 {found}) IS NULL"
        return f"(SELECT b.status {found}) IS DISTINCT FROM '{_STATUS_LITERALS[status]}'"

    return _ranked(chain, absent), []


def _ranked(chain: tuple[str, ...], absent, language: str | None = None) -> str:
    """The rule of a list along a fallback chain, whichever way the group is read: a post of the
    chain's first language, or of a later one whose group has none of the earlier ones
    (`absent(code)`: the condition that the post's group has no post of that language to show).
    One OR per language, the language compared first: a French post passes on its first
    comparison and a look-up runs only for a later language's post (10 % cheaper a walk of the
    listing than an IN and a CASE). `language`: the SQL of the post's language (its column by
    default)."""
    language = language or f"{_q(_POST)}.language"
    return "(" + " OR ".join(
        " AND ".join([f"{language} = {_literal(code)}", *(absent(earlier) for earlier in chain[:at])])
        for at, code in enumerate(chain)) + ")"


def _listing(schema: str) -> str:
    """The published posts with their groups' published languages (apps.content.models.PostListing,
    kept by the posts table's triggers), named as the posts table so a filter applies as is."""
    return (f"(SELECT l.post_id AS id, l.kind, l.created_at, l.language, l.group_published "
            f"FROM {_table(PostListing, schema)} l) {_q(_POST)}")


def _listed_language_where(chain: tuple[str, ...]) -> str:
    """_language_where for the published posts read from _listing: the group's languages are in
    the row, so a page walks the listing's index alone, without a look-up per post."""
    return listed_language_sql(chain, language=f"{_q(_POST)}.language", group_published=f"{_q(_POST)}.group_published")


def listed_language_sql(chain: tuple[str, ...], *, language: str, group_published: str) -> str:
    """The published posts a list along `chain` shows (_ranked, with the listing's languages of each
    post's group), for a statement whose columns are named otherwise: `language` the SQL of the
    post's language, `group_published` of its listing row's `group_published` (the Ghost-compatible
    API's ORM statements, apps.ghost_api.selectors). Neither may take parameters."""
    return _ranked(chain, lambda code: f"{_literal(code)} <> ALL ({group_published})", language)


@lru_cache(maxsize=1024)
def posts_filter(*, schema: str, status: str, search: str | None = None, category_id=None, tag_id=None,
                 category_slug: str | None = None, tag_slug: str | None = None, locale: str | None = None,
                 chain: tuple[str, ...] | None = None, configs: tuple[str, ...] = (SEARCH_CONFIG,),
                 kind: str = kinds.POST.name, featured: bool | None = None) -> PostFilter:
    """The filter of a listing of `kind` (posts, or pages: apps.content.kinds) in `schema`: by
    status, and a search, or posts of a category or a
    tag (by id, or by slug: posts of a slug no category has are simply none). Built once per
    listing and worker (it depends on its arguments only); callers never change its lists.
    Languages (docs/translations.md): `chain` (apps.public_api.request.ListQuery.languages_of) is
    the languages it shows, best first, one post per translation group (None: every post, a
    company with one language); `locale`, as asked, names the listing; `configs`: the text
    search configurations a search uses. `featured`: the featured posts only (True), the others
    (False); its total is counted (the trigger-kept counts are per status and term)."""
    terms = {"category_id": category_id, "tag_id": tag_id, "category_slug": category_slug, "tag_slug": tag_slug,
             "kind": kind, "featured": featured}
    term_locale = chain[0] if locale is not None and chain else None
    searched = bool(search and search.strip())
    source, search_sql = _table(Post, schema), ""
    # The published posts along a chain of two languages or more: from the listing, whose rows
    # carry their groups' languages (a search reads its matches, each looked up; other statuses
    # look up the posts table's index).
    # (The listing has no featured column: a featured list along a chain asks the posts table's index.)
    listed = (bool(chain) and len(chain) > 1 and status == Post.Status.PUBLISHED.value and not searched
              and featured is None)
    if listed:
        # every row of the listing is published: only the terms' conditions
        where, params = _where(schema=schema, status="all", term_locale=term_locale, **terms)
        language_where, language_params = _listed_language_where(chain), []
        source = _listing(schema)
    else:
        where, params = _where(schema=schema, status=status, term_locale=term_locale, **terms)
        language_where, language_params = _language_where(schema, status, chain)
    if language_where:
        where, params = f"{where} AND {language_where}", [*params, *language_params]
    where_params = tuple(params)
    if searched:
        search_sql, search_params = _search_source(search.strip(), configs)
        source = f"({search_sql}) {_q(_POST)}"
        params = [*search_params, *params]
    # Named without the schema: the same listing has the same key in every company (the Counts
    # of the fast path and of Django's path meet), each company's totals apart by their Redis key
    # (and its content version, which a change of its languages moves on).
    template, term_params = _where(schema="", status=status, **terms)
    key = digests.sha1(f"{search!r}|{template}|{term_params!r}|{locale!r}".encode()).hexdigest()  # noqa: S324
    given = [(name, value) for name, value in terms.items() if value is not None and name not in ("kind", "featured")]
    # The counts' rows of this kind and status (apps.content.kinds.Kind.count_key).
    keys = kinds.of(kind).count_keys(status if status == "all" else _STATUS_LITERALS[status])
    quoted = ", ".join(f"'{key}'" for key in keys)
    status_only = f" AND c.status = {quoted}" if len(keys) == 1 else f" AND c.status IN ({quoted})"
    everything_sql = f"SELECT coalesce(sum(c.total), 0)::bigint FROM {_table(PostCount, schema)} c WHERE TRUE{status_only}"
    sizes_sql = walk_where = None
    if language_where:
        # Counted (and kept in Redis between pages): the trigger-kept counts are per status, not
        # per language.
        count_sql = f"SELECT count(*) FROM {source} WHERE {where}"
        count_params = params
    elif not searched and not given and featured is None:
        # Filtered by status only: the total is read from the counts the posts table's
        # triggers keep (apps.content.models.PostCount), one row, however many posts.
        count_sql, count_params = everything_sql, []
    elif not searched and len(given) == 1 and featured is None:
        # The posts of one category or tag: from the per-term counts the link tables' and posts
        # table's triggers keep (migration content 0004), a row or two, however large the term.
        name, value = given[0]
        kind = name.split("_")[0]  # category or tag
        counts, column = f"{_q(schema)}.{_q(f'content_{kind}_count')}", _q(f"{kind}_id")
        if name.endswith("_slug"):
            term = _table(Category if kind == "category" else Tag, schema)
            count_sql = (f"SELECT coalesce(sum(c.total), 0)::bigint FROM {counts} c JOIN {term} t "
                         f"ON t.id = c.{column} WHERE t.slug = %s" + status_only)
        else:
            count_sql = f"SELECT coalesce(sum(c.total), 0)::bigint FROM {counts} c WHERE c.{column} = %s" + status_only
        count_params = [value]
        sizes_sql = f"SELECT ({count_sql}), ({everything_sql})"
        walk_where, _ = _where(schema=schema, status=status, fenced=True, **terms)
    else:
        count_sql = f"SELECT count(*) FROM {source} WHERE {where}"
        count_params = params
    planned = searched and len(search.strip()) < TRIGRAM
    return PostFilter(schema=schema, source=source, where=where, params=params, key=key, searched=searched,
                      planned=planned,
                      count_sql=count_sql, count_params=count_params, total_kept="count(*)" not in count_sql,
                      sizes_sql=sizes_sql, walk_where=walk_where, localized=locale is not None, status=status,
                      term_locale=term_locale, search=search.strip() if searched else None, configs=configs,
                      where_params=where_params, everything_sql=everything_sql, listed=listed)


@lru_cache(maxsize=1024)
def _search_test(search: str, configs: tuple[str, ...]) -> tuple[str, tuple]:
    """The content app's search (apps.content.selectors.search_parts) as a test of one post: its
    title holds the query, or its full text matches the words. The full-text query is made once
    per statement (an uncorrelated subquery), and the whole test is wrapped in IS TRUE, which no
    index answers: a page walking the date index tests each post it reads and stops at its last."""
    by_title, by_text = content.search_parts(search, configs)
    query = Post.objects.filter(by_title).query
    compiler = query.get_compiler(connection=connection)
    sql, params = query.where.as_sql(compiler, connection)
    if by_text is not None:
        text_sql, text_params = compiler.compile(by_text.resolve_expression(query))
        # a members-only post's body is not searched here (content.TEXT_FOR_EVERYONE: its title is)
        sql = (f"{sql} OR ({_q(_POST)}.{_q('visibility')} = '{PUBLIC_VISIBILITY}' AND "
               f"{_q(_POST)}.{_q('search_vector')} @@ (SELECT {text_sql}))")
        params = [*params, *text_params]
    return f"({sql}) IS TRUE", tuple(params)


@lru_cache(maxsize=1024)
def _search_source(search: str, configs: tuple[str, ...] = (SEARCH_CONFIG,)) -> tuple[str, tuple]:
    """The content app's search (each index's matches, united), with the columns the page needs
    read by those same scans; compiled once per term (the ORM takes about a millisecond)."""
    fields = ("id", "kind", "created_at", "status", "language", "translation_group", "featured")
    matches = content.search_matches(search, fields=fields, configs=configs, members_bodies=False)
    sql, params = matches.query.get_compiler(connection=connection).as_sql()
    return sql, tuple(params)


def _localized_columns(schema: str, status: str) -> str:
    """A post's language and its group's translations ([{locale, slug}] of `status`, by locale)."""
    post = _q(_POST)
    same_status = f" AND t.status = '{_STATUS_LITERALS[status]}'" if status != "all" else ""
    return (f"{post}.language, (SELECT coalesce(json_agg(json_build_object('locale', t.language, 'slug', t.slug) "
            f"ORDER BY t.language), '[]'::json) FROM {_table(Post, schema)} t "
            f"WHERE t.translation_group = {post}.translation_group{same_status})")


def _localized(post: dict, language: str, translations) -> dict:
    post["locale"] = language
    post["translations"] = translations
    return post


def _listed_translations(languages: list[str], slugs: list[str]) -> list[dict]:
    """A listed post's `translations` from its listing row (_localized_columns' JSON, the same
    order: the listing keeps a group's published languages sorted as PostgreSQL sorts them)."""
    return [{"locale": language, "slug": slug} for language, slug in zip(languages, slugs, strict=True)]


@lru_cache(maxsize=512)
def _page_sql(schema: str, source: str, where: str, count_sql: str, searched: bool, with_total: bool,
              limit: int, localized_status: str | None = None, term_locale: str | None = None,
              listed: bool = False) -> str:
    """The statement of a page. LIMIT is written into it (a checked int, 1 to 100): with it
    known, PostgreSQL's generic plan of the prepared statement walks the index as a custom plan
    does, and is kept (no planning per request); with LIMIT as a parameter it sorts the table.
    `listed`: a page of the listing (_listing), whose rows give each post's translations."""
    post, table = _q(_POST), _table(Post, schema)
    listing = f"JOIN {_table(PostListing, schema)} listed ON listed.post_id = page.id " if listed else ""
    rest = (f"JOIN {table} ON {post}.id = page.id {listing}{_joins(schema)} "
            "ORDER BY page.created_at DESC, page.id DESC")
    columns = _summary_columns(schema, term_locale)
    if localized_status is not None and listed:
        columns = f"{columns}, {post}.language, listed.group_published, listed.group_slugs"
    elif localized_status is not None:
        columns = f"{columns}, {_localized_columns(schema, localized_status)}"
    if searched:
        # A search's matches are found once (their total and their newest first come from the
        # same set), not once per use.
        return (
            f"WITH matched AS MATERIALIZED (SELECT {post}.id, {post}.created_at FROM {source} WHERE {where}) "
            f"SELECT {columns}, {'(SELECT count(*) FROM matched)' if with_total else 'NULL'} "
            "AS total FROM (SELECT id, created_at FROM matched ORDER BY created_at DESC, id DESC "
            f"LIMIT {int(limit)} OFFSET %s) page {rest}"
        )
    # The page's ids first (an index walk, however deep the page), then the joins and the JSON
    # of those rows only; the total (unless known) in the same statement.
    return (
        f"SELECT {columns}, {'(' + count_sql + ')' if with_total else 'NULL'} AS total "
        f"FROM (SELECT {post}.id, {post}.created_at FROM {source} WHERE {where} "
        f"ORDER BY {post}.created_at DESC, {post}.id DESC LIMIT {int(limit)} OFFSET %s) page {rest}"
    )


def posts_page_rows(found: PostFilter, page: Page, *, with_total: bool,
                    known: int | None = None) -> tuple[list[tuple], int | None]:
    """The page's rows in one prepared statement (apps.core.db), and the total (counted in the
    same statement) when asked for, else None. `known`: the total, when the caller has it kept (a
    search then chooses how to read its page: _walks)."""
    if found.sizes_sql is not None:
        return _term_page_rows(found, page, with_total=with_total)
    if found.search is not None and known is not None and not with_total and _walks(found, page, known):
        test, test_params = _search_test(found.search, found.configs)  # compiled only for a walk
        sql = _page_sql(found.schema, _table(Post, found.schema), f"{found.where} AND {test}", "", False, False,
                        page.limit, found.status if found.localized else None, found.term_locale)
        return _fetch_public(found.schema, sql, [*found.where_params, *test_params, page.offset]), None
    sql = _page_sql(found.schema, found.source, found.where, found.count_sql, found.searched, with_total,
                    page.limit, found.status if found.localized else None, found.term_locale, found.listed)
    counting = with_total and not found.searched  # the count's own subquery (a search counts its matches)
    params = [*(found.count_params if counting else []), *found.params, page.offset]
    fetch = (functools.partial(_fetch_search, planned=found.planned) if found.searched
             else functools.partial(_fetch_public, found.schema))
    rows = fetch(sql, params)
    if not with_total:
        return rows, None
    if rows:
        return rows, rows[0][-1]
    return rows, fetch(found.count_sql, found.count_params)[0][0]


def _term_page_rows(found: PostFilter, page: Page, *, with_total: bool) -> tuple[list[tuple], int | None]:
    """A page of a category's or tag's posts. Its size and the number of all posts of the status
    come first (trigger-kept counts, one prepared statement); then the page, by whichever way
    reads fewer rows: walking the date index and checking each post for the term, which needs
    about (offset + limit) * all / size checks, or reading all of the term's posts and sorting
    them (size rows). One plan for both is several times slower on one of them: a term with a
    tenth of 100,000 posts, or a term with a few."""
    size, everything = _fetch_public(found.schema, found.sizes_sql, found.count_params)[0]
    walk = (page.offset + page.limit) * everything < size * size
    where = found.walk_where if walk else found.where
    sql = _page_sql(found.schema, found.source, where, found.count_sql, False, False, page.limit,
                    found.status if found.localized else None, found.term_locale)
    rows = _fetch_public(found.schema, sql, [*found.params, page.offset])
    return rows, (size if with_total else None)


def _walks(found: PostFilter, page: Page, matches: int) -> bool:
    """A search's page of a term with many matches walks the date index, testing each post
    (_search_test), and stops at the page's last match: about (offset + limit) * all / matches
    posts read, however large the table. Otherwise it reads every match (the indexes', then
    sorted). As a category's page chooses (_term_page_rows), on the same costs per row (about a
    microsecond either way, the post's `search_vector` read in its row: migration content 0013)."""
    return (page.offset + page.limit) * _status_size(found.schema, found.everything_sql) < matches * matches


SIZE_TTL = 60.0  # seconds a worker keeps the number of posts of a status (a choice of plan, not a reply)
_sizes: dict[str, tuple[float, int]] = {}  # by the statement that counts them (it names the schema)


def _status_size(schema: str, everything_sql: str) -> int:
    """The number of posts of a status in `schema` (the trigger-kept counts), kept SIZE_TTL
    seconds per worker: it only chooses how a page is read, both ways give the same rows."""
    now = time.monotonic()
    kept = _sizes.get(everything_sql)
    if kept is not None and now - kept[0] < SIZE_TTL:
        return kept[1]
    size = _fetch_public(schema, everything_sql, [])[0][0]
    if len(_sizes) >= 4096:
        _sizes.clear()
    _sizes[everything_sql] = (now, size)
    return size


def _fetch_public(schema: str, sql: str, params: list) -> list[tuple]:
    """A published-content read of a website: a read replica may answer it once it has the
    company's last content write (DATABASE_REPLICA_URLS); the dashboard's reads never go there."""
    return db.fetch_prepared(sql, params, replica=schema)


def _fetch_search(sql: str, params: list, *, planned: bool) -> list[tuple]:
    """A search. The content app's condition names its tables without a schema, so it runs on the
    company's search_path (django-tenants sets it when the cursor is made), on the primary.
    Prepared, on its generic plan, like every other read: the statement is the same whatever the
    words (they are parameters) and the generic plan reads both indexes as a plan for the words
    would, without planning each time (0.6 ms of a 1 ms statement, measured with 10,000 posts);
    PostgreSQL parses it again when the search_path differs from its last run. `planned`: a
    search of fewer than TRIGRAM characters, which the title's trigram index cannot narrow (a
    plan for the words reads the table instead: 14 ms against 21 ms for "a")."""
    with db.search_path_cursor(connection) as cursor:
        if planned:
            cursor.execute(sql, params)
            return cursor.fetchall()
    return db.fetch_prepared(sql, params)


def posts_page_summaries(rows: list[tuple], schema: str | None = None, *, localized: bool = False,
                         listed: bool = False) -> list[dict]:
    """`listed`: rows of a listed page (PostFilter.listed), whose translations are two arrays."""
    urls = _Urls(schema)
    if localized and listed:
        return [_localized(_summary(row, urls), row[_SUMMARY_WIDTH],
                           _listed_translations(row[_SUMMARY_WIDTH + 1], row[_SUMMARY_WIDTH + 2])) for row in rows]
    if localized:
        return [_localized(_summary(row, urls), row[_SUMMARY_WIDTH], row[_SUMMARY_WIDTH + 1]) for row in rows]
    return [_summary(row, urls) for row in rows]


def post_by_slug(slug: str, *, published_only: bool, replica: bool = True, chain: tuple[str, ...] | None = None,
                 localized: bool = False, default: str | None = None, kind: str = kinds.POST.name) -> dict:
    """The full post (PostOut) of a slug, of `kind` (a page's slug is no post's: apps.content.kinds);
    NotFound as the content app's post_get_by_slug.
    `replica=False`: a read that must see the caller's own write (on the primary).
    Languages (docs/translations.md): with `chain` (a `?locale=`), the post of that slug (in the
    chain's languages first), then the best translation of its group along the chain; with
    `localized` the post carries `locale` and `translations`. `default`: without a locale in a
    company of several languages, a slug that two languages use is the default language's."""
    where, params = _slug_where(slug, published_only=published_only, chain=chain, default=default, kind=kind)
    status = "published" if published_only else "all"
    return _one_post(where, params, replica=replica, localized_status=status if localized else None,
                     term_locale=chain[0] if localized and chain else None, not_found=kinds.of(kind).not_found)


def post_id_by_slug_sql(slug: str, *, published_only: bool, chain: tuple[str, ...] | None = None,
                        default: str | None = None, kind: str = kinds.POST.name) -> tuple[str, list]:
    """A scalar subquery of the id of the post post_by_slug reads (the same rule: `chain` and
    `default` as there), for a reader that writes the post in its own shape (the Ghost-compatible
    API: apps.ghost_api.selectors.post_read). Its statement names the posts table with its schema."""
    where, params = _slug_where(slug, published_only=published_only, chain=chain, default=default, kind=kind)
    return f"(SELECT {_q(_POST)}.id FROM {_table(Post, connection.schema_name)} WHERE {where} LIMIT 1)", params


def _slug_where(slug: str, *, published_only: bool, chain: tuple[str, ...] | None, default: str | None,
                kind: str) -> tuple[str, list]:
    """Which post a slug names (post_by_slug's rule), as a condition on the posts table (with an
    ORDER BY for `default`)."""
    post = _q(_POST)
    value = slug_lookup(slug)  # percent-encoded or not (an IRI)
    of_kind = _kind_literal(kind)
    if chain:
        public = public_sql("h") + " AND " + public_sql("c") if published_only else "TRUE"
        def rank(alias: str) -> str:
            whens = " ".join(f"WHEN {_literal(code)} THEN {at}" for at, code in enumerate(chain))
            return f"CASE {alias}.language {whens} ELSE {len(chain)} END"

        where = (f"{post}.id = (SELECT c.id FROM {_table(Post, connection.schema_name)} h "
                 f"JOIN {_table(Post, connection.schema_name)} c ON c.translation_group = h.translation_group "
                 f"WHERE h.slug = %s AND h.kind = {of_kind} AND {public} "
                 f"ORDER BY {rank('h')}, {rank('c')}, (c.id = h.id) DESC LIMIT 1)")
        params: list = [value]
    else:
        where = f"{post}.slug = %s AND {post}.kind = {of_kind}"
        params = [value]
        if published_only:
            where += f" AND {public_sql(post)}"
        if default is not None:
            where += f" ORDER BY ({post}.language = {_literal(default)}) DESC"
    return where, params


def post_by_id(post_id, *, localized: bool = False) -> dict:
    """The full post (PostOut, as post_by_slug) of an id, whatever its status (a preview link's: read
    on the primary, so a draft saved a moment ago is what the preview shows). `localized`: with its
    `locale` and its group's published `translations`."""
    return _one_post(f"{_q(_POST)}.id = %s", [post_id], replica=False,
                     localized_status="published" if localized else None)


def _one_post(where: str, params: list, *, replica: bool, localized_status: str | None = None,
              term_locale: str | None = None, not_found: str = content.POST_NOT_FOUND) -> dict:
    schema = connection.schema_name
    detail = ", ".join(_columns(post_fields.DETAIL, schema, term_locale))
    if localized_status is not None:
        detail = f"{detail}, {_localized_columns(schema, localized_status)}"
    rows = db.fetch_prepared(
        f"SELECT {_summary_columns(schema, term_locale)}, {detail} FROM {_table(Post, schema)} {_joins(schema)} "
        f"{_detail_joins(schema)} WHERE {where} LIMIT 1",
        params, replica=schema if replica else None)
    if not rows:
        raise NotFound(not_found)
    row = rows[0]
    urls = _Urls()
    post = _read(row[_SUMMARY_WIDTH:], _DETAIL_READER, urls, into=_summary(row, urls))
    if localized_status is not None:
        _localized(post, row[-2], row[-1])
    return post


def term_exists(kind: str, slug: str, locale: str | None = None) -> bool:
    """A category ("category") or tag ("tag") of this slug (normalised) exists (with `locale`: or
    has this slug in that language)."""
    return (Category if kind == "category" else Tag).objects.filter(content.term_slug_q(slug, locale)).exists()


def categories() -> QuerySet[Category]:
    return Category.objects.annotate(post_count=Count("posts", filter=PUBLISHED)).order_by("name", "id")


def tags() -> QuerySet[Tag]:
    return Tag.objects.annotate(post_count=Count("posts", filter=PUBLISHED)).order_by("name", "id")
