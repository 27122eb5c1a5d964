"""Running jobs: idempotent, once at a time, re-run once after a crash; stale jobs are failed."""
from __future__ import annotations

import time
from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.ai import services, tasks
from apps.ai.models import GenerationJob
from apps.ai.providers.offline import OfflineProvider
from apps.core import testing

pytestmark = pytest.mark.django_db


class CountingProvider(OfflineProvider):
    name = "counting"

    def __init__(self):
        self.calls = 0

    def generate_blog(self, request):
        self.calls += 1
        return super().generate_blog(request)

    def generate_seo(self, request):
        self.calls += 1
        return super().generate_seo(request)


@pytest.fixture
def provider(monkeypatch):
    counting = CountingProvider()
    monkeypatch.setattr(services, "get_provider", lambda: counting)
    return counting


def make_job(tenant, admin, **fields) -> GenerationJob:
    with schema_context(tenant.schema_name):
        return GenerationJob.objects.create(
            kind=fields.pop("kind", "blog"), input=fields.pop("input", {"inputContent": "Sourdough bread at home"}),
            tone="friendly", audience="beginners", created_by=admin, **fields,
        )


def run(tenant, job) -> tuple[str, GenerationJob]:
    with schema_context(tenant.schema_name):
        outcome = services.generation_job_run(job_id=str(job.pk))
        return outcome, GenerationJob.objects.get(pk=job.pk)


def test_a_job_runs_once_and_records_its_result(tenant, admin, provider):
    job = make_job(tenant, admin)

    outcome, job = run(tenant, job)

    assert outcome == "succeeded"
    assert job.status == "succeeded" and job.runs == 1 and job.provider == "counting"
    assert job.result["title"] == "A Friendly Guide to Sourdough Bread at Home"
    assert job.started_at <= job.finished_at
    finished_at = job.finished_at

    outcome, job = run(tenant, job)  # a second delivery of the same message

    assert outcome == "already-finished"
    assert provider.calls == 1
    assert job.finished_at == finished_at


def test_a_job_interrupted_mid_run_is_run_again_once(tenant, admin, provider, settings):
    settings.AI_MAX_RUNS = 2
    job = make_job(tenant, admin, status="running", runs=1, started_at=timezone.now())

    outcome, job = run(tenant, job)

    assert outcome == "succeeded" and job.runs == 2 and provider.calls == 1


def test_a_job_interrupted_too_often_fails_without_calling_the_provider(tenant, admin, provider, settings):
    settings.AI_MAX_RUNS = 2
    job = make_job(tenant, admin, kind="seo", input={"title": "Coffee"}, status="running", runs=2)

    outcome, job = run(tenant, job)

    assert outcome == "failed"
    assert job.error == "Failed to generate SEO content. Please try again."
    assert provider.calls == 0


def test_a_job_held_by_another_worker_is_left_alone(tenant, admin, provider):
    job = make_job(tenant, admin)
    db = connection.settings_dict
    other = psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"] or "postgres",
                            password=db["PASSWORD"] or None, dbname=db["NAME"], autocommit=True)
    try:
        other.execute("SELECT pg_advisory_lock(%s)", [services._lock_key(f"ai-job:{job.pk}")])

        outcome, job = run(tenant, job)

        assert outcome == "busy"
        assert job.status == "queued" and job.runs == 0 and provider.calls == 0
    finally:
        other.close()  # the lock goes with the connection, as it does when a worker dies

    deadline = time.monotonic() + 5
    outcome, job = run(tenant, job)
    while outcome == "busy" and time.monotonic() < deadline:  # the server notices the closed session
        time.sleep(0.05)
        outcome, job = run(tenant, job)
    assert outcome == "succeeded"


def test_a_deleted_job_is_ignored(tenant, admin, provider):
    job = make_job(tenant, admin)
    with schema_context(tenant.schema_name):
        GenerationJob.objects.filter(pk=job.pk).delete()
        assert services.generation_job_run(job_id=str(job.pk)) == "missing"


def test_an_unexpected_provider_crash_fails_the_job_with_the_kind_message(tenant, admin, monkeypatch):
    class Crashing:
        name = "crashing"

        def generate_blog(self, request):
            raise RuntimeError("boom")

    monkeypatch.setattr(services, "get_provider", lambda: Crashing())
    outcome, job = run(tenant, make_job(tenant, admin))
    assert outcome == "failed" and job.error == "Failed to generate blog content"


def create(tenant, admin) -> GenerationJob:
    with schema_context(tenant.schema_name):
        return services.generation_job_create(user=admin, kind="blog", input={"inputContent": "Sourdough bread"},
                                              plan="trial")


def stored(tenant, job) -> GenerationJob:
    with schema_context(tenant.schema_name):
        return GenerationJob.objects.get(pk=job.pk)


@pytest.mark.django_db(transaction=True)  # the enqueue runs on commit
def test_an_enqueue_failing_for_another_reason_fails_the_job_and_is_raised(tenant, admin, monkeypatch):
    def broken(job):
        raise TypeError("not serialisable")

    monkeypatch.setattr(services, "_publish", broken)
    with pytest.raises(TypeError):  # a bug, not an outage: 500, not 503
        create(tenant, admin)
    with schema_context(tenant.schema_name):
        [job] = GenerationJob.objects.all()
    assert (job.status, job.error) == ("failed", "Failed to generate blog content")


@pytest.mark.django_db(transaction=True)
def test_a_job_a_worker_took_despite_a_publish_error_is_left_to_it(tenant, admin, monkeypatch):
    """The publish timed out after the message reached the queue and a worker started the job:
    the job is not failed under the worker and the call is not an outage."""
    import kombu.exceptions

    def reached_the_queue_then_timed_out(job):
        GenerationJob.objects.filter(pk=job.pk).update(status="running", runs=1)
        raise kombu.exceptions.OperationalError("Timeout reading from socket")

    monkeypatch.setattr(services, "_publish", reached_the_queue_then_timed_out)
    job = create(tenant, admin)
    assert job.status == "running"
    assert stored(tenant, job).status == "running"


def test_stale_jobs_of_every_tenant_are_failed(tenant, other_tenant, admin, settings):
    settings.AI_JOB_STALE_SECONDS = 600
    old = timezone.now() - timedelta(seconds=700)
    stale_blog = make_job(tenant, admin)
    stale_seo = make_job(tenant, admin, kind="seo", input={"title": "x"}, status="running")
    fresh = make_job(tenant, admin)
    done = make_job(tenant, admin, status="succeeded")
    with schema_context(tenant.schema_name):
        GenerationJob.objects.exclude(pk=fresh.pk).update(created_at=old)
    other_admin = testing.tenant_admin(other_tenant)
    other_stale = make_job(other_tenant, other_admin)
    with schema_context(other_tenant.schema_name):
        GenerationJob.objects.update(created_at=old)

    assert tasks.fail_stale_jobs() == 3

    with schema_context(tenant.schema_name):
        status = dict(GenerationJob.objects.values_list("pk", "status"))
        errors = dict(GenerationJob.objects.values_list("pk", "error"))
    assert status[stale_blog.pk] == status[stale_seo.pk] == "failed"
    assert errors[stale_blog.pk] == "Failed to generate blog content"
    assert errors[stale_seo.pk] == "Failed to generate SEO content. Please try again."
    assert status[fresh.pk] == "queued" and status[done.pk] == "succeeded"
    with schema_context(other_tenant.schema_name):
        assert GenerationJob.objects.get(pk=other_stale.pk).status == "failed"
