"""Jobs run by a real Celery worker (a subprocess on the test database and broker), with the
gemini provider talking to the fake Gemini server."""
from __future__ import annotations

import time

import pytest
from django_tenants.utils import schema_context

from apps.ai.models import GenerationJob
from apps.ai.tests.fake_gemini import BLOCK, json_reply

SEO = {
    "metaTitle": "Sourdough Bread at Home: A Practical Guide for Bakers",
    "metaDescription": "Bake sourdough bread at home: build a starter, mix and shape the dough, and bake a "
                       "loaf with an open crumb and a crisp crust, step by step.",
    "keywords": ["sourdough", "bread", "starter", "baking", "home baking"],
}
BLOG = {
    "title": "Sourdough Bread at Home",
    "content": "<h2>Start with a starter</h2><p>Feed it daily.</p><img src=x onerror=alert(1)>",
    "excerpt": "Bake sourdough at home.",
    "slug": "sourdough-bread-at-home",
    "metaTitle": "Sourdough Bread at Home: A Practical Guide for Bakers",
    "metaDescription": "Bake sourdough bread at home.",
    "focusKeyword": "sourdough bread",
    "tags": ["Sourdough", "Baking"],
    "categories": ["Food"],
}


def job_state(tenant, job_id) -> GenerationJob:
    with schema_context(tenant.schema_name):
        return GenerationJob.objects.get(pk=job_id)


def wait_for(predicate, timeout: float, what: str, worker=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    log = worker.log_path.read_text()[-3000:] if worker and worker.log_path.exists() else ""
    raise AssertionError(f"timed out waiting for {what}\n{log}")


@pytest.fixture
def worker_and_fake(gemini_env, celery_worker_process):
    return celery_worker_process, gemini_env


@pytest.mark.django_db(transaction=True)
def test_the_request_waits_for_a_real_worker_and_gets_the_draft(worker_and_fake, api, tenant, settings):
    worker, fake = worker_and_fake
    settings.AI_WAIT_SECONDS = 30
    fake.script(json_reply(BLOG))

    response = api.post("/api/ai/generate-blog", {"inputContent": "Sourdough bread at home", "tone": "friendly"})

    body = response.json()
    assert response.status_code == 200, (body, worker.log_path.read_text()[-3000:])
    assert body["message"] == "Blog content generated successfully!"
    assert body["data"]["title"] == "Sourdough Bread at Home"
    assert "onerror" not in body["data"]["content"]
    [call] = fake.requests
    assert call.path == "/v1beta/models/gemini-test:generateContent"
    job = job_state(tenant, body["job"]["id"])
    assert job.status == "succeeded" and job.provider == "gemini" and job.runs == 1


@pytest.mark.django_db(transaction=True)
def test_a_job_survives_a_worker_killed_mid_run_and_completes_once(worker_and_fake, api, tenant):
    worker, fake = worker_and_fake
    fake.script(BLOCK)  # the first call hangs until the worker is gone
    fake.default = json_reply(SEO)

    response = api.post("/api/ai/generate-seo?async=true", {"title": "Sourdough bread at home"})
    assert response.status_code == 202, response.json()
    job_id = response.json()["job"]["id"]

    wait_for(fake.received_blocking.is_set, 30, "the worker to call Gemini", worker)
    running = job_state(tenant, job_id)
    assert running.status == "running" and running.runs == 1

    worker.kill()  # SIGKILL mid-call: the message was never acknowledged
    fake.release.set()
    # Redis redelivers unacknowledged messages older than the visibility timeout when a worker starts.
    worker.env["CELERY_VISIBILITY_TIMEOUT"] = "1"
    time.sleep(1.2)
    worker.start()

    done = wait_for(lambda: (j := job_state(tenant, job_id)).is_finished and j, 60, "the job to finish", worker)
    assert done.status == "succeeded", done.error
    assert done.result == SEO
    assert done.runs == 2
    assert len(fake.requests) == 2  # the interrupted call and the one that completed

    # One more delivery of the same job (as a late redelivery would be) does nothing, and a job sent
    # after it proves the worker got that far.
    from apps.ai.tasks import run_generation_job

    with schema_context(tenant.schema_name):
        run_generation_job.delay(job_id)
    second = api.post("/api/ai/generate-seo?async=true", {"title": "Rye bread"}).json()["job"]["id"]
    wait_for(lambda: job_state(tenant, second).is_finished, 30, "the second job", worker)

    again = job_state(tenant, job_id)
    assert (again.status, again.runs, again.finished_at, again.result) == ("succeeded", 2, done.finished_at, SEO)
    assert len(fake.requests) == 3  # only the second job called Gemini
