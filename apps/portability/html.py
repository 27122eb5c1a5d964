"""Imported HTML made into the editor's HTML: WordPress block comments removed, the classic
editor's line breaks made into paragraphs (as WordPress's `wpautop` shows them), the `[caption]`
and `[gallery]` shortcodes made into figures, then the editor's own sanitiser
(apps.core.html.sanitize_html). Any other shortcode is left as text and named in the report."""
from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from apps.core.html import sanitize_html

_BLOCK_COMMENT = re.compile(r"<!--\s*/?wp:[\s\S]*?-->")
_MORE = re.compile(r"<!--\s*(?:more|nextpage|noteaser)\b[\s\S]*?-->")
_CAPTION = re.compile(r"\[(caption|wp_caption)([^\]]*)\]([\s\S]*?)\[/\1\]", re.IGNORECASE)
_GALLERY = re.compile(r"\[gallery([^\]]*)\]", re.IGNORECASE)
_ATTRIBUTE = re.compile(r'(\w+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|(\S+))')
_SHORTCODE = re.compile(r"\[(/?)([a-zA-Z][\w-]*)(?:\s[^\]]*)?\]")
_BLOCK_START = re.compile(r"^\s*<(?:p|div|h[1-6]|ul|ol|li|blockquote|figure|table|pre|hr|iframe|dl|address|section)\b",
                          re.IGNORECASE)
_IMG_SRC = re.compile(r'(<img\b[^>]*?\ssrc=")([^"]*)(")', re.IGNORECASE)
_LINK_HREF = re.compile(r'(<a\b[^>]*?\shref=")([^"]*)(")', re.IGNORECASE)


@dataclass
class Converted:
    html: str
    unsupported: list[str] = field(default_factory=list)  # shortcodes left as text, by name


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


def _caption(match: re.Match) -> str:
    attributes = _attributes(match.group(2))
    inner = match.group(3).strip()
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
    text = _MORE.sub("", _BLOCK_COMMENT.sub("", html or ""))
    text = _CAPTION.sub(_caption, text)

    def _gallery(match: re.Match) -> str:
        images = gallery(_attributes(match.group(1)))
        if not images:
            return ""
        items = "".join(f'<img src="{html_lib.escape(url)}" alt="{html_lib.escape(alt)}">' for url, alt in images)
        return f"<figure>{items}</figure>"

    text = _GALLERY.sub(_gallery, text)
    unsupported = sorted({m.group(2).lower() for m in _SHORTCODE.finditer(text) if not m.group(1)})
    return Converted(html=sanitize_html(_autop(text)), unsupported=unsupported)


def convert_ghost(html: str) -> Converted:
    return Converted(html=sanitize_html(html or ""))


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
