"""The one HTML sanitiser of the product (nh3, the Python binding of the Rust `ammonia` crate).

Post content comes from a rich-text editor and is rendered as HTML by the dashboard and by the
companies' websites, so it is cleaned on every write with an allow-list:

- tags: headings h1-h6, p, br, hr, lists, links, images, bold/italic/underline/strike, blockquote,
  cite, code/pre, span, figure/figcaption, tables, sub/sup, audio and video (with their source
  elements), and iframes of the well-known embed hosts only;
- attributes: a[href, title, target], img[src, alt, width, height], table cells' colspan/rowspan,
  `style` on p, span, headings, li and table cells, limited to color, background-color and
  text-align with plain values (no url(), expression() or escapes);
- URLs: http, https and mailto only (relative URLs are kept); every link gets
  rel="noopener noreferrer";
- iframes: kept only when their src is an https embed address of YouTube
  (www.youtube.com/embed/..., www.youtube-nocookie.com/embed/...), Vimeo
  (player.vimeo.com/video/<id>), SoundCloud (w.soundcloud.com/player/?url=...), Spotify
  (open.spotify.com/embed/<kind>/<id>) or X/Twitter (platform.twitter.com/embed/Tweet.html?...,
  platform.x.com/embed/Tweet.html?...); any other host is removed with its iframe; anything inside
  an iframe is dropped;
- audio, video and source: src (and a video's poster) http(s) or a path, never another scheme;
  controls, loop, muted, preload, playsinline, width and height kept; no autoplay;
- script and style elements are removed with their content; comments are removed.
"""
from __future__ import annotations

import html as _html
import re

# nh3 (1.5 MB) is imported by the functions that call it: a web worker that only serves reads
# never loads it.

ALLOWED_TAGS = frozenset({
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div",
    "ul", "ol", "li",
    "a", "img",
    "strong", "b", "em", "i", "u", "s", "del", "sub", "sup", "mark",
    "blockquote", "code", "pre", "span",
    "figure", "figcaption", "cite",
    "audio", "video", "source",
    "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col",
    "iframe",
})

_STYLED = ("p", "span", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "figure")
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    "a": {"href", "title"},
    "img": {"src", "alt", "width", "height", "title"},
    "iframe": {"src", "width", "height", "title", "allowfullscreen", "frameborder", "allow"},
    "audio": {"src", "controls", "loop", "muted", "preload"},
    "video": {"src", "controls", "loop", "muted", "preload", "playsinline", "poster", "width", "height"},
    "source": {"src", "type"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "col": {"span"},
    "ol": {"start", "reversed"},
    "li": set(),
}
for _tag in _STYLED:
    ALLOWED_ATTRIBUTES.setdefault(_tag, set()).add("style")

# Attributes restricted to a fixed set of values (nh3: these must not also be in `attributes`).
ATTRIBUTE_VALUES = {"a": {"target": {"_blank", "_self"}}}

URL_SCHEMES = frozenset({"http", "https", "mailto"})
STYLE_PROPERTIES = frozenset({"color", "background-color", "text-align"})

_QUERY = r"(?:\?[A-Za-z0-9_=&%.,;:/+-]*)?"
# The embed addresses an iframe may have (exactly these hosts, https only).
# Their origins, for the dashboard's Content-Security-Policy (apps.core.security: frame-src).
EMBED_ORIGINS = ("https://www.youtube.com", "https://www.youtube-nocookie.com", "https://player.vimeo.com",
                 "https://w.soundcloud.com", "https://open.spotify.com", "https://platform.twitter.com",
                 "https://platform.x.com")
