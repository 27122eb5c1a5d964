"""A post as a newsletter email (docs/newsletters.md#the-email), rendered once per send.

The post's sanitised HTML goes into a responsive table layout (templates/newsletters/email.html)
with the company's branding (the site's title, logo and accent colour: apps.site) and the
newsletter's header image, sender and footer; its CSS is inlined (css-inline, media queries kept
in a style element for the mail apps that read them); every address is absolute (images and links
of the post are often paths of the company's host); embeds that mail apps cannot play (iframes,
video, audio) become links. A plain-text part is made from the same HTML.

What differs from one member to another (their preferences and unsubscribe links) is written as
markers (`Markers`) that the senders replace: the rest of the email is the same bytes for everyone.

Both parts are written in lines of at most WRAP_BYTES bytes wherever a line can be broken without
changing what a mail app shows (`wrap_html`, `wrap_text`): a part with a line longer than RFC 5322's
998 would be sent quoted-printable, and the senders' prepared bytes (apps.newsletters.sending) need
8bit parts, where the markers stand as they are.

The text around the post (the website button, the date, the footer's reason and links) is in the
post's language, else the company's default language, when the members' pages have words for it
(apps.members.i18n, with the same fallback to English); the date is written by CLDR's rules for it.
"""
from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from django.template.loader import render_to_string
from django.utils import timezone

from apps.members import i18n
from apps.members.tokens import TRACKING_TOKEN_LENGTH
from apps.site.selectors import image_addresses, site_view
from tenants.addresses import tenant_base_url

SUBJECT_MAX = 300


def one_line(value: str) -> str:
    """Header text on one line (a title is typed by people: CR, LF and tabs become spaces)."""
    return " ".join((value or "").split())


@dataclass(frozen=True)
class Markers:
    """Where each member's own addresses go; unguessable (the send's id), so a post's text can
    never hold one."""

    preferences: str
    unsubscribe: str
    # The member's tracking token in the open pixel and click links (apps.newsletters.tracking): as
    # long as every token, so that a line holding it is as long in each member's email.
    tracking: str

    @classmethod
    def of(cls, send_id) -> "Markers":
        tag = str(send_id).replace("-", "")
        return cls(preferences=f"https://member-preferences-{tag}.invalid/",
                   unsubscribe=f"https://member-unsubscribe-{tag}.invalid/",
                   tracking=f"member-tracking-{tag}-".ljust(TRACKING_TOKEN_LENGTH, "0"))


@dataclass(frozen=True)
class Rendered:
    subject: str
    html: str
    text: str


_EMBED = re.compile(r"<iframe\b[^>]*\bsrc=\"([^\"]+)\"[^>]*>.*?</iframe>", re.IGNORECASE | re.DOTALL)
_MEDIA = re.compile(r"<(video|audio)\b[^>]*?(?:\bsrc=\"([^\"]+)\")?[^>]*>(.*?)</\1>", re.IGNORECASE | re.DOTALL)
_SOURCE = re.compile(r"<source\b[^>]*\bsrc=\"([^\"]+)\"", re.IGNORECASE)
_RELATIVE = re.compile(r"(\s(?:src|href|poster)=\")(/(?!/)[^\"]*)\"", re.IGNORECASE)


def _playable_as_links(content: str) -> str:
    def embed(match: re.Match) -> str:
        url = match.group(1)
        return f'<p><a href="{url}">&#9654; {html_lib.escape(html_lib.unescape(url))}</a></p>'

    def media(match: re.Match) -> str:
        url = match.group(2) or next(iter(_SOURCE.findall(match.group(3) or "")), "")
        return f'<p><a href="{url}">&#9654; {html_lib.escape(html_lib.unescape(url))}</a></p>' if url else ""

    return _MEDIA.sub(media, _EMBED.sub(embed, content))


def absolute_urls(html: str, base_url: str) -> str:
    """src, href and poster attributes that are paths of the company's host, made absolute."""
    base = base_url.rstrip("/")
    return _RELATIVE.sub(lambda m: f'{m.group(1)}{base}{m.group(2)}"', html)


