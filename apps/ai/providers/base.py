"""What every provider offers, and the failures they report (with the spec's messages)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

# The spec's messages (SPEC §8, AI).
BLOG_SUCCESS = "Blog content generated successfully!"
SEO_SUCCESS = "SEO metadata generated successfully!"
BLOG_FAILED = "Failed to generate blog content"
SEO_FAILED = "Failed to generate SEO content. Please try again."
NO_RESPONSE = "No response from AI service"
PARSE_FAILED = "Failed to parse AI response"
SEO_INCOMPLETE = "Incomplete SEO data generated"
TRANSLATE_SUCCESS = "Translation draft created. Review it before publishing."
TRANSLATE_FAILED = "Failed to translate the post. Please try again."
# The text fields of a post a translation replaces (the rest is copied: images, video, terms).
TRANSLATED_FIELDS = ("title", "excerpt", "content", "meta_title", "meta_description", "focus_keyword",
                     "og_title", "og_description", "twitter_title", "twitter_description")


def api_error_message(status: int | str) -> str:
    return f"Gemini API error: {status}"


TONES = ("professional", "casual", "friendly", "authoritative", "conversational")
AUDIENCES = ("general", "beginners", "experts", "business", "technical")


@dataclass(frozen=True)
class BlogRequest:
    input_content: str
    tone: str = "professional"
    audience: str = "general"


@dataclass(frozen=True)
class SeoRequest:
    title: str = ""
    content: str = ""  # plain text, already stripped of HTML and cut to 1000 characters
    excerpt: str = ""


@dataclass(frozen=True)
class TranslateRequest:
    source_language: str  # BCP 47 codes, with their names for prompts
    target_language: str
    source_name: str
    target_name: str
    fields: dict  # TRANSLATED_FIELDS -> text (content: sanitised HTML)


class GenerationError(Exception):
    """A generation that cannot succeed; `message` is what the user is shown."""

    def __init__(self, message: str, *, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail  # for logs only


class Provider(Protocol):
    name: str

    def generate_blog(self, request: BlogRequest) -> dict:
        """title, content (sanitised HTML), excerpt, slug, metaTitle, metaDescription, canonicalUrl,
        focusKeyword, tags [str], categories [str]."""

    def generate_seo(self, request: SeoRequest) -> dict:
        """metaTitle, metaDescription, keywords [str]."""

    def translate_post(self, request: TranslateRequest) -> dict:
        """TRANSLATED_FIELDS -> translated text (content: HTML with the source's structure, links
        and images)."""
