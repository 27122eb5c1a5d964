"""AI writing endpoints (docs/ai.md): generate a blog draft or SEO metadata on the worker queue,
and read a job. By default a generate call waits up to AI_WAIT_SECONDS for its job."""
from __future__ import annotations

from django.conf import settings
from ninja import Query, Router

from apps.ai import selectors, services
from apps.ai.errors import GenerationFailed
from apps.ai.models import GenerationJob
from apps.ai.schemas import (
    STILL_RUNNING,
    SUCCESS_MESSAGES,
    AsyncQuery,
    BlogGeneratedOut,
    BlogGenerateIn,
    JobReplyOut,
    JobStartedOut,
    SeoGeneratedOut,
    SeoGenerateIn,
    TranslateIn,
    TranslationGeneratedOut,
    job_brief,
    job_full,
)
from apps.content import selectors as content_selectors
from apps.content.services import post_translation_check
from apps.core.permissions import requires
from apps.core.schemas import ErrorOut

router = Router(tags=["ai"])
CANNOT_GENERATE = "You don't have permission to use the AI generator"
STARTED = "Generation started"


def _reply(job: GenerationJob, *, wait: bool):
    if wait:
        job = selectors.generation_job_wait(job=job, timeout=settings.AI_WAIT_SECONDS)
    if job.status == GenerationJob.Status.SUCCEEDED:
        return 200, {"success": True, "message": SUCCESS_MESSAGES[job.kind], "data": job.result,
                     "job": job_brief(job)}
    if job.status == GenerationJob.Status.FAILED:
        raise GenerationFailed(job.error)
    return 202, {"success": True, "message": STILL_RUNNING if wait else STARTED, "job": job_brief(job)}


# 502: the job failed (the spec's message, e.g. "Gemini API error: 503").
@router.post("/generate-blog", response={200: BlogGeneratedOut, 202: JobStartedOut, 502: ErrorOut})
@requires("ai.generate", CANNOT_GENERATE)
def generate_blog(request, payload: BlogGenerateIn, query: Query[AsyncQuery]):
    job = services.generation_job_create(
        user=request.auth, plan=request.tenant.subscription_plan, kind=GenerationJob.Kind.BLOG,
        input={"inputContent": payload.inputContent, "contentType": payload.contentType},
        tone=payload.tone, audience=payload.targetAudience,
    )
    return _reply(job, wait=not query.async_)


@router.post("/generate-seo", response={200: SeoGeneratedOut, 202: JobStartedOut, 502: ErrorOut})
@requires("ai.generate", CANNOT_GENERATE)
def generate_seo(request, payload: SeoGenerateIn, query: Query[AsyncQuery]):
    job = services.generation_job_create(
        user=request.auth, plan=request.tenant.subscription_plan, kind=GenerationJob.Kind.SEO,
        input={"title": payload.title, "content": payload.content, "excerpt": payload.excerpt},
    )
    return _reply(job, wait=not query.async_)


@router.post("/translate-post", response={200: TranslationGeneratedOut, 202: JobStartedOut, 502: ErrorOut})
@requires("ai.generate", CANNOT_GENERATE)
def translate_post(request, payload: TranslateIn, query: Query[AsyncQuery]):
    """(+) "Translate with AI": a draft translation of the post in another of the company's languages,
    made on the worker queue (docs/translations.md). What "Add translation" would refuse is refused
    here before the job is queued (404, 403, 400, 409 `translation_exists`); never published."""
    source = content_selectors.post_get(payload.postId, kind=None)  # a post or a page (apps.content.kinds)
    language = post_translation_check(actor=request.auth, source=source, language=payload.language)
    job = services.generation_job_create(
        user=request.auth, plan=request.tenant.subscription_plan, kind=GenerationJob.Kind.TRANSLATE,
        input={"postId": str(source.pk), "language": language},
    )
    return _reply(job, wait=not query.async_)


@router.get("/jobs/{job_id}", response=JobReplyOut)
@requires("ai.generate", CANNOT_GENERATE)
def get_job(request, job_id: str):
    job = selectors.generation_job_get(job_id=job_id, user=request.auth)
    return JobReplyOut(job=job_full(job))


ROUTES = [("/ai", router)]
