"""Imported HTML made into the editor's HTML: WordPress block comments removed, the classic
editor's line breaks made into paragraphs (as WordPress's `wpautop` shows them), the `[caption]`
and `[gallery]` shortcodes made into figures, then the editor's own sanitiser
(apps.core.html.sanitize_html). Any other shortcode is left as text and named in the report."""
from __future__ import annotations

import html as html_lib
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from apps.core.html import sanitize_html

# The openings of what is rewritten; each is closed by the first closing that follows it, found
# with str.find (not a lazy regex: a regex tries each unclosed opening to the end of the text, and
# a text of many unclosed openings takes minutes; here an opening without a closing ends the work).
_BLOCK_COMMENT = re.compile(r"<!--\s*/?wp:")
_MORE = re.compile(r"<!--\s*(?:more|nextpage|noteaser)\b")
_CAPTION = re.compile(r"\[(caption|wp_caption)(?=[\s\]])", re.IGNORECASE)
_GALLERY = re.compile(r"\[(gallery)(?=[\s\]])", re.IGNORECASE)
_ATTRIBUTE = re.compile(r'\b(\w+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|(\S+))')
_SHORTCODE = re.compile(r"\[(/?)([a-zA-Z][\w-]*)(?=[\s\]])")
_BLOCK_START = re.compile(r"^\s*<(?:p|div|h[1-6]|ul|ol|li|blockquote|figure|table|pre|hr|iframe|dl|address|section)\b",
                          re.IGNORECASE)
_IMG_SRC = re.compile(r'(<img\b[^>]*?\ssrc=")([^"]*)(")', re.IGNORECASE)
_LINK_HREF = re.compile(r'(<a\b[^>]*?\shref=")([^"]*)(")', re.IGNORECASE)


@dataclass
class Converted:
    html: str
    unsupported: list[str] = field(default_factory=list)  # shortcodes left as text, by name
    removed: list[str] = field(default_factory=list)  # what the sanitiser took out: "script", "iframe (host)"


