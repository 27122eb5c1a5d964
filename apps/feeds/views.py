"""RSS 2.0 and Atom feeds, the sitemap and robots.txt of a company's published posts, on its own
host, without a key (feed readers and crawlers send no headers).

Feeds are Django's syndication framework. The sitemap is written here: its URLs are on the
company's website (its own domain, from the post URL template), which Django's sitemap framework
cannot express (it prefixes every location with the requesting host). Every reply is cached per
company, path, content version and company settings (a write to content or settings is seen at
once), and carries ETag and Last-Modified: a matching If-None-Match or If-Modified-Since gets 304.

They follow the gate of the public content API (Client.may_syndicate): a company whose email is not
verified yet answers 403 here as there. A members-only post is listed (title, link, excerpt) and is
in the sitemap, never with its body (docs/content.md#members-only-posts). Every string is written
through the output rule of apps.core.text, so a stored control character cannot break a feed
(docs/text-and-feeds.md).
"""
from __future__ import annotations

import hashlib
import math
from functools import wraps
from xml.sax.saxutils import escape

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, quote_etag
from django.utils.encoding import iri_to_uri
from django.utils.feedgenerator import Atom1Feed, Rss201rev2Feed
from django.utils.http import http_date

from apps.content import kinds
from apps.content.models import Category, Tag
from apps.content.rules import body_for_reader
from apps.core.content_version import content_version_get
from apps.core.errors import NotFound
from apps.core.text import xml_data, xml_text
from apps.feeds import selectors
from apps.core import languages
from tenants.addresses import tenant_base_url
from apps.core.languages import normalize

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
NOT_AVAILABLE = "Feeds and the sitemap are not enabled for this company"
UNVERIFIED = ("This company has not verified its email address yet. Its feeds and sitemap are published once "
              "the administrator opens the link sent at sign-up.")


def _settings_stamp(tenant) -> str:
    parts = (tenant.name, tenant.website_url, tenant.post_url_template, str(tenant.feeds_enabled))
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:12]


