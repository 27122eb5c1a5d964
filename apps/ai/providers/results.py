"""Checks and normalises what a provider produced, whichever provider it was.

HTML content goes through the product's one sanitiser; every other field is plain text (tags
stripped, whitespace collapsed), so a model's answer is as safe as any post an editor saves.
"""
from __future__ import annotations

import html
import re

from apps.ai.providers.base import BLOG_FAILED, PARSE_FAILED, SEO_INCOMPLETE, TRANSLATED_FIELDS, GenerationError
from apps.core.html import sanitize_html, strip_tags
from apps.core.text import slugify

_SPACE = re.compile(r"\s+")
# Block-level tags end a word: "<p>a</p><p>b</p>" reads "a b", not "ab".
_BLOCK_TAG = re.compile(
    r"<(/?(?:p|div|br|hr|h[1-6]|li|ul|ol|tr|td|th|table|blockquote|pre|section|article|header|footer|"
    r"figure|figcaption)\b)",
    re.IGNORECASE,
)
_DROPPED_WITH_CONTENT = frozenset({"script", "style", "noscript", "template", "textarea", "title", "iframe",
                                   "object", "svg", "math"})
MAX_KEYWORDS = 10
MAX_TAGS = 10
MAX_CATEGORIES = 5


def plain_text(value, *, limit: int | None = None) -> str:
    """Text of a value that may hold HTML: tags dropped, entities decoded, whitespace collapsed."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value) if isinstance(value, (int, float)) else ""
    stripped = strip_tags(_BLOCK_TAG.sub(r" <\1", value), dropped_with_content=_DROPPED_WITH_CONTENT)
    text = _SPACE.sub(" ", html.unescape(stripped)).strip()
    if limit is not None and len(text) > limit:
        text = text[:limit].rstrip()
    return text


def clip_words(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary when there is one."""
    if len(text) <= limit:
        return text
    cut = text[: limit + 1].rsplit(" ", 1)[0] if " " in text[: limit + 1] else text[:limit]
    cut = cut[:limit].rstrip(" ,;:-|")
    return cut or text[:limit]


def string_list(value, *, limit: int, item_limit: int = 60) -> list[str]:
    """A list of distinct non-empty strings; a comma-separated string is accepted too."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)):
        return []
    items: list[str] = []
    seen: set[str] = set()
    for raw in value:
        item = plain_text(raw, limit=item_limit)
        if item and item.lower() not in seen:
            seen.add(item.lower())
            items.append(item)
        if len(items) == limit:
            break
    return items


def excerpt_from(content_html: str, limit: int = 200) -> str:
    return clip_words(plain_text(content_html), limit)


def blog_result(raw: dict) -> dict:
    """The blog draft the API returns. Title and content are required; the rest is derived
    from them when the provider left it out."""
    if not isinstance(raw, dict):
        raise GenerationError(BLOG_FAILED, detail="result is not an object")
    title = plain_text(raw.get("title"), limit=200)
    content = sanitize_html(raw.get("content") if isinstance(raw.get("content"), str) else "").strip()
    if not title or not plain_text(content):
        raise GenerationError(BLOG_FAILED, detail="title or content missing")
    excerpt = plain_text(raw.get("excerpt"), limit=500) or excerpt_from(content)
    slug = slugify(plain_text(raw.get("slug"))) or slugify(title)
    meta_title = plain_text(raw.get("metaTitle"), limit=120) or clip_words(title, 60)
    meta_description = plain_text(raw.get("metaDescription"), limit=320) or clip_words(excerpt, 160)
    tags = string_list(raw.get("tags"), limit=MAX_TAGS)
    focus_keyword = plain_text(raw.get("focusKeyword"), limit=100) or (tags[0].lower() if tags else "")
    return {
        "title": title,
        "content": content,
        "excerpt": excerpt,
        "slug": slug[:200].strip("-"),
        "metaTitle": meta_title,
        "metaDescription": meta_description,
        # The provider cannot know where the company's site publishes the post.
        "canonicalUrl": "",
        "focusKeyword": focus_keyword,
        "tags": tags,
        "categories": string_list(raw.get("categories"), limit=MAX_CATEGORIES),
    }


def seo_result(raw: dict) -> dict:
    """metaTitle, metaDescription and keywords, all present, else 'Incomplete SEO data generated'."""
    if not isinstance(raw, dict):
        raise GenerationError(SEO_INCOMPLETE, detail="result is not an object")
    result = {
        "metaTitle": plain_text(raw.get("metaTitle"), limit=120),
        "metaDescription": plain_text(raw.get("metaDescription"), limit=320),
        "keywords": string_list(raw.get("keywords"), limit=MAX_KEYWORDS),
    }
    missing = [name for name, value in result.items() if not value]
    if missing:
        raise GenerationError(SEO_INCOMPLETE, detail=f"missing {', '.join(missing)}")
    return result


def translation_result(raw, request) -> dict:
    """A translation as the provider answered it: every field a string (what is missing or not text
    keeps the source's), the content sanitised HTML."""
    if not isinstance(raw, dict):
        raise GenerationError(PARSE_FAILED, detail="not an object")
    out = {}
    for name in TRANSLATED_FIELDS:
        value = raw.get(name)
        out[name] = value.strip() if isinstance(value, str) and value.strip() else request.fields.get(name, "")
    out["content"] = sanitize_html(out["content"])
    return out