_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9:-]{0,40})")
_IFRAME_SRC = re.compile(r"""<iframe\b[^>]*?\ssrc\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)


def _sanitized(html: str) -> tuple[str, list[str]]:
    """`html` through the editor's sanitiser, and what it took out, by tag name ("font ×2";
    an iframe with its host), compared before and after."""
    cleaned = sanitize_html(html)
    before = Counter(name.lower() for name in _TAG.findall(html))
    after = Counter(name.lower() for name in _TAG.findall(cleaned))
    removed = []
    for name, count in sorted((before - after).items()):
        if name == "iframe":
            kept = set(_IFRAME_SRC.findall(cleaned))
            hosts = sorted({urlsplit(html_lib.unescape(src)).hostname or "?" for src in _IFRAME_SRC.findall(html)
                            if src not in kept})
            removed.append(f"iframe ({', '.join(hosts)[:200]})" if hosts else "iframe")
        else:
            removed.append(name if count == 1 else f"{name} ×{count}")
    return cleaned, removed


def _attributes(text: str) -> dict[str, str]:
    return {m.group(1).lower(): next(g for g in m.groups()[1:] if g is not None) for m in _ATTRIBUTE.finditer(text)}


def _autop(text: str) -> str:
    """Paragraphs of text written without them (WordPress's classic editor stores line breaks)."""
    if "\n" not in text:
        return text
    chunks = re.split(r"\n\s*\n", text.replace("\r\n", "\n"))
    out = []
    for chunk in chunks:
        chunk = chunk.strip()
        if not chunk:
            continue
        if _BLOCK_START.match(chunk):
            out.append(chunk)
        else:
            out.append("<p>" + chunk.replace("\n", "<br>\n") + "</p>")
    return "\n".join(out)


def _without(text: str, opening: re.Pattern, closing: str) -> str:
    """`text` without each span from an `opening` to the first `closing` after it."""
    out, position = [], 0
    while (found := opening.search(text, position)) is not None:
        end = text.find(closing, found.end())
        if end < 0:
            break
        out.append(text[position:found.start()])
        position = end + len(closing)
    out.append(text[position:])
    return "".join(out)


def _shortcodes(text: str, opening: re.Pattern, replace: Callable[[str, str, str], str | None]) -> str:
    """`text` with each shortcode `[name attributes]` that `opening` finds (with, for a caption,
    what follows it up to its `[/name]`) replaced by `replace(name, attributes, inner)`; None keeps
    it. A `[name` without its `]` ends the work (no `]` follows any later one either)."""
    out, position, unclosed = [], 0, set()
    while (found := opening.search(text, position)) is not None:
        close = text.find("]", found.end())
        if close < 0:
            break
        name, attributes = found.group(1).lower(), text[found.end():close]
        inner, end = "", close + 1
        if name in _ENCLOSING:
            closing = re.compile(r"\[/" + re.escape(name) + r"\]", re.IGNORECASE) if name not in unclosed else None
            after = closing.search(text, end) if closing is not None else None
            if after is None:  # no closing: no later one of this name has one either
                unclosed.add(name)
                out.append(text[position:end])
                position = end
                continue
            inner, end = text[end:after.start()], after.end()
        replaced = replace(name, attributes, inner)
        out.append(text[position:found.start()] + (text[found.start():end] if replaced is None else replaced))
        position = end
    out.append(text[position:])
    return "".join(out)


_ENCLOSING = {"caption", "wp_caption"}


def _caption(name: str, attributes_text: str, inner: str) -> str:
    attributes = _attributes(attributes_text)
    inner = inner.strip()
    caption = attributes.get("caption", "")
    image_end = max(inner.rfind("</a>"), -1)
    if image_end >= 0:
        image, text = inner[: image_end + 4], inner[image_end + 4:]
    else:
        split = re.match(r"(<img\b[^>]*>)([\s\S]*)", inner, re.IGNORECASE)
        image, text = (split.group(1), split.group(2)) if split else (inner, "")
    caption = caption or text.strip()
    return f"<figure>{image}<figcaption>{caption}</figcaption></figure>" if caption else f"<figure>{image}</figure>"


def convert_wordpress(html: str, *, gallery: Callable[[dict[str, str]], list[tuple[str, str]]]) -> Converted:
    """WordPress post content as the editor's HTML. `gallery(attributes)`: the (url, alt) of the
    images a [gallery] shows."""
    text = _without(_without(html or "", _BLOCK_COMMENT, "-->"), _MORE, "-->")
    text = _shortcodes(text, _CAPTION, _caption)

    def _gallery(name: str, attributes: str, inner: str) -> str:
        images = gallery(_attributes(attributes))
        if not images:
            return ""
        items = "".join(f'<img src="{html_lib.escape(url)}" alt="{html_lib.escape(alt)}">' for url, alt in images)
        return f"<figure>{items}</figure>"

    text = _shortcodes(text, _GALLERY, _gallery)
    cleaned, removed = _sanitized(_autop(text))
    return Converted(html=cleaned, unsupported=_unsupported(text), removed=removed)


def _unsupported(text: str) -> list[str]:
    """The names of the shortcodes left in `text` (`[name]` or `[name attributes]`)."""
    names, position = set(), 0
    while (found := _SHORTCODE.search(text, position)) is not None:
        close = text.find("]", found.end())
        if close < 0:
            break
        if not found.group(1):
            names.add(found.group(2).lower())
        position = close + 1
    return sorted(names)


_MARKDOWN = None


def markdown_html(text: str) -> str:
    """Ghost's markdown (0.x posts, 1.x-4.x markdown cards) as HTML: CommonMark with the tables and
    strikethrough of GitHub's flavour, as Ghost rendered it; HTML written in it is kept here and
    cleaned by the sanitiser with the rest of the post (markdown-it-py: linear time, nesting past
    its limit left as text)."""
    global _MARKDOWN
    if _MARKDOWN is None:
        from markdown_it import MarkdownIt

        _MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return _MARKDOWN.render(text or "")


def convert_ghost(html: str) -> Converted:
    cleaned, removed = _sanitized(html or "")
    return Converted(html=cleaned, removed=removed)


def image_sources(html: str) -> list[str]:
    """The src of every <img> of sanitised HTML, in order, once each."""
    return list(dict.fromkeys(html_lib.unescape(m.group(2)) for m in _IMG_SRC.finditer(html or "")))


def rewrite_images(html: str, addresses: dict[str, str]) -> str:
    """`html` with each <img src> found in `addresses` replaced by its new address, and each link
    to one of those images (WordPress links an image to its file)."""
    def _replace(match: re.Match) -> str:
        new = addresses.get(html_lib.unescape(match.group(2)))
        return match.group(1) + html_lib.escape(new) + match.group(3) if new else match.group(0)

    return _LINK_HREF.sub(_replace, _IMG_SRC.sub(_replace, html or ""))