def syndication(view):
    """Availability per company, the cache, and conditional GET around a view returning bytes."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tenant = request.tenant
        if tenant is not None and tenant.is_serving and not tenant.may_syndicate:
            # The same gate and status as its public content API (403 `email_unverified` there).
            return HttpResponse(UNVERIFIED, status=403, content_type="text/plain; charset=utf-8")
        if tenant is None or not tenant.syndicates:
            return HttpResponse(NOT_AVAILABLE, status=404, content_type="text/plain; charset=utf-8")
        version = content_version_get()
        path_hash = hashlib.sha1(request.get_full_path().encode()).hexdigest()
        key = f"feeds:{path_hash}:{version}:{_settings_stamp(tenant)}"
        entry = cache.get(key) if version is not None else None
        if entry is None:
            try:
                body, content_type = view(request, *args, **kwargs)
            except NotFound as exc:
                return HttpResponse(exc.message, status=404, content_type="text/plain; charset=utf-8")
            changed = selectors.last_change()
            entry = {"body": body, "type": content_type, "etag": quote_etag(hashlib.sha1(body).hexdigest()),
                     "modified": math.floor(changed.timestamp()) if changed else None}
            if version is not None:
                cache.set(key, entry, settings.FEEDS_CACHE_TTL)
        response = HttpResponse(entry["body"], content_type=entry["type"])
        response["ETag"] = entry["etag"]
        if entry["modified"] is not None:
            response["Last-Modified"] = http_date(entry["modified"])
        patch_cache_control(response, public=True, max_age=settings.FEEDS_MAX_AGE)
        return get_conditional_response(request, etag=entry["etag"], last_modified=entry["modified"],
                                        response=response)

    return wrapper


# --- feeds ------------------------------------------------------------------------------------------
class XmlSafe:
    """A feed generator that writes every string of the feed and its items through the output rule
    (apps.core.text.xml_text): a control character in a stored title or name is left out instead
    of failing the whole feed (Django refuses to write it) or making it ill-formed (U+FFFE)."""

    def write(self, outfile, encoding):
        self.feed = xml_data(self.feed)
        self.items = [xml_data(item) for item in self.items]
        return super().write(outfile, encoding)


class Rss(XmlSafe, Rss201rev2Feed):
    pass


class Atom(XmlSafe, Atom1Feed):
    pass


class PostsFeed(Feed):
    """The latest published posts; of one category or tag when the URL names one. A language's
    feed (/feeds/fr/...) lists the posts in that language and names terms in it where they have a
    name in it (docs/translations.md); a category or tag is then found by its slug in that language
    or its own."""

    feed_type = Rss

    def get_object(self, request, kind: str | None = None, slug: str | None = None, locale: str | None = None):
        company = languages.of_client(request.tenant)
        names_in = None  # the language of terms' names: a language's feed only (as ?locale= in the API)
        if locale is not None:
            language = names_in = normalize(locale)
            if language not in company.codes:
                raise NotFound("This company does not write in that language")
        else:  # the default language's posts (every post of a company with one language)
            language = None if company.single else company.default
        term = None
        if kind is not None:
            term = selectors.term_by_slug(Category if kind == "category" else Tag, slug, names_in)
        return {"tenant": request.tenant, "term": term, "kind": kind, "language": language, "names_in": names_in}

    def title(self, obj) -> str:
        term = obj["term"]
        return f"{obj['tenant'].name}: {term.name_in(obj['names_in'])}" if term else obj["tenant"].name

    def link(self, obj) -> str:
        return obj["tenant"].website_url

    def description(self, obj) -> str:
        term = obj["term"]
        if term is None:
            return f"The latest posts of {obj['tenant'].name}"
        return f"The latest posts of {obj['tenant'].name} in {term.name_in(obj['names_in'])}"

    subtitle = description  # Atom

    def items(self, obj):
        term = obj["term"]
        return selectors.latest_posts(limit=settings.FEEDS_ITEMS, category=term if obj["kind"] == "category" else None,
                                      tag=term if obj["kind"] == "tag" else None, language=obj["language"])

    def item_title(self, post) -> str:
        return post.title

    def item_description(self, post) -> str:
        """The excerpt, else the body; a members-only post's body is its members' (a feed reader is
        none: docs/content.md#members-only-posts): its excerpt, or nothing."""
        return post.excerpt or body_for_reader(post.visibility, post.content, member=False)

    def item_link(self, post) -> str:
        return self._tenant.post_url(post.slug, post.language)

    def item_guid(self, post) -> str:
        return f"urn:uuid:{post.id}"

    item_guid_is_permalink = False

    def item_pubdate(self, post):
        return post.published_at

    def item_updateddate(self, post):
        return post.updated_at

    def item_author_name(self, post) -> str:
        return post.author.username if post.author else ""

    def item_categories(self, post) -> list[str]:
        return [category.name_in(self._names_in) for category in post.categories.all()]

    def get_feed(self, obj, request):
        self._tenant = obj["tenant"]
        self._names_in = obj["names_in"]
        feed = super().get_feed(obj, request)
        if obj["language"]:  # a language's feed says which (<language> / xml:lang)
            feed.feed["language"] = obj["language"]
        return feed


class AtomPostsFeed(PostsFeed):
    feed_type = Atom


def _feed_bytes(feed_class):
    def view(request, *args, **kwargs):
        response = feed_class()(request, *args, **kwargs)
        return response.content, response["Content-Type"]
    return view


rss = syndication(_feed_bytes(PostsFeed))
atom = syndication(_feed_bytes(AtomPostsFeed))


# --- sitemap and robots.txt -------------------------------------------------------------------------
def _loc(url: str) -> str:
    """A URL of the sitemap as the feeds write their links (iri_to_uri: a control character of a
    stored slug is percent-encoded), through the output rule (apps.core.text.xml_text), escaped."""
    return escape(xml_text(iri_to_uri(url)))


def _sitemap_page(tenant, number: int) -> bytes:
    size = settings.SITEMAP_MAX_URLS
    if not languages.of_client(tenant).single:
        return _translated_sitemap_page(tenant, number)
    posts = (selectors.sitemap_rows().order_by("published_at", "id")
             .values_list("slug", "updated_at", "kind")[(number - 1) * size:number * size])
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<urlset xmlns="{SITEMAP_NS}">']
    for slug, updated_at, kind in posts:
        lines.append(f"<url><loc>{_loc(kinds.of(kind).url(tenant, slug))}</loc>"
                     f"<lastmod>{updated_at.isoformat(timespec='seconds')}</lastmod></url>")
    lines.append("</urlset>")
    return "\n".join(lines).encode()


def _translated_sitemap_page(tenant, number: int) -> bytes:
    """Every translation is a URL of its own; a post with translations names each of them (itself
    included) as `xhtml:link rel="alternate" hreflang`, and the default language's as `x-default`
    (Google's sitemap form of hreflang)."""
    size = settings.SITEMAP_MAX_URLS
    default = languages.of_client(tenant).default
    posts = list(selectors.sitemap_rows().order_by("published_at", "id")
                 .values_list("slug", "updated_at", "language", "translation_group", "kind")
                 [(number - 1) * size:number * size])
    alternates = selectors.alternates({group for *_, group, _kind in posts})
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="{XHTML_NS}">']
    for slug, updated_at, language, group, kind in posts:
        kind = kinds.of(kind)  # a translation group is of one kind
        links = ""
        versions = alternates.get(group, [])
        if len(versions) > 1:
            links = "".join(f'<xhtml:link rel="alternate" hreflang="{escape(code)}" '
                            f'href="{_loc(kind.url(tenant, other, code))}"/>' for code, other in versions)
            links += "".join(f'<xhtml:link rel="alternate" hreflang="x-default" '
                             f'href="{_loc(kind.url(tenant, other, code))}"/>' for code, other in versions
                             if code == default)
        lines.append(f"<url><loc>{_loc(kind.url(tenant, slug, language))}</loc>"
                     f"<lastmod>{updated_at.isoformat(timespec='seconds')}</lastmod>{links}</url>")
    lines.append("</urlset>")
    return "\n".join(lines).encode()


def _sitemap(request, number: int | None = None):
    tenant = request.tenant
    total = selectors.sitemap_rows().count()
    pages = max(1, math.ceil(total / settings.SITEMAP_MAX_URLS))
    if number is None and pages == 1:
        return _sitemap_page(tenant, 1), "application/xml"
    if number is None:  # past SITEMAP_MAX_URLS: an index of the pages
        base = tenant_base_url(tenant.subdomain)
        changed = selectors.last_change()
        lastmod = f"<lastmod>{changed.isoformat(timespec='seconds')}</lastmod>" if changed else ""
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<sitemapindex xmlns="{SITEMAP_NS}">']
        lines += [f"<sitemap><loc>{_loc(f'{base}/sitemap-{n}.xml')}</loc>{lastmod}</sitemap>"
                  for n in range(1, pages + 1)]
        lines.append("</sitemapindex>")
        return "\n".join(lines).encode(), "application/xml"
    if not 1 <= number <= pages:
        raise NotFound("No such sitemap page")
    return _sitemap_page(tenant, number), "application/xml"


sitemap = syndication(_sitemap)


def robots(request: HttpRequest) -> HttpResponse:
    """This host serves the dashboard: crawlers may read the feeds and the sitemap only."""
    tenant = request.tenant
    lines = ["User-agent: *"]
    if tenant is not None and tenant.syndicates:
        lines += ["Allow: /feeds/", "Allow: /sitemap", "Disallow: /",
                  f"Sitemap: {tenant_base_url(tenant.subdomain)}/sitemap.xml"]
    else:
        lines.append("Disallow: /")
    response = HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
    patch_cache_control(response, public=True, max_age=settings.FEEDS_MAX_AGE)
    return response
