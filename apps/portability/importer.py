"""A parsed blog (apps.portability.parsers.Blog) brought into the current company: the dry run
(`blog_analyse`: what would be created, updated or left out, nothing written) and the import
(`blog_import`: everything in one transaction and one `events.batch` scope, so a 10,000-post
import makes one audit entry, one `import.completed` webhook and one cache purge; each post still
keeps its revision).

Mapping (docs/import-export.md):
- posts: title, slug (kept when free, else `-2`, `-3`... and a conflict in the report), content
  (converted by apps.portability.html and sanitised like the editor's), excerpt (text), status
  (published; scheduled -> a draft scheduled for its date; draft, pending and private -> draft; a
  post not public at the source: Ghost members-only, paid or for tiers, and WordPress
  password-protected -> members-only, its status kept (docs/content.md#members-only-posts);
  WordPress private -> a draft; each named in the dry run and the report, as
  parsers.RESTRICTED_AS decides),
  dates (published, created, updated) as in the source, author, categories, tags, SEO fields;
- pages: pages (apps.content.kinds: WordPress `page` items, Ghost `type: page` rows), with no
  category needed; a WordPress page's parent is not kept (pages are flat) and is named in the report;
- a post without a category: the category "Uncategorized" (slug `uncategorized`), as WordPress does;
- categories: flat (the model has no parents; a WordPress parent is named in the report); tags;
- authors: matched by email, else created as inactive `author` accounts with no usable password,
  invited by email only when the import is started with `invite_authors`
  (apps.accounts.services.invitation_for_account); otherwise an admin invites them from Users;
- the plan: the dry run says what the import takes of each counted limit (`plan_use`); an import
  that does not fit is refused (403 plan_limit) before anything is written;
- images: the featured, Open Graph and Twitter images and every <img> of the content, fetched
  (apps.portability.fetch) or taken from a Ghost zip, stored as media of the company with their
  renditions made here (so the import's one content change covers them: no renditions task
  follows, and none bumps the content version again), and every address rewritten; an image
  that cannot be brought is reported, never fatal;
- old addresses: one Redirect per old URL (WordPress link and guid; Ghost `/slug/`);
- the site's settings and the authors' profiles fill what the company and its users have not set
  (apps.portability.site_import).

Every item is recognised by (source, kind, source id) in SourceItem: running the same file again
updates what changed and creates nothing twice."""
from __future__ import annotations

import hashlib
import logging
import uuid
import posixpath
import re
from collections import Counter, defaultdict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.auth.hashers import make_password

from apps.accounts.models import User
from apps.accounts.seats import seats_check
from apps.accounts.services import invitation_for_account
from apps.content import bulk, kinds
from apps.content.models import MEMBERS_VISIBILITY, PUBLIC_VISIBILITY, Category, Post, Tag
from apps.content.services import DEFAULT_CATEGORY  # posts without a category go there
from apps.core import events, languages
from apps.core.html import html_to_text
from apps.core.permissions import Role
from apps.core.text import slugify
from apps.plans.rules import current_company, plan_check, plan_usage
from apps.media.models import Media
from apps.media.services import ProcessedImage, media_create_processed, media_process
from apps.media.storage import MediaUrls
from apps.portability.html import Converted, convert_ghost, convert_wordpress, image_sources, rewrite_images
from apps.portability.images import GHOST_URL, ImageArchive
from apps.portability.models import MissingImage, Redirect, SourceItem
from apps.portability.parsers import GHOST, RESTRICTED_AS, WORDPRESS, Blog, SourcePost
from apps.portability.site_import import site_import

logger = logging.getLogger(__name__)
# Where imports before pages were a kind of their own put pages (manage.py pages_from_category
# turns those posts into pages).
PAGES_CATEGORY = ("Pages", "pages")
SLUG_MAX = 200
CHUNK = 500
IMPORT_EVENT = "import.completed"
Progress = Callable[[str, int, int], None]


def _no_progress(phase: str, done: int, total: int) -> None:
    pass


def source_name(blog: Blog) -> str:
    """What tells one old site from another in SourceItem: WordPress's site address; for Ghost
    (whose export names no address) a hash of its authors' ids, which Ghost made unique."""
    if blog.source == WORDPRESS:
        return f"wordpress:{blog.site_url.rstrip('/')}"[:300]
    seed = ",".join(sorted(author.source_id for author in blog.authors)) or "ghost"
    return f"ghost:{hashlib.sha256(seed.encode()).hexdigest()[:16]}"


def _members_only(post: SourcePost) -> bool:
    """A post not public at its source that comes over members-only (parsers.RESTRICTED_AS); any
    other restricted post comes over as a draft."""
    return bool(post.restricted) and RESTRICTED_AS.get(post.restricted) == MEMBERS_VISIBILITY


def _restricted_reason(post: SourcePost) -> str:
    """The dry run's and the report's words for a post not public at its source."""
    return f"{post.restricted} in the source: imported as {'members-only' if _members_only(post) else 'a draft'}"


