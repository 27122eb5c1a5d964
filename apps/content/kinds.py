"""Content kinds (docs/content.md): posts and pages are rows of one content model
(apps.content.models.Post, its `kind` column), as Ghost's `type` and WordPress's `post_type`. They
share the editor's fields, revisions, SEO fields, preview links, translations, the review workflow,
the permissions (the `post.*` capabilities of apps.core.permissions) and one slug space per
language (`/about` cannot be both a post and a page).

What differs by kind is declared here, once: selectors, services, the public API, the
Ghost-compatible API, feeds, the sitemap and webhooks ask a Kind, never compare kind names.
"""
from __future__ import annotations

from dataclasses import dataclass

# The statuses of a content row (apps.content.models.PostStatus values; repeated here, not imported,
# so that the models can import this module).
_STATUSES = ("draft", "published", "archived")


@dataclass(frozen=True)
class Kind:
    name: str  # the `kind` column's value; Ghost's `type`
    label: str  # "Post", "Page": in messages ("Page not found", "Page created successfully")
    plural: str  # "posts", "pages": its routes (/api/pages, /api/v1/pages) and Ghost's resource
    categories_required: bool  # a create (and an update of categories) needs at least one
    in_feeds: bool  # RSS and Atom feeds
    in_search: bool  # the dashboard's search (GET /api/search)
    in_term_lists: bool  # the posts of a category or tag, and the counts categories and tags show publicly
    in_sitemap: bool  # sitemap.xml
    # Where a row lives on the company's website: the name of the method that makes its address, on
    # tenants.models.Client and apps.ghost_api.shapes.Site (post_url: the posts' template; page_url:
    # the website's root, `/about`).
    address: str

    @property
    def event_prefix(self) -> str:
        """Its webhook and audit events' prefix: `post.`, `page.`."""
        return f"{self.name}."

    def event(self, change: str) -> str:
        """The name of one of its events: `page.published`, `post.deleted`."""
        return f"{self.event_prefix}{change}"

    @property
    def not_found(self) -> str:
        return f"{self.label} not found"

    def count_key(self, status: str) -> str:
        """Its rows of `status` in the trigger-kept counts (content_post_count, content_category_count,
        content_tag_count, whose `status` column holds this key): a post's status as it always
        was, `page:published` for a page. The triggers write the same (migration content 0016)."""
        return status if self is POST else f"{self.name}:{status}"

    def count_keys(self, status: str) -> tuple[str, ...]:
        """The count keys of a status filter ("all": every status)."""
        return tuple(self.count_key(each) for each in (_STATUSES if status == "all" else (status,)))

    def url(self, site, slug: str, *args) -> str:
        """The address of a row of this kind on `site` (a Client, or the Ghost API's Site)."""
        return getattr(site, self.address)(slug, *args)


POST = Kind("post", "Post", "posts", categories_required=True, in_feeds=True, in_search=True, in_term_lists=True,
            in_sitemap=True, address="post_url")
# Pages (About, Contact): categories optional (tags too, as Ghost's pages have them); never among
# the posts of a list, a feed, a search or a category's or tag's page; in the sitemap.
PAGE = Kind("page", "Page", "pages", categories_required=False, in_feeds=False, in_search=False,
            in_term_lists=False, in_sitemap=True, address="page_url")

KINDS: dict[str, Kind] = {kind.name: kind for kind in (POST, PAGE)}
CHOICES = [(kind.name, kind.label) for kind in KINDS.values()]


def of(name: str | Kind) -> Kind:
    """The Kind of a name (a Kind is returned as it is); KeyError for another name."""
    return name if isinstance(name, Kind) else KINDS[name]


def having(flag: str) -> tuple[str, ...]:
    """The names of the kinds for which `flag` (in_feeds, in_search, ...) is true."""
    return tuple(kind.name for kind in KINDS.values() if getattr(kind, flag))
