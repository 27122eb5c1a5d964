"""Input and output schemas of the AI endpoints (docs/ai.md: ai/generate-blog, ai/generate-seo,
ai/jobs/{id}); validation messages are the spec's."""
from __future__ import annotations

from typing import Literal

from django.conf import settings
from ninja import Field, Schema
from pydantic import field_validator, model_validator

from apps.ai.models import GenerationJob
from apps.ai.providers.base import AUDIENCES, BLOG_SUCCESS, SEO_SUCCESS, TONES, TRANSLATE_SUCCESS
from apps.ai.providers.results import plain_text
from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted
from apps.core.validation import text

INPUT_TOO_SHORT = "Please enter at least 10 characters of input content"
SEO_NOTHING_TO_USE = "Please add a title, content, or excerpt before generating SEO metadata."
SEO_CONTENT_CHARS = 1000  # spec: content sent for SEO
SEO_TITLE_CHARS = 300
SEO_EXCERPT_CHARS = 1000


def _choice(value, options: tuple[str, ...], default: str, label: str) -> str:
    message = f"{label} must be one of {', '.join(options)}"
    value = text(value, message).strip().lower()
    if not value:
        return default
    if value not in options:
        raise ValueError(message)
    return value


class BlogGenerateIn(InSchema):
    inputContent: str = ""
    tone: str | None = "professional"  # null: the default (documented: the OpenAPI says so)
    targetAudience: str | None = "general"
    contentType: str | None = "blog"

    @field_validator("inputContent", mode="before")
    @classmethod
    def _input(cls, value):
        value = text(value, INPUT_TOO_SHORT).strip()
        if len(value) < 10:
            raise ValueError(INPUT_TOO_SHORT)
        limit = settings.AI_MAX_INPUT_CHARS
        if len(value) > limit:
            raise ValueError(f"Input content must be at most {limit} characters")
        return value

    @field_validator("tone", mode="before")
    @classmethod
    def _tone(cls, value):
        return _choice(value, TONES, "professional", "Tone")

    @field_validator("targetAudience", mode="before")
    @classmethod
    def _audience(cls, value):
        return _choice(value, AUDIENCES, "general", "Target audience")

    @field_validator("contentType", mode="before")
    @classmethod
    def _content_type(cls, value):
        return _choice(value, ("blog",), "blog", "Content type")


class SeoGenerateIn(InSchema):
    """Content is reduced to its text and cut to 1000 characters, as the spec sends it."""

    title: str | None = ""  # null is read as "" (documented: the OpenAPI says so)
    content: str | None = ""
    excerpt: str | None = ""

    @field_validator("title", mode="before")
    @classmethod
    def _title(cls, value):
        return plain_text(text(value, "Title is not valid"), limit=SEO_TITLE_CHARS)

    @field_validator("content", mode="before")
    @classmethod
    def _content(cls, value):
        return plain_text(text(value, "Content is not valid"), limit=SEO_CONTENT_CHARS)

    @field_validator("excerpt", mode="before")
    @classmethod
    def _excerpt(cls, value):
        return plain_text(text(value, "Excerpt is not valid"), limit=SEO_EXCERPT_CHARS)

    @model_validator(mode="after")
    def _something(self):
        if not (self.title or self.content or self.excerpt):
            raise ValueError(SEO_NOTHING_TO_USE)
        return self


class AsyncQuery(Schema):
    async_: bool = Field(False, alias="async")


SUCCESS_MESSAGES = {GenerationJob.Kind.BLOG: BLOG_SUCCESS, GenerationJob.Kind.SEO: SEO_SUCCESS,
                    GenerationJob.Kind.TRANSLATE: TRANSLATE_SUCCESS}
STILL_RUNNING = "Generation is still running. Check the job for the result."


# --- replies (keys in the order they are sent) ---------------------------------------------------
JobKind = Literal["blog", "seo", "translate"]
JobStatus = Literal["queued", "running", "succeeded", "failed"]


# A job's result is read back from its JSON column: PostgreSQL's jsonb keeps an object's keys
# ordered by length, then bytewise, so that is the order of these fields in every reply.
class BlogDraftOut(OutSchema):
    """A generated blog draft (spec §8): `content` is sanitised HTML, `canonicalUrl` is empty."""

    slug: str
    tags: list[str]
    title: str
    content: str
    excerpt: str
    metaTitle: str
    categories: list[str]
    canonicalUrl: str
    focusKeyword: str
    metaDescription: str


class SeoDraftOut(OutSchema):
    keywords: list[str]
    metaTitle: str
    metaDescription: str


class TranslationDraftOut(OutSchema):
    """(+) The draft translation a "translate" job made (docs/translations.md): a draft, never published."""

    postId: str
    language: str
    title: str
    slug: str
    status: str
    machineMade: bool


class JobBriefOut(OutSchema):
    id: str
    kind: JobKind
    status: JobStatus


class JobOut(JobBriefOut):
    """`data` and the success message once the job succeeded; the failure message once it failed."""

    data: BlogDraftOut | SeoDraftOut | TranslationDraftOut = omitted()
    message: str = omitted()


class JobReplyOut(SuccessOut):
    """GET ai/jobs/{id}"""

    job: JobOut


class BlogGeneratedOut(SuccessOut):
    """200 of POST ai/generate-blog: the job finished within AI_WAIT_SECONDS."""

    message: str
    data: BlogDraftOut
    job: JobBriefOut


class SeoGeneratedOut(SuccessOut):
    """200 of POST ai/generate-seo: the job finished within AI_WAIT_SECONDS."""

    message: str
    data: SeoDraftOut
    job: JobBriefOut


class TranslationGeneratedOut(SuccessOut):
    """(+) 200 of POST ai/translate-post: the draft translation was made within AI_WAIT_SECONDS."""

    message: str
    data: TranslationDraftOut
    job: JobBriefOut


class TranslateIn(InSchema):
    """(+) POST ai/translate-post: a draft translation of the post in another of the company's languages."""

    postId: str = ""
    language: str = ""


class JobStartedOut(SuccessOut):
    """202 of POST ai/generate-*: still running (or `?async=true`); poll GET ai/jobs/{id}."""

    message: str
    job: JobBriefOut


def job_brief(job: GenerationJob) -> dict:
    return {"id": str(job.pk), "kind": job.kind, "status": job.status}


def job_full(job: GenerationJob) -> dict:
    """`job {id, kind, status, data?, message?}`: data and a success message once it succeeded,
    the failure message once it failed."""
    out = job_brief(job)
    if job.status == GenerationJob.Status.SUCCEEDED:
        out["data"] = job.result
        out["message"] = SUCCESS_MESSAGES[job.kind]
    elif job.status == GenerationJob.Status.FAILED:
        out["message"] = job.error
    return out