@dataclass
class Report:
    """created / updated / unchanged / skipped per kind, and every item not brought over (or
    brought with a change the user should know of) and why."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    items: list[dict] = field(default_factory=list)

    def count(self, kind: str, outcome: str, n: int = 1) -> None:
        self.counts[kind][outcome] += n

    def note(self, kind: str, item: str, outcome: str, reason: str) -> None:
        self.items.append({"kind": kind, "item": str(item)[:300], "outcome": outcome, "reason": reason[:500]})

    def as_dict(self) -> dict:
        return {"counts": {kind: dict(counter) for kind, counter in self.counts.items()}, "items": self.items}


def _post_kind(post: SourcePost) -> str:
    return "page" if post.kind == "page" else "post"


def _convert(blog: Blog, post: SourcePost) -> Converted:
    if blog.source == GHOST:
        return convert_ghost(post.html)

    def gallery(attributes: dict[str, str]) -> list[tuple[str, str]]:
        ids = [i.strip() for i in (attributes.get("ids") or attributes.get("include") or "").split(",") if i.strip()]
        if ids:
            return [(blog.attachments[i][0], blog.attachments[i][1]) for i in ids if i in blog.attachments]
        return [(url, alt) for url, alt, parent in blog.attachments.values() if parent == post.source_id]

    return convert_wordpress(post.html, gallery=gallery)


def _old_path(url: str) -> str:
    """The path (and query) of an old address, as a website will look it up."""
    parts = urlsplit(url.strip())
    path = parts.path or "/"
    if not path.startswith("/"):
        path = "/" + path
    return (path + (f"?{parts.query}" if parts.query else ""))[:2000]


def _old_paths(url: str) -> list[str]:
    """The paths a reader may ask for an old address by: as the old site wrote it and, when it is
    percent-encoded (WordPress's slugs in other scripts: `/%d8%b9%d8%b1/`), as browsers send it
    (`/%D8%B9%D8%B1/`) and as its letters (`/عر/`)."""
    path = _old_path(url)
    paths = [path]
    if re.search(r"%[0-9A-Fa-f]{2}", path):
        paths.append(re.sub(r"%[0-9A-Fa-f]{2}", lambda m: m.group(0).upper(), path))
        try:
            decoded = unquote(path, encoding="utf-8", errors="strict")
        except UnicodeDecodeError:
            decoded = path
        if "\x00" not in decoded:
            paths.append(decoded[:2000])
    return list(dict.fromkeys(paths))


def _wanted_slug(post: SourcePost) -> str:
    """The slug a post asks for: its own (of any script), else one made from its title."""
    return slugify(post.slug or post.title, allow_unicode=True)[:SLUG_MAX].strip("-") or "post"


def _images_of(post: SourcePost, html: str) -> list[str]:
    urls = image_sources(html)
    for name in ("og_image", "twitter_image"):
        if post.seo.get(name):
            urls.append(post.seo[name])
    if post.featured_image:
        urls.append(post.featured_image)
    return list(dict.fromkeys(urls))


# --- the dry run ----------------------------------------------------------------------------------
def accounts_to_make(authors: list, *, known: set[str], emails: set[str]) -> int:
    """The staff accounts an import makes for `authors`: those neither known from an earlier import
    (source ids in `known`) nor matched by email, with an address (one account per address)."""
    return len({author.email for author in authors
                if author.source_id not in known and author.email not in emails and "@" in (author.email or "")})


def blog_analyse(blog: Blog) -> dict:
    """What an import of `blog` would do here, counted per kind; nothing is written."""
    source = source_name(blog)
    known = defaultdict(set)
    for kind, source_id in SourceItem.objects.filter(source=source).values_list("kind", "source_id"):
        known[kind].add(source_id)
    counts: dict[str, Counter] = defaultdict(Counter)
    conflicts, unsupported, removed = [], Counter(), []
    emails = {email for email in User.objects.values_list("email", flat=True)}
    for author in blog.authors:
        if author.source_id in known["author"] or (author.email and author.email in emails):
            counts["author"]["matched"] += 1
        elif author.email:
            counts["author"]["create"] += 1
        else:
            counts["author"]["skipped"] += 1
    slugs = {"category": set(Category.objects.values_list("slug", flat=True)),
             "tag": set(Tag.objects.values_list("slug", flat=True))}
    for term in blog.terms:
        if term.source_id in known[term.kind]:
            counts[term.kind]["update"] += 1
        elif slugify(term.slug or term.name, allow_unicode=True) in slugs[term.kind]:
            counts[term.kind]["matched"] += 1
        else:
            counts[term.kind]["create"] += 1
    # The category an import adds when it needs it: "Uncategorized" for posts without one (pages need none).
    needed = set()
    for post in blog.posts:
        if kinds.of(_post_kind(post)).categories_required and not post.categories:
            needed.add(DEFAULT_CATEGORY[1])
    counts["category"]["create"] += len(needed - slugs["category"] - {slugify(t.slug or t.name, allow_unicode=True)
                                                                       for t in blog.terms
                                                                       if t.kind == "category"})
    if not counts["category"]["create"]:
        del counts["category"]["create"]
    if not counts["category"]:
        del counts["category"]
    taken = set(Post.objects.values_list("slug", flat=True))
    images = set()
    for post in blog.posts:
        kind = _post_kind(post)
        if post.source_id in known[kind]:
            counts[kind]["update"] += 1
            images.update(_images_of(post, _convert(blog, post).html))  # a re-run references them too
            continue
        counts[kind]["create"] += 1
        slug = _wanted_slug(post)
        if slug in taken:
            conflicts.append({"kind": kind, "item": post.title, "reason": f"the slug {slug} is taken: a suffix is added"})
        taken.add(slug)
        converted = _convert(blog, post)
        unsupported.update(converted.unsupported)
        if converted.removed:
            removed.append({"kind": kind, "item": post.title, "removed": converted.removed})
        images.update(_images_of(post, converted.html))
    counts["image"]["referenced"] = len(images)
    archive = ImageArchive(blog.files, site_url=blog.site_url)
    in_archive = {url for url in images if archive.find(url) is not None}
    already = {url for url in images if url in known["image"]}
    restricted = [{"kind": _post_kind(post), "item": post.title, "reason": _restricted_reason(post)}
                  for post in blog.posts if post.restricted and not _members_only(post)]
    members_only = [{"kind": _post_kind(post), "item": post.title, "reason": _restricted_reason(post)}
                    for post in blog.posts if _members_only(post)]
    for kind, item, reason in blog.skipped:
        counts[kind]["skipped"] += 1
    accounts = accounts_to_make(blog.authors, known=known["author"], emails=emails)
    new_posts = sum(counts[kind].get("create", 0) for kind in ("post", "page"))
    return {
        "source": blog.source, "version": blog.version, "site": blog.site_url, "sourceName": source,
        "staffSeats": accounts,
        "accounts": {"create": accounts, "emailed": False, "message": _accounts_message(accounts)},
        "planUse": plan_use(posts=new_posts, seats=accounts, media_bytes=_archive_bytes(blog, images)),
        "counts": {kind: dict(counter) for kind, counter in counts.items()},
        "conflicts": conflicts,
        "madeDrafts": restricted,
        "madeMembersOnly": members_only,  # their status kept, their bodies for members (docs/content.md)
        "notBroughtOver": not_brought_over(blog),
        # the images the posts name: how many the archive holds, how many an earlier import brought,
        # and how many are left to download (or to be kept as their old address)
        "images": {"referenced": len(images), "inArchive": len(in_archive), "alreadyImported": len(already),
                   "toDownload": len(images - in_archive - already),
                   "archiveFiles": len(blog.files)},
        "contentRemoved": removed,  # per post, what the sanitiser takes out (the report lists it too)
        "languages": languages_plan(blog),
        "unsupported": [{"shortcode": name, "posts": n} for name, n in sorted(unsupported.items())],
        "skipped": [{"kind": kind, "item": item, "reason": reason} for kind, item, reason in blog.skipped],
    }


# What a file holds that is not brought over, and why (the dry run and the report say both).
NOT_BROUGHT_OVER = {
    "attachment": "WordPress media library items: the images the posts use come with the posts; other files "
                  "(documents, audio, video) and unused images are not brought over",
    "comment": "comments are not brought over: there are no comments here",
    "nav_menu_item": "menus are not brought over: set the site's navigation in Settings, Site",
    "custom_field": "custom fields of themes and plugins (postmeta) have no place here",
    "member": "members are not part of a content import: bring them with the members CSV",
}


def not_brought_over(blog: Blog) -> list[dict]:
    """[{kind, count, why}] of what `blog` holds that the import leaves out."""
    counts = dict(blog.left_out)
    if blog.attachments:
        counts["attachment"] = len(blog.attachments)
    menus = sum(1 for kind, _item, _why in blog.skipped if kind == "nav_menu_item")
    if menus:
        counts["nav_menu_item"] = menus
    return [{"kind": kind, "count": counts[kind], "why": why} for kind, why in NOT_BROUGHT_OVER.items()
            if counts.get(kind)]


def _accounts_message(accounts: int) -> str:
    if not accounts:
        return "The import makes no staff account."
    many = "account" if accounts == 1 else "accounts"
    return (f"The import makes {accounts} staff {many} (role author), inactive and without a password. "
            "No email is sent unless you choose to invite the authors when you start the import; "
            "otherwise each waits until an admin invites its owner from Users.")


def _archive_bytes(blog: Blog, images: set[str]) -> int | None:
    """The bytes of the referenced images found in the images archive (or the export's own zip);
    None when the import would download every image (their size is not known before)."""
    if not blog.files:
        return None
    archive = ImageArchive(blog.files, site_url=blog.site_url)
    keys = {archive.find(url) for url in images} - {None}
    return sum(len(blog.files[key]) for key in keys)


def _language_codes(blog: Blog) -> dict[str, str | None]:
    """Each language the file names (Polylang's slugs, WPML's codes) -> its BCP 47 code here (from
    the name, else from the locale its term gives), None when neither is a language."""
    names = {post.language for post in blog.posts if post.language} | set(blog.languages)
    return {name: languages.normalize(name) or languages.normalize(blog.languages.get(name) or "")
            for name in sorted(names)}


def _file_default(blog: Blog) -> str | None:
    """The language a Ghost export names (its `locale` setting): the company's default language
    when the company has no posts yet (else the report names it: apps.portability.site_import)."""
    locale = blog.settings.get("locale") if blog.source == GHOST else None
    code = languages.normalize(locale) if isinstance(locale, str) else None
    if code is None or Post.objects.exists():
        return None
    return code if code != languages.current().default else None


def languages_plan(blog: Blog) -> dict:
    """The dry run's languages: those the file's posts are in, those it adds to the company,
    those it names that are no language (their posts go to the default language), and the new
    default language (a Ghost export's locale, for a company without posts)."""
    codes = _language_codes(blog)
    used = sorted({code for code in codes.values() if code})
    company = languages.current()
    default = _file_default(blog)
    return {"used": used, "add": [code for code in used if code not in company.codes],
            "unknown": sorted(name for name, code in codes.items() if code is None),
            "default": default, "groups": len({post.translation_key for post in blog.posts if post.translation_key})}


# The plan's limits an import spends, in the order they are checked.
PLAN_LIMITS = (("posts", "posts"), ("staff_seats", "seats"), ("media_bytes", "media_bytes"))


def plan_use(*, posts: int, seats: int, media_bytes: int | None) -> list[dict]:
    """What an import takes of each of the plan's counted limits, beside what the company uses and
    its plan allows: [{limit, importUses, used, allowed, fits}] (importUses None: not known
    before the import, as the bytes of images it downloads)."""
    company = current_company()
    usage = {item.what: item for item in plan_usage(company)} if company is not None else {}
    amounts = {"posts": posts, "seats": seats, "media_bytes": media_bytes}
    rows = []
    for limit, name in PLAN_LIMITS:
        found = usage.get(limit)
        used = found.used if found else 0
        allowed = found.allowed if found else None
        amount = amounts[name]
        fits = amount is None or allowed is None or amount <= 0 or used + amount <= allowed
        rows.append({"limit": limit, "importUses": amount, "used": used, "allowed": allowed, "fits": fits})
    return rows


def plan_use_check(rows: list[dict]) -> None:
    """Refuse (403 plan_limit, nothing written) an import that does not fit the plan's limits now."""
    for row in rows:
        amount = row.get("importUses")
        if not amount or amount <= 0:
            continue
        if row["limit"] == "staff_seats":
            seats_check(amount)
        else:
            plan_check(row["limit"], amount)


# --- the import -----------------------------------------------------------------------------------
class _Importer:
    def __init__(self, blog: Blog, *, actor, progress: Progress, fetch: Callable[[str], bytes] | None,
                 invite_authors: bool = False, job_id=None):
        self.blog, self.actor, self.progress, self.fetch = blog, actor, progress, fetch
        self.invite_authors, self.job_id = invite_authors, job_id
        self.archive = ImageArchive(blog.files, site_url=blog.site_url)
        self.missing_reasons: dict[str, str] = {}
        self.kept_as_address = 0  # images of the posts kept as their old address (MissingImage rows)
        self.source = source_name(blog)
        self.report = Report()
        self.known: dict[str, dict[str, object]] = defaultdict(dict)  # kind -> source id -> object id
        for kind, source_id, object_id in SourceItem.objects.filter(source=self.source).values_list(
                "kind", "source_id", "object_id"):
            self.known[kind][source_id] = object_id
        self.new_items: list[SourceItem] = []
        self.language_of: dict[str, str] = {}  # the file's language names -> codes here
        self.created: list[Post] = []  # their first revisions are written at the end, with their images
        self.total = len(blog.authors) + len(blog.terms) + len(blog.posts)
        self.done = 0

    def step(self, phase: str, n: int = 1) -> None:
        self.done += n
        self.progress(phase, self.done, self.total)

    def remember(self, kind: str, source_id: str, object_id) -> None:
        self.known[kind][source_id] = object_id
        self.new_items.append(SourceItem(source=self.source, kind=kind, source_id=source_id[:500], object_id=object_id))

    # authors
    def plan_check(self) -> None:
        """The plan's posts limit for every post and page this import creates, before anything is
        written (the seats: in authors(); media: per image, each one refused is reported)."""
        creates = sum(1 for post in self.blog.posts if post.source_id not in self.known[_post_kind(post)])
        plan_use_check([{"limit": "posts", "importUses": creates}])

    def authors(self) -> dict[str, User]:
        users: dict[str, User] = {}
        by_email = {user.email: user for user in User.objects.all()}
        by_id = {user.pk: user for user in by_email.values()}
        names = {user.username.lower() for user in by_email.values()}
        # The plan's staff seats: the accounts this import makes must fit, or it is refused here,
        # before anything is written (403 plan_limit; the rule: apps.accounts.seats).
        remembered = {source_id for source_id, pk in self.known["author"].items() if pk in by_id}
        seats_check(accounts_to_make(self.blog.authors, known=remembered, emails=set(by_email)))
        for author in self.blog.authors:
            known = by_id.get(self.known["author"].get(author.source_id))
            if known is not None:
                users[author.source_id] = known
                self.report.count("author", "matched")
            elif author.email and author.email in by_email:
                users[author.source_id] = by_email[author.email]
                self.remember("author", author.source_id, by_email[author.email].pk)
                self.report.count("author", "matched")
            elif not author.email or "@" not in author.email:
                self.report.count("author", "skipped")
                self.report.note("author", author.name, "skipped", "no email address in the file: posts have no author")
            else:
                username = self._free_username(author.login or author.name or author.email.split("@")[0], names)
                user = User.objects.create(username=username, email=author.email, password=make_password(None),
                                           role=Role.AUTHOR, status=User.Status.INACTIVE)
                events.publish(events.UserChanged(user=user, change="created", actor=self.actor,
                                                  summary=f"{user.username} ({user.role}, imported)"))
                by_email[user.email] = user
                users[author.source_id] = user
                self.remember("author", author.source_id, user.pk)
                if self.invite_authors:
                    invitation_for_account(actor=self.actor, user=user)
                    self.report.count("author", "invited")
                else:
                    self.report.count("author", "created")
                    self.report.note("author", user.username, "waiting",
                                     f"an inactive account for {user.email}, not emailed: invite its owner from "
                                     "Users when you are ready")
            self.step("authors")
        return users

    @staticmethod
    def _free_username(wanted: str, names: set[str]) -> str:
        base = re.sub(r"[^\w.@+-]+", "-", wanted.strip())[:140].strip("-") or "author"
        name, n = base, 1
        while name.lower() in names:
            n += 1
            name = f"{base}-{n}"
        names.add(name.lower())
        return name

    # languages
    def languages(self) -> None:
        """The file's languages added to the company's (apps.core.languages), before its posts."""
        codes = _language_codes(self.blog)
        self.language_of = {name: code for name, code in codes.items() if code}
        for name, code in codes.items():
            if code is None:
                self.report.note("language", name, "skipped", "not a language code: its posts are in the default "
                                 "language")
        default = _file_default(self.blog)
        wanted = sorted(set(self.language_of.values()))
        before = languages.current()
        if not [code for code in wanted if code not in before.codes] and default is None:
            return
        try:
            after = languages.languages_add(codes=wanted, default=default, actor=self.actor)
        except ValueError as exc:
            self.report.note("language", ", ".join(wanted)[:300], "skipped", f"{exc}: their posts are in the default "
                             "language")
            self.language_of = {name: code for name, code in self.language_of.items() if code in before.codes}
            return
        for code in after.codes:
            if code not in before.codes:
                self.report.count("language", "added")
                self.report.note("language", code, "added", f"{languages.display_name(code)}, a language of the file")
        if after.default != before.default:
            self.report.note("settings", "language", "set", f"the default language is {after.default}, the "
                             "file's (the company had no posts)")

    # categories and tags
    def terms(self) -> dict[tuple[str, str], object]:
        found: dict[tuple[str, str], object] = {}
        existing = bulk.terms_all()
        by_id = {kind: {obj.pk: obj for obj in objs.values()} for kind, objs in existing.items()}
        needed = set()
        for term in self.blog.terms:
            obj = by_id[term.kind].get(self.known[term.kind].get(term.source_id))
            name, slug = bulk.term_values(name=term.name, slug=term.slug)
            if obj is not None:
                changed = bulk.term_bulk_update(actor=self.actor, term=obj, name=name,
                                                description=term.description if term.kind == "category" else None)
                self.report.count(term.kind, "updated" if changed else "unchanged")
            elif slug in existing[term.kind]:
                obj = existing[term.kind][slug]
                self.remember(term.kind, term.source_id, obj.pk)
                self.report.count(term.kind, "matched")
            else:
                obj = bulk.term_bulk_create(actor=self.actor, kind=term.kind, name=name, slug=slug,
                                            description=term.description)
                existing[term.kind][slug] = obj
                self.remember(term.kind, term.source_id, obj.pk)
                self.report.count(term.kind, "created")
            if term.parent:
                self.report.note(term.kind, term.name, "flattened", f"parent category {term.parent} (categories here have no parents)")
            found[(term.kind, term.source_id)] = obj
            self.step("terms")
        if any(kinds.of(_post_kind(post)).categories_required and not any(("category", c) in found
                                                                          for c in post.categories)
               for post in self.blog.posts):
            needed.add(DEFAULT_CATEGORY)
        for name, slug in needed:
            obj = existing["category"].get(slug)
            if obj is None:
                obj = bulk.term_bulk_create(actor=self.actor, kind="category", name=name, slug=slug)
                existing["category"][slug] = obj
                self.report.count("category", "created")
            found[("special", slug)] = obj
        return found

    # posts
    def posts(self, users: dict[str, User], terms: dict) -> list[tuple[Post, SourcePost, str]]:
        """The posts created or updated, with their source post and converted HTML (for images)."""
        existing_ids = set()
        for kind in ("post", "page"):
            existing_ids.update(self.known[kind].values())
        existing = {post.pk: post for post in Post.objects.filter(pk__in=existing_ids).prefetch_related("categories")}
        tag_orders = bulk.tag_orders(existing)  # their tags in their order, read at once
        written: list[tuple[Post, SourcePost, str]] = []
        parents = {source.source_id: source.title for source in self.blog.posts if source.kind == "page"}
        redirects = dict(Redirect.objects.values_list("old_path", "post_id"))
        new_redirects: list[Redirect] = []
        new_ids, groups = self._groups(existing)
        for start in range(0, len(self.blog.posts), CHUNK):
            chunk = self.blog.posts[start:start + CHUNK]
            creates: list[tuple[bulk.PostIn, SourcePost, str]] = []
            for source in chunk:
                kind = _post_kind(source)
                if source.parent:
                    parent = parents.get(source.parent, source.parent)
                    self.report.note(kind, source.title, "flattened",
                                     f"parent page {parent[:100]!r} is not kept (pages here have no parents)")
                converted = _convert(self.blog, source)
                for name in converted.unsupported:
                    self.report.note(kind, source.title, "kept as text", f"shortcode [{name}] is not supported")
                if converted.removed:
                    self.report.note(kind, source.title, "content removed",
                                     "removed by the sanitiser: " + ", ".join(converted.removed))
                item = self._item(source, converted.html, users, terms)
                if source.source_id in new_ids:
                    item.id = new_ids[source.source_id]
                    item.translation_group = groups.get(source.translation_key)
                post = existing.get(self.known[kind].get(source.source_id))
                if post is not None:
                    changed = bulk.post_bulk_update(actor=self.actor, post=post, item=item,
                                                    tag_order=tag_orders.get(post.pk, []),
                                                    same_content=_same_apart_from_images)
                    self.report.count(kind, "updated" if changed else "unchanged")
                    if changed:
                        written.append((post, source, converted.html))
                    post_id = post.pk
                else:
                    creates.append((item, source, converted.html))
                    self.report.count(kind, "created")
                    post_id = item.id
                for url in source.old_urls:
                    for path in _old_paths(url):
                        if path in ("/", "") or path in redirects:
                            continue
                        redirects[path] = post_id
                        new_redirects.append(Redirect(old_path=path, post_id=post_id))
            if creates:
                made = bulk.posts_bulk_create(actor=self.actor, items=[item for item, _, _ in creates])
                for row, (item, source, html) in zip(made, creates):
                    kind = _post_kind(source)
                    for wire, what in row.repairs:
                        self.report.note(kind, source.title, "field changed", f"{wire}: {what}")
                    if row.slug_taken:
                        self.report.note(kind, source.title, "slug changed",
                                         f"the slug {row.slug_taken} was taken: {row.post.slug}")
                    if row.group_refused:
                        self.report.note(kind, source.title, "translation not linked",
                                         f"its group of translations has a post in {row.post.language} already")
                    self.remember(kind, source.source_id, row.post.pk)
                    self.created.append(row.post)
                    written.append((row.post, source, html))
            self.step("posts", len(chunk))
        Redirect.objects.bulk_create(new_redirects, batch_size=1000)
        self.report.count("redirect", "created", len(new_redirects))
        return written

    def _groups(self, existing: dict) -> tuple[dict[str, uuid.UUID], dict[str, uuid.UUID]]:
        """The ids of the posts this import creates, and each group of translations of the file ->
        the group here: an earlier import's (a post of it was brought before), else the id of its
        post in the company's default language, else of its first post."""
        new_ids, groups, default = {}, {}, languages.current().default
        members: dict[str, list[SourcePost]] = defaultdict(list)
        for source in self.blog.posts:
            found = existing.get(self.known[_post_kind(source)].get(source.source_id))
            if found is None:
                new_ids[source.source_id] = uuid.uuid4()
            if source.translation_key:
                if found is not None:
                    groups.setdefault(source.translation_key, found.translation_group)
                members[source.translation_key].append(source)
        for key, sources in members.items():
            if key in groups:
                continue
            fresh = [source for source in sources if source.source_id in new_ids]
            first = next((source for source in fresh if self.language_of.get(source.language) == default), None) \
                or (fresh[0] if fresh else None)
            if first is not None:
                groups[key] = new_ids[first.source_id]
        return new_ids, groups

    def _item(self, source: SourcePost, html: str, users: dict[str, User], terms: dict) -> bulk.PostIn:
        """A source post in the content services' terms (their rules apply there)."""
        kind = _post_kind(source)
        author = users.get(source.author)
        if author is None and source.author:
            self.report.note(kind, source.title, "no author",
                             f"the author {source.author[:100]!r} is not among the file's authors")
        status = source.status if source.status in (bulk.PUBLISHED, bulk.SCHEDULED) else bulk.DRAFT
        visibility = PUBLIC_VISIBILITY
        if _members_only(source):  # for its readers only at the source: its body for members here
            visibility = MEMBERS_VISIBILITY
            self.report.note(kind, source.title, "made members-only", _restricted_reason(source))
        elif source.restricted:  # for its site's staff only at the source: never public here
            status = bulk.DRAFT
            self.report.note(kind, source.title, "made a draft", _restricted_reason(source))
        seo = source.seo
        return bulk.PostIn(
            kind=kind, slug=_wanted_slug(source), author_id=author.pk if author else None, status=status,
            language=self.language_of.get(source.language),
            published_at=source.published_at, created_at=source.created_at, updated_at=source.updated_at,
            category_ids=self._categories(source, terms),
            tag_ids=[terms[("tag", t)].pk for t in source.tags if ("tag", t) in terms],
            values={
                "title": source.title, "content": html, "excerpt": html_to_text(source.excerpt).strip(),
                "allow_indexing": True, "featured": source.featured, "visibility": visibility,
                "meta_title": seo.get("meta_title", ""),
                "meta_description": seo.get("meta_description", ""), "canonical_url": seo.get("canonical_url", ""),
                "focus_keyword": seo.get("focus_keyword", ""), "og_title": seo.get("og_title", ""),
                "og_description": seo.get("og_description", ""), "twitter_title": seo.get("twitter_title", ""),
                "twitter_description": seo.get("twitter_description", ""),
            })

    def _categories(self, source: SourcePost, terms: dict) -> list:
        ids = list(dict.fromkeys(terms[("category", c)].pk for c in source.categories if ("category", c) in terms))
        if ids or not kinds.of(_post_kind(source)).categories_required:  # a page may have none
            return ids
        return [terms[("special", DEFAULT_CATEGORY[1])].pk]

    # images
    def images(self, written: list[tuple[Post, SourcePost, str]]) -> None:
        wanted: dict[str, str] = {}  # url -> alt text
        for post, source, html in written:
            for url in _images_of(source, html):
                alt = source.featured_alt if url == source.featured_image else ""
                wanted.setdefault(url, self.blog.image_alts.get(url, alt))
        if not wanted:
            self._missing_record(written, {})
            return
        known = self.known["image"]
        media_of: dict[str, Media] = {m.pk: m for m in Media.objects.filter(pk__in=[known[u] for u in wanted if u in known])}
        urls = MediaUrls.current()
        addresses: dict[str, str] = {}
        stored: dict[str, Media] = {}
        for url in wanted:
            media = media_of.get(known.get(url))
            if media is not None:
                self.report.count("image", "unchanged")
                stored[url] = media
                addresses[url] = urls.cdn(media.storage_key)
        # One file of the archive is one media item, whatever the addresses that name it (a
        # WordPress image and its resized copies; a path with and without the old host).
        todo: dict[str, list[tuple[str, str]]] = {}
        for url, alt in wanted.items():
            if url not in stored:
                key = self.archive.find(url)
                todo.setdefault(f"archive:{key}" if key is not None else url, []).append((url, alt))
        done, total = len(stored), len(stored) + len(todo)
        self.progress("images", done, total)
        # Fetching, checking and resizing run in threads (network waits and Pillow's encoders
        # release the GIL), a window at a time so only so many images are in memory; the writes
        # (files, rows, events) stay on this thread, inside the import's transaction and scope.
        workers = max(1, settings.IMPORT_IMAGE_WORKERS)
        queue: deque = deque()
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="import-image") as pool:
            for names in todo.values():
                queue.append((names, pool.submit(self._image_processed, names[0][0])))
                if len(queue) < workers * 2:
                    continue
                done = self._image_store(*queue.popleft(), stored, addresses, urls, done, total)
            while queue:
                done = self._image_store(*queue.popleft(), stored, addresses, urls, done, total)
        for post, source, html in written:
            images = {}
            for attribute, url in (("featured_image", source.featured_image), ("og_image", source.seo.get("og_image")),
                                   ("twitter_image", source.seo.get("twitter_image"))):
                media = stored.get(url) if url else None
                if media is not None:
                    images[attribute] = media
            bulk.post_images_set(post=post, content=rewrite_images(post.content, addresses), images=images)
        self._missing_record(written, stored)

    def _missing_record(self, written: list[tuple[Post, SourcePost, str]], stored: dict[str, Media]) -> None:
        """Each post's images that could not be brought, kept with their old address (the post's
        content keeps it; its featured, Open Graph or Twitter image waits here) for a later
        "Fetch missing images" (apps.portability.services.import_fetch_missing)."""
        rows, done = [], [post.pk for post, _source, _html in written]
        for post, source, html in written:
            for url in image_sources(html):
                if url not in stored:
                    rows.append(MissingImage(job_id=self.job_id, post_id=post.pk, url=url[:2000],
                                             role=MissingImage.Role.CONTENT,
                                             reason=self.missing_reasons.get(url, "")[:500]))
            for role, url in ((MissingImage.Role.FEATURED, source.featured_image),
                              (MissingImage.Role.OG, source.seo.get("og_image")),
                              (MissingImage.Role.TWITTER, source.seo.get("twitter_image"))):
                if url and url not in stored:
                    rows.append(MissingImage(job_id=self.job_id, post_id=post.pk, url=url[:2000], role=role,
                                             alt_text=(source.featured_alt if role == MissingImage.Role.FEATURED
                                                       else "")[:500],
                                             reason=self.missing_reasons.get(url, "")[:500]))
        MissingImage.objects.filter(post_id__in=done).delete()  # what this run brought is no longer missing
        MissingImage.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)
        self.kept_as_address = len(rows)

    def _image_store(self, names: list[tuple[str, str]], future, stored: dict, addresses: dict, urls: MediaUrls,
                     done: int, total: int) -> int:
        """Store one processed image as media of the company (or report why it is missing); every
        address in `names` ([(url, alt)]) names it."""
        url, alt = names[0]
        try:
            media = media_create_processed(processed=future.result(), alt_text=alt[:500], uploaded_by=self.actor,
                                           file_name=posixpath.basename(urlsplit(url).path) or "image")
        except Exception as exc:  # noqa: BLE001 - a missing image is reported, never fatal
            reason = getattr(exc, "message", None) or str(exc) or exc.__class__.__name__
            for name, _alt in names:
                self.report.count("image", "missing")
                self.report.note("image", name, "missing", reason)
                self.missing_reasons[name] = reason
        else:
            self.report.count("image", "created")
            for name, _alt in names:
                self.remember("image", name, media.pk)
                stored[name] = media
                addresses[name] = urls.cdn(media.storage_key)
        self.progress("images", done + 1, total)
        return done + 1

    def image_media(self, url: str) -> Media | None:
        """An image of the site's settings or of a profile (apps.portability.site_import) as media of
        the company: one this import brought already, else one in the archive, or fetched when this
        import fetches images; None otherwise (or when it cannot be brought: reported)."""
        media = Media.objects.filter(pk=self.known["image"].get(url)).first() if url in self.known["image"] else None
        if media is not None:
            return media
        if re.match(r"^https?://", url) and self.fetch is None and self.archive.find(url) is None:
            return None
        try:
            media = media_create_processed(processed=self._image_processed(url), alt_text="", uploaded_by=self.actor,
                                           file_name=posixpath.basename(urlsplit(url).path) or "image")
        except Exception as exc:  # noqa: BLE001 - a missing image is reported, never fatal
            self.report.count("image", "missing")
            self.report.note("image", url, "missing", getattr(exc, "message", None) or str(exc) or exc.__class__.__name__)
            return None
        self.remember("image", url, media.pk)
        self.report.count("image", "created")
        return media

    def _image_processed(self, url: str) -> ProcessedImage:
        """An image's bytes, checked and with its renditions (run in a thread: no database)."""
        return media_process(data=self._image_bytes(url), renditions=True)

    def _image_bytes(self, url: str) -> bytes:
        return image_bytes(url, archive=self.archive, site_url=self.blog.site_url, fetch=self.fetch)


def image_bytes(url: str, *, archive: ImageArchive, site_url: str, fetch: Callable[[str], bytes] | None) -> bytes:
    """An image of an import: its file in the images archive (by its path, with or without the old
    host), else downloaded from the old site (`fetch`; None: not downloaded); ValueError saying why not."""
    data = archive.bytes_of(url)
    if data is not None:
        return data
    if not re.match(r"^https?://", url):
        path = url[len(GHOST_URL):] if url.startswith(GHOST_URL) else url
        if not site_url:
            raise ValueError("not in the images archive, and the old site's address is not in the export")
        url = site_url.rstrip("/") + "/" + path.lstrip("/")
    if fetch is None:
        raise ValueError("not in the images archive, and images were not downloaded (turned off for this import)")
    return fetch(url)


def _same_apart_from_images(stored: str, incoming: str) -> bool:
    """True when `stored` is `incoming` with its image addresses rewritten by an earlier import."""
    if stored == incoming:
        return True
    pattern = re.compile(r'(<img\b[^>]*?\ssrc=")[^"]*(")', re.IGNORECASE)
    return pattern.sub(r"\1\2", stored) == pattern.sub(r"\1\2", incoming)


def blog_import(*, blog: Blog, actor, progress: Progress = _no_progress, fetch: Callable[[str], bytes] | None = None,
                summary: str = "", invite_authors: bool = False, job_id=None) -> dict:
    """Import `blog` into the current company; its report. One transaction: everything or nothing.
    `invite_authors`: email each account the import makes an invitation (else they wait, inactive,
    until an admin invites them from Users)."""
    importer = _Importer(blog, actor=actor, progress=progress, fetch=fetch, invite_authors=invite_authors,
                         job_id=job_id)
    summary = summary or f"Import from {blog.version}"
    importer.plan_check()
    with events.batch(summary=summary, actor=actor, webhook_event=IMPORT_EVENT):
        users = importer.authors()
        importer.languages()
        terms = importer.terms()
        written = importer.posts(users, terms)
        importer.images(written)
        site_import(blog=blog, users=users, image=importer.image_media, report=importer.report, actor=actor)
        bulk.posts_revisions_created(posts=importer.created, actor=actor)
        SourceItem.objects.bulk_create(importer.new_items, batch_size=1000, ignore_conflicts=True)
        for kind, item, reason in blog.skipped:
            importer.report.count(kind, "skipped")
            importer.report.note(kind, item, "skipped", reason)
    report = importer.report.as_dict()
    report["source"], report["version"] = blog.source, blog.version
    report["notBroughtOver"] = not_brought_over(blog)
    report["imagesKeptAsAddress"] = importer.kept_as_address  # listed per post: GET /api/imports/missing-images
    return report