_EMBEDS = re.compile(
    r"^https://(?:"
    r"www\.youtube(?:-nocookie)?\.com/embed/[A-Za-z0-9_-]{1,64}"
    r"|player\.vimeo\.com/video/[0-9]{1,20}"
    r"|w\.soundcloud\.com/player/"
    r"|open\.spotify\.com/embed/(?:track|album|playlist|episode|show|artist)/[A-Za-z0-9]{1,64}"
    r"|platform\.(?:twitter|x)\.com/embed/Tweet\.html"
    r")" + _QUERY + "$"
)
_MEDIA_SOURCE = re.compile(r"^(?:https?://|/(?!/))[^\s\\]*$", re.IGNORECASE)
_COLOR = re.compile(
    r"^(?:#[0-9a-f]{3,8}|[a-z]{3,30}|(?:rgb|rgba|hsl|hsla)\((?:[0-9.,%\s/]|deg)*\))$"
)
_ALIGN = frozenset({"left", "right", "center", "justify", "start", "end"})
_DIMENSION = re.compile(r"^\d{1,5}%?$")
# nh3 writes attribute values double-quoted with `"`, `<`, `>` and `&` escaped, so this matches
# the iframe elements of its output exactly (an iframe's text never contains "</iframe").
_IFRAME = re.compile(r'<iframe((?:\s+[^\s=>"/]+(?:="[^"]*")?)*)\s*>.*?</iframe>', re.IGNORECASE | re.DOTALL)
_MEDIA_TAG = re.compile(r"<(?:img|iframe|audio|video)\b", re.IGNORECASE)
_SRC = re.compile(r'\ssrc="[^"]*"')


def _clean_style(value: str) -> str | None:
    kept = []
    for declaration in value.split(";"):
        name, sep, raw = declaration.partition(":")
        if not sep:
            continue
        name, raw = name.strip().lower(), raw.strip().lower()
        if name not in STYLE_PROPERTIES or not raw or "\\" in raw or "/*" in raw:
            continue
        if raw.endswith("!important"):
            raw = raw[: -len("!important")].strip()
        if name == "text-align":
            if raw in _ALIGN:
                kept.append(f"{name}:{raw}")
        elif _COLOR.match(raw) and not raw.startswith(("expression", "url")):
            kept.append(f"{name}:{raw}")
    return ";".join(kept) or None


def _attribute_filter(tag: str, attribute: str, value: str) -> str | None:
    if attribute == "style":
        return _clean_style(value)
    if tag in ("audio", "video", "source") and attribute in ("src", "poster"):
        return value if _MEDIA_SOURCE.match(value.strip()) else None
    if tag == "video" and attribute in {"width", "height"}:
        return value if _DIMENSION.match(value.strip()) else None
    if tag == "iframe":
        if attribute == "src":
            return value if _EMBEDS.match(value.strip()) else None
        if attribute in {"width", "height"}:
            return value if _DIMENSION.match(value.strip()) else None
        if attribute == "frameborder":
            return value if value.strip() in {"0", "1"} else None
    if tag == "img" and attribute in {"width", "height"}:
        return value if _DIMENSION.match(value.strip()) else None
    return value


def _rebuild_iframe(match: re.Match) -> str:
    attributes = match.group(1)
    if not _SRC.search(attributes):
        return ""  # an iframe whose source was refused is dropped whole
    return f"<iframe{attributes}></iframe>"


def sanitize_html(html: str) -> str:
    """Clean HTML from the editor (or anyone calling the API) to the allow-list above."""
    if not html:
        return ""
    import nh3

    cleaned = nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style", "noscript", "template", "xmp", "noembed", "noframes", "object",
                            "embed", "applet", "svg", "math", "title", "textarea", "select"},
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=_attribute_filter,
        tag_attribute_values={tag: {name: set(values) for name, values in attrs.items()}
                              for tag, attrs in ATTRIBUTE_VALUES.items()},
        url_schemes=set(URL_SCHEMES),
        filter_style_properties=set(STYLE_PROPERTIES),
        link_rel="noopener noreferrer",
        strip_comments=True,
    )
    return _IFRAME.sub(_rebuild_iframe, cleaned)


def html_to_text(html: str) -> str:
    """The visible text of an HTML fragment (tags dropped, entities decoded)."""
    if not html:
        return ""
    return _html.unescape(strip_tags(html)).replace("\xa0", " ")


def strip_tags(html: str, *, dropped_with_content: frozenset[str] | None = None) -> str:
    """`html` without its tags, and without what the elements in `dropped_with_content` hold
    (None: script and style, nh3's own); entities stay as written."""
    import nh3

    dropped = None if dropped_with_content is None else set(dropped_with_content)
    return nh3.clean(html, tags=set(), clean_content_tags=dropped)


def is_blank_html(html: str) -> bool:
    """True when the fragment shows nothing: no text, no image, no embedded video
    (an editor's empty document is `<p>&nbsp;</p>`)."""
    if not html or not html.strip():
        return True
    if _MEDIA_TAG.search(html):
        return False
    return not html_to_text(html).strip()
