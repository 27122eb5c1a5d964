"""The AI endpoints: validation messages, permissions, replies, limits, tenancy."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.ai import services
from apps.ai.models import GenerationJob
from apps.ai.providers import GenerationError
from apps.core import testing

BLOG = "/api/ai/generate-blog"
SEO = "/api/ai/generate-seo"
BRIEF = {"inputContent": "Remote work productivity tips for small teams", "tone": "casual",
         "targetAudience": "business", "contentType": "blog"}


def jobs_of(tenant) -> list[GenerationJob]:
    with schema_context(tenant.schema_name):
        return list(GenerationJob.objects.order_by("created_at"))


def run_job(tenant, job_id) -> None:
    with schema_context(tenant.schema_name):
        services.generation_job_run(job_id=job_id)


def assert_error(response, status: int, message: str, code: str | None = None):
    body = response.json()
    assert response.status_code == status, body
    assert body["success"] is False
    assert body["message"] == message
    if code:
        assert body["error"] == code
    return body


# --- validation ------------------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("value", ["", "   short   ", "         ", None, 12345, ["list of words"]])
def test_blog_needs_ten_characters_of_input(api, tenant, value):
    payload = {**BRIEF, "inputContent": value}
    if value is None:
        payload.pop("inputContent")
    body = assert_error(api.post(BLOG, payload), 400, "Please enter at least 10 characters of input content",
                        "validation_error")
    assert body["errors"][0]["field"] == "inputContent"
    assert jobs_of(tenant) == []


@pytest.mark.django_db
@pytest.mark.parametrize("field,value,message", [
    ("tone", "angry", "Tone must be one of professional, casual, friendly, authoritative, conversational"),
    ("targetAudience", "aliens", "Target audience must be one of general, beginners, experts, business, technical"),
    ("contentType", "video", "Content type must be one of blog"),
])
def test_blog_options_are_checked(api, tenant, field, value, message):
    assert_error(api.post(BLOG, {**BRIEF, field: value}), 400, message, "validation_error")
    assert jobs_of(tenant) == []


@pytest.mark.django_db
def test_blog_input_is_capped(api, tenant, settings):
    settings.AI_MAX_INPUT_CHARS = 50
    assert_error(api.post(BLOG, {**BRIEF, "inputContent": "x" * 51}), 400,
                 "Input content must be at most 50 characters")


@pytest.mark.django_db
@pytest.mark.parametrize("payload", [
    {}, {"title": "", "content": "", "excerpt": ""}, {"title": "   ", "content": "<p> </p><br>", "excerpt": None},
])
def test_seo_needs_a_title_content_or_excerpt(api, tenant, payload):
    assert_error(api.post(SEO, payload), 400,
                 "Please add a title, content, or excerpt before generating SEO metadata.", "validation_error")
    assert jobs_of(tenant) == []


@pytest.mark.django_db
def test_seo_content_is_reduced_to_text_and_cut_to_1000_characters(api, tenant, offline_ai):
    content = "<h2>Intro</h2><p>" + "word " * 400 + "</p><script>steal()</script>"
    response = api.post(f"{SEO}?async=true", {"content": content})
    assert response.status_code == 202, response.json()

    [job] = jobs_of(tenant)
    assert job.kind == "seo"
    assert "<" not in job.input["content"] and "steal" not in job.input["content"]
    assert job.input["content"].startswith("Intro word word")
    assert len(job.input["content"]) <= 1000


# --- permissions -----------------------------------------------------------------------------
@pytest.mark.django_db
def test_viewer_cannot_generate(role_api, tenant, offline_ai):
    viewer = role_api("viewer")
    assert_error(viewer.post(BLOG, BRIEF), 403, "You don't have permission to use the AI generator", "forbidden")
    assert_error(viewer.post(SEO, {"title": "A title"}), 403, "You don't have permission to use the AI generator")
    assert jobs_of(tenant) == []


@pytest.mark.django_db
def test_author_can_generate(role_api, offline_ai):
    response = role_api("author").post(f"{BLOG}?async=true", BRIEF)
    assert response.status_code == 202, response.json()


@pytest.mark.django_db
def test_generation_needs_a_token(anon):
    assert anon.post(BLOG, BRIEF).status_code == 401
    assert anon.get("/api/ai/jobs/00000000-0000-0000-0000-000000000000").status_code == 401


# --- async mode and the job endpoint ------------------------------------------------------------
@pytest.mark.django_db
def test_async_blog_replies_202_then_the_job_reports_the_draft(api, tenant, offline_ai):
    response = api.post(f"{BLOG}?async=true", BRIEF)

    assert response.status_code == 202, response.json()
    job = response.json()["job"]
    assert response.json()["success"] is True
    assert job["kind"] == "blog" and job["status"] == "queued"
    [stored] = jobs_of(tenant)
    assert str(stored.id) == job["id"]
    assert stored.tone == "casual" and stored.audience == "business"
    assert stored.created_by_id == api.user.id

    queued = api.get(f"/api/ai/jobs/{job['id']}").json()
    assert queued == {"success": True, "job": {"id": job["id"], "kind": "blog", "status": "queued"}}

    run_job(tenant, job["id"])

    with CaptureQueriesContext(connection) as queries:
        done = api.get(f"/api/ai/jobs/{job['id']}").json()["job"]
    selects = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith("SET search_path")]
    assert len(selects) == 3  # domain -> tenant, the user, the job
    assert done["status"] == "succeeded"
    assert done["message"] == "Blog content generated successfully!"
    assert set(done["data"]) == {"title", "content", "excerpt", "slug", "metaTitle", "metaDescription",
                                 "canonicalUrl", "focusKeyword", "tags", "categories"}
    assert "Remote Work Productivity Tips for Small Teams" in done["data"]["title"]


@pytest.mark.django_db
def test_defaults_apply_when_tone_and_audience_are_missing(api, tenant, offline_ai):
    response = api.post(f"{BLOG}?async=true", {"inputContent": "Sourdough bread for beginners"})
    assert response.status_code == 202
    [job] = jobs_of(tenant)
    assert (job.tone, job.audience) == ("professional", "general")
    assert job.input == {"inputContent": "Sourdough bread for beginners", "contentType": "blog"}


@pytest.mark.django_db
def test_a_failed_job_reports_its_message(api, tenant, offline_ai, monkeypatch):
    job_id = api.post(f"{SEO}?async=true", {"title": "Coffee"}).json()["job"]["id"]

    class Down:
        name = "broken"

        def generate_seo(self, request):
            raise GenerationError("Gemini API error: 503")

    monkeypatch.setattr(services, "get_provider", lambda: Down())
    run_job(tenant, job_id)

    job = api.get(f"/api/ai/jobs/{job_id}").json()["job"]
    assert job == {"id": job_id, "kind": "seo", "status": "failed", "message": "Gemini API error: 503"}


# --- tenancy ---------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_jobs_of_another_tenant_are_not_found(api, tenant, other_tenant, offline_ai):
    job_id = api.post(f"{BLOG}?async=true", BRIEF).json()["job"]["id"]
    other = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))

    assert_error(other.get(f"/api/ai/jobs/{job_id}"), 404, "Generation job not found", "not_found")
    # tenant A's token on tenant B's host is not accepted at all
    assert testing.Api(other_tenant, token=api.headers["Authorization"].split()[1]).get(
        f"/api/ai/jobs/{job_id}").status_code == 401
    assert jobs_of(other_tenant) == []


@pytest.mark.django_db
def test_jobs_of_another_user_are_not_found(api, tenant, make_user, offline_ai):
    job_id = api.post(f"{BLOG}?async=true", BRIEF).json()["job"]["id"]
    colleague = testing.Api(tenant, user=make_user(tenant, "editor"))
    assert colleague.get(f"/api/ai/jobs/{job_id}").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("job_id", ["not-a-uuid", "00000000-0000-0000-0000-000000000000"])
def test_unknown_job_is_not_found(api, job_id):
    assert_error(api.get(f"/api/ai/jobs/{job_id}"), 404, "Generation job not found")


# --- limits ------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_daily_quota_per_plan(api, tenant, other_tenant, settings):
    settings.AI_DAILY_QUOTA = {"trial": 2, "business": 5}
    settings.AI_MAX_RUNNING_PER_TENANT = 100
    for _ in range(2):
        assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202

    response = api.post(f"{BLOG}?async=true", BRIEF)

    body = assert_error(response, 429, "Daily AI generation limit reached (2 per day on the trial plan). "
                                       "Please try again tomorrow.", "rate_limited")
    assert body
    assert 0 < int(response["Retry-After"]) <= 24 * 3600
    assert len(jobs_of(tenant)) == 2
    # the other company has its own quota
    other = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other.post(f"{SEO}?async=true", {"title": "Tea"}).status_code == 202


@pytest.mark.django_db
def test_failed_and_yesterdays_jobs_do_not_count(api, tenant, settings):
    settings.AI_DAILY_QUOTA = {"trial": 1}
    settings.AI_MAX_RUNNING_PER_TENANT = 100
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 429

    with schema_context(tenant.schema_name):
        GenerationJob.objects.update(status="failed")
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202

    with schema_context(tenant.schema_name):
        GenerationJob.objects.update(status="succeeded", created_at=timezone.now() - timedelta(days=1))
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202


@pytest.mark.django_db
def test_plan_quota_and_default(make_tenant, settings):
    settings.AI_DAILY_QUOTA = {"business": 2}
    settings.AI_DAILY_QUOTA_DEFAULT = 1
    settings.AI_MAX_RUNNING_PER_TENANT = 100
    business = make_tenant(plan="business")
    client = testing.Api(business, user=testing.tenant_admin(business))
    assert [client.post(f"{SEO}?async=true", {"title": "x"}).status_code for _ in range(3)] == [202, 202, 429]
    unknown = make_tenant(plan="starter")
    client = testing.Api(unknown, user=testing.tenant_admin(unknown))
    assert [client.post(f"{SEO}?async=true", {"title": "x"}).status_code for _ in range(2)] == [202, 429]


@pytest.mark.django_db
def test_at_most_n_unfinished_jobs_per_tenant(api, tenant, settings):
    settings.AI_DAILY_QUOTA = {"trial": 100}
    settings.AI_MAX_RUNNING_PER_TENANT = 2
    for _ in range(2):
        assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202

    response = api.post(f"{SEO}?async=true", {"title": "Coffee"})

    assert_error(response, 429, "Too many AI generations in progress (at most 2 at a time). "
                                "Please wait for one to finish and try again.", "rate_limited")
    assert response["Retry-After"] == "5"
    with schema_context(tenant.schema_name):
        GenerationJob.objects.filter(pk=GenerationJob.objects.first().pk).update(status="succeeded")
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202


@pytest.mark.django_db
def test_stale_unfinished_jobs_do_not_block_the_tenant(api, tenant, settings):
    settings.AI_DAILY_QUOTA = {"trial": 100}
    settings.AI_MAX_RUNNING_PER_TENANT = 1
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202
    with schema_context(tenant.schema_name):
        GenerationJob.objects.update(created_at=timezone.now() - timedelta(seconds=settings.AI_JOB_STALE_SECONDS + 5))
    assert api.post(f"{SEO}?async=true", {"title": "Coffee"}).status_code == 202


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_cannot_exceed_the_running_cap(tenant, admin, settings):
    settings.AI_DAILY_QUOTA = {"trial": 100}
    settings.AI_MAX_RUNNING_PER_TENANT = 3

    def attempt(_):
        try:
            return testing.Api(tenant, user=admin).post(f"{SEO}?async=true", {"title": "Coffee"}).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(attempt, range(8)))

    assert statuses == [202] * 3 + [429] * 5
    assert len(jobs_of(tenant)) == 3


# --- waiting for the job (the default) ---------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_blog_waits_and_replies_with_the_draft(api, tenant, offline_ai, eager_celery):
    response = api.post(BLOG, BRIEF)

    body = response.json()
    assert response.status_code == 200, body
    assert body["success"] is True
    assert body["message"] == "Blog content generated successfully!"
    data = body["data"]
    assert data["title"] == "Let's Talk About Remote Work Productivity Tips for Small Teams"
    assert 50 <= len(data["metaTitle"]) <= 60 and 150 <= len(data["metaDescription"]) <= 160
    assert data["content"].startswith("<h2>Introduction</h2>")
    assert body["job"]["status"] == "succeeded"


@pytest.mark.django_db(transaction=True)
def test_seo_waits_and_replies_with_the_metadata(api, offline_ai, eager_celery):
    response = api.post(SEO, {"title": "Sourdough bread baking", "content": "<p>Starter, flour and water.</p>"})

    body = response.json()
    assert response.status_code == 200, body
    assert body["message"] == "SEO metadata generated successfully!"
    assert set(body["data"]) == {"metaTitle", "metaDescription", "keywords"}
    assert 5 <= len(body["data"]["keywords"]) <= 10


@pytest.mark.django_db(transaction=True)
def test_a_failure_while_waiting_is_an_error_with_the_spec_message(api, tenant, offline_ai, eager_celery,
                                                                   monkeypatch):
    class Broken:
        name = "broken"

        def generate_seo(self, request):
            raise GenerationError("Failed to parse AI response")

    monkeypatch.setattr(services, "get_provider", lambda: Broken())

    assert_error(api.post(SEO, {"title": "Coffee"}), 502, "Failed to parse AI response", "generation_failed")
    [job] = jobs_of(tenant)
    assert job.status == "failed" and job.error == "Failed to parse AI response"


@pytest.mark.django_db(transaction=True)
def test_when_the_wait_times_out_the_job_is_handed_back(api, tenant, offline_ai, settings):
    settings.AI_WAIT_SECONDS = 0.3  # no worker runs in this test

    response = api.post(BLOG, BRIEF)

    body = response.json()
    assert response.status_code == 202, body
    assert body["success"] is True
    assert body["message"] == "Generation is still running. Check the job for the result."
    assert body["job"]["status"] == "queued"
    assert api.get(f"/api/ai/jobs/{body['job']['id']}").json()["job"]["status"] == "queued"


# --- the broker down ------------------------------------------------------------------------------
UNAVAILABLE = {"success": False, "message": "AI generation is temporarily unavailable. Please try again shortly",
               "error": "unavailable"}
GENERATE_CALLS = [(BLOG, BRIEF, "blog"), (f"{BLOG}?async=true", BRIEF, "blog"),
                  (SEO, {"title": "Coffee"}, "seo"), (f"{SEO}?async=true", {"title": "Coffee"}, "seo")]


def assert_unavailable_and_failed(api, tenant, path, payload, kind, *, within: float):
    api.http.raise_request_exception = False  # answer as a server does
    started = time.monotonic()
    response = api.post(path, payload)
    elapsed = time.monotonic() - started

    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert response["Retry-After"] == "5"
    assert elapsed < within, f"answered after {elapsed:.1f}s"
    [job] = jobs_of(tenant)
    assert (job.kind, job.status) == (kind, "failed")  # not left queued for the sweep
    assert job.error == UNAVAILABLE["message"] and job.finished_at is not None
    polled = api.get(f"/api/ai/jobs/{job.id}").json()["job"]
    assert (polled["status"], polled["message"]) == ("failed", UNAVAILABLE["message"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path,payload,kind", GENERATE_CALLS)
def test_broker_down_answers_503_and_fails_the_job(api, tenant, offline_ai, broker_down, path, payload, kind):
    """Seen once as a 500 in a fault run (Redis stopped). With the broker at a closed port
    (connection refused, nothing mocked) the call answered 502 "Failed to generate blog content"
    (waiting) or 202 with status "queued" for a job already failed (?async=true)."""
    assert_unavailable_and_failed(api, tenant, path, payload, kind, within=3)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path,payload,kind", [GENERATE_CALLS[0], GENERATE_CALLS[3]])
def test_a_broker_that_never_answers_is_given_up_within_seconds(api, tenant, offline_ai, broker_silent,
                                                               path, payload, kind):
    """A broker that takes the connection and never replies: the publish (and its retries) is
    bounded by socket timeouts instead of holding the request forever."""
    assert_unavailable_and_failed(api, tenant, path, payload, kind, within=5)  # 2 s measured


@pytest.mark.django_db(transaction=True)
def test_failed_enqueues_do_not_count_against_the_limits(api, tenant, offline_ai, broker_down, settings):
    settings.AI_DAILY_QUOTA = {"trial": 2}
    settings.AI_MAX_RUNNING_PER_TENANT = 1
    for _ in range(3):
        assert api.post(BLOG, BRIEF).status_code == 503
    assert [job.status for job in jobs_of(tenant)] == ["failed"] * 3