class _Text(HTMLParser):
    """The plain-text part: paragraphs and headings on their own lines, list items with a dash,
    links as `text (address)`, images as their alt text."""

    BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "tr", "figure",
              "figcaption", "ul", "ol", "hr", "section", "header", "footer"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.links: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("style", "script", "head", "title"):
            self.skip += 1
        elif tag in self.BLOCKS:
            self.out.append("\n\n")
        elif tag == "br":
            self.out.append("\n")
        elif tag == "li":
            self.out.append("\n- ")
        elif tag == "a":
            self.links.append(attrs.get("href") or "")
        elif tag == "img" and attrs.get("alt"):
            self.out.append(f"[{attrs['alt']}]")
        elif tag in ("td", "th"):
            self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head", "title"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self.out.append("\n\n")
        elif tag == "a" and self.links:
            href = self.links.pop()
            if href and href.startswith(("http://", "https://", "mailto:")):
                self.out.append(f" ({href})")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(re.sub(r"[ \t\r\n]+", " ", data))

    def text(self) -> str:
        lines = [line.strip() for line in "".join(self.out).split("\n")]
        text = "\n".join(lines)
        return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def html_to_plain(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.text()


def date_text(value, language: str) -> str:
    """A day as the email's language writes it: 15 March 2026, 15 mars 2026, 15. März 2026."""
    from babel.dates import format_date

    day = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return format_date(day, "d MMMM y" if language == "en" else "long", locale=language)


def _inline(html: str) -> str:
    import css_inline  # the Rust inliner: loaded by the processes that send, not by every web worker

    return css_inline.CSSInliner(keep_at_rules=True, load_remote_stylesheets=False).inline(html)


def render(*, post, newsletter, client, markers: Markers, subject: str = "") -> Rendered:
    """The send's email: subject, HTML (CSS inlined, addresses absolute) and plain text, with
    `markers` where each member's links go."""
    view = site_view(client)
    base_url = tenant_base_url(client.subdomain)
    refs = [ref for ref in (newsletter.header_image, str(post.featured_image_id or "")) if ref]
    images = image_addresses(refs)
    website_link = client.post_url(post.slug, post.language) if client.website_url else ""
    author = getattr(post.author, "display_name", "") or getattr(post.author, "username", "") if post.author else ""
    subject = one_line(subject or post.title)[:SUBJECT_MAX]
    language, words = i18n.words_of(post.language, client.default_language)
    published_at = post.published_at or post.scheduled_publish_date or timezone.now()
    context = {
        "subject": subject, "site_title": view.title, "logo": view.images.get("logo"),
        "accent": view.row.accent_color or "#2563eb", "newsletter": newsletter,
        "sender": one_line(newsletter.sender_name) or view.title,
        "header_image": images.get(newsletter.header_image) if newsletter.header_image else None,
        "post": post, "title": one_line(post.title), "excerpt": post.excerpt,
        "published_at": published_at, "date": date_text(published_at, language), "author": author,
        "feature_image": images.get(str(post.featured_image_id)) if post.featured_image_id else None,
        "content": _playable_as_links(post.content or ""), "website_link": website_link,
        "footer": newsletter.footer, "base_url": base_url, "preferences_url": markers.preferences,
        "unsubscribe_url": markers.unsubscribe, "language": post.language or client.default_language or "en",
        "words": words, "reason": words["email_reason"].format(newsletter=newsletter.name, site=view.title),
    }
    html = wrap_html(absolute_urls(_inline(render_to_string("newsletters/email.html", context)), base_url))
    text = wrap_text(render_to_string("newsletters/email.txt", {**context, "body": html_to_plain(
        absolute_urls(context["content"], base_url))}))
    return Rendered(subject=subject, html=html, text=text)


# --- lines short enough to be sent 8bit ---------------------------------------------------------------
# A line is broken where it passes WRAP_BYTES, well under the 998 of RFC 5322, so that a line holding
# a marker still fits once the marker is replaced by a member's (longer) address.
WRAP_BYTES = 500
FLOWED_SIGNATURE = "-- "  # the signature separator: ends with a space, yet never a soft break (RFC 3676)

# Elements whose text is not HTML (raw text, escapable raw text): kept whole, like comments.
_RAW = frozenset({"style", "script", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript",
                  "plaintext"})
# Elements whose line breaks show: their text is never broken.
_PRESERVING = frozenset({"pre", "listing", "textarea", "xmp", "plaintext"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr", "keygen"})
_WHITE_SPACE_PRE = re.compile(r"white-space\s*:\s*(?:pre|break-spaces)", re.IGNORECASE)
_HTML_TOKEN = re.compile(
    r"<!--.*?-->"  # a comment (Outlook's conditional comments too): whole
    r"|<[!?][^>]*>"  # doctype, processing instruction: whole
    r"|<(/?)([A-Za-z][^\s/>]*)((?:\"[^\"]*\"|'[^']*'|[^>\"'])*)>"  # a tag: name, then attributes
    r"|[^<]+|<", re.DOTALL)
_TAG_SPACE = re.compile(r"\"[^\"]*\"|'[^']*'|([ \t])")  # a space of a tag that is not in a quoted value


def _html_pieces(html: str):
    """(text, breakable) pieces of `html`: breakable pieces are single spaces (or tabs) where a line
    break shows the same: between a tag's attributes, and in text outside raw-text and preserving
    elements (`<pre>`, or white-space: pre, pre-wrap, break-spaces in its style)."""
    keep: list[list] = []  # [tag name, depth] of the preserving elements open, innermost last
    pos = 0
    while pos < len(html):
        match = _HTML_TOKEN.match(html, pos)
        token, pos = match.group(0), match.end()
        name = (match.group(2) or "").lower()
        if not name:  # text, a comment, a doctype
            if keep or token.startswith("<"):
                yield token, False
            else:
                for n, word in enumerate(re.split(r"([ \t])", token)):
                    if word:
                        yield word, n % 2 == 1
            continue
        closing, attributes = match.group(1) == "/", match.group(3)
        yield from _tag_pieces(token)
        if closing:
            if keep and keep[-1][0] == name:
                keep[-1][1] -= 1
                if keep[-1][1] == 0:
                    keep.pop()
            continue
        if name in _VOID or attributes.rstrip().endswith("/"):
            continue
        if name in _RAW:
            end = re.compile(rf"</{re.escape(name)}[\s/>]", re.IGNORECASE).search(html, pos)
            stop = end.start() if end else len(html)
            if stop > pos:
                yield html[pos:stop], False
            pos = stop
            continue
        if name in _PRESERVING or _WHITE_SPACE_PRE.search(attributes):
            keep.append([name, 1])
        elif keep and keep[-1][0] == name:
            keep[-1][1] += 1


def _tag_pieces(tag: str):
    start = 0
    for space in _TAG_SPACE.finditer(tag):
        if space.group(1):
            if space.start() > start:
                yield tag[start:space.start()], False
            yield space.group(1), True
            start = space.end()
    if start < len(tag):
        yield tag[start:], False


def _wrap(pieces, width: int, soft: str = "") -> str:
    """Greedy: when a line would pass `width` bytes, the last breakable space before the overflow
    becomes a line break (preceded by `soft`: a space for format=flowed)."""
    out: list[str] = []
    line = 0  # bytes of the current line
    last = -1  # index in `out` of the current line's last breakable space
    after = 0  # bytes of the current line after that space
    for piece, breakable in pieces:
        size = len(piece.encode("utf-8", "surrogatepass"))
        if breakable:
            if line + size > width and last >= 0:
                out[last], line = soft + "\n", after
            out.append(piece)
            last, line, after = len(out) - 1, line + size, 0
            continue
        newline = max(piece.rfind("\n"), piece.rfind("\r"))
        first = size if newline < 0 else len(re.split(r"[\r\n]", piece, maxsplit=1)[0].encode("utf-8", "surrogatepass"))
        if line + first > width and last >= 0:
            out[last], line = soft + "\n", after
            last = -1
        out.append(piece)
        if newline < 0:
            line, after = line + size, after + size
        else:
            line = after = len(piece[newline + 1:].encode("utf-8", "surrogatepass"))
            last = -1
    return "".join(out)


def wrap_html(html: str, width: int = WRAP_BYTES) -> str:
    """`html` with its long lines broken at spaces between attributes and in text (not in `<pre>`,
    raw-text elements, comments or attribute values): what a mail app shows is the same."""
    if all(len(line.encode("utf-8", "surrogatepass")) <= width for line in html.splitlines()):
        return html
    return _wrap(_html_pieces(html), width)


def wrap_text(text: str, width: int = WRAP_BYTES) -> str:
    """The plain-text part, as format=flowed (RFC 3676) when a line is longer than `width` bytes: such
    lines end in soft breaks (a space before the line break), which flowed-aware mail apps join
    again; lines that begin with a space, `>` or `From ` are then space-stuffed. Trailing spaces are
    dropped from every line (they show nothing), so that only a soft break ends in one
    (`is_flowed`); the signature separator `-- ` keeps its space."""
    lines = [line if line == FLOWED_SIGNATURE else line.rstrip(" ") for line in text.split("\n")]
    if all(len(line.encode("utf-8", "surrogatepass")) <= width for line in lines):
        return "\n".join(lines)
    flowed = "\n".join(_wrap(_words(line), width, soft=" ") for line in lines).split("\n")
    return "\n".join(" " + line if line.startswith((" ", ">", "From ")) else line for line in flowed)


def _words(line: str):
    for n, word in enumerate(line.split(" ")):
        if n:
            yield " ", True
        if word:
            yield word, False


def is_flowed(text: str) -> bool:
    """Whether `text` (a part made by `wrap_text`) has soft breaks: it is sent as format=flowed."""
    return any(line.endswith(" ") and line != FLOWED_SIGNATURE for line in text.split("\n"))
