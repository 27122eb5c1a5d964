"""Scheduled publishing: the service is idempotent, and the beat task run by a real Celery worker
publishes due posts of every company that is not suspended."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tenants.utils import schema_context, tenant_context

from apps.content import scheduling
from apps.content.models import Post
from apps.content.services import publish_due_posts
from apps.content.tests.conftest import make_category, make_post, post_payload
from apps.core.content_version import content_version_get
from apps.core.models import CompanyDue


def scheduled_post(tenant, *, due_in: timedelta, **fields) -> Post:
    """A scheduled post written by the factory, put in the index of scheduled publishing as the
    services' writes put theirs (apps.content.scheduling)."""
    post = make_post(tenant, status="draft", publish_scheduled=True,
                     scheduled_publish_date=timezone.now() + due_in, categories=[make_category(tenant)], **fields)
    with schema_context(tenant.schema_name):
        scheduling.schedule_note(post.scheduled_publish_date)
    return post


def index_of(tenant):
    """The company's row of the index: its due time, None without a row."""
    row = CompanyDue.objects.filter(client_id=tenant.pk, kind=scheduling.KIND).values_list("due_at", flat=True)
    return row.first() if row else None


def reload(tenant, post) -> Post:
    with schema_context(tenant.schema_name):
        return Post.objects.get(pk=post.pk)


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


# --- the service ---------------------------------------------------------------------------------
def test_due_posts_are_published_once(tenant, django_capture_on_commit_callbacks):
    due = scheduled_post(tenant, due_in=-timedelta(minutes=1))
    later = scheduled_post(tenant, due_in=timedelta(hours=1))
    unscheduled_draft = make_post(tenant, scheduled_publish_date=timezone.now() - timedelta(days=1))
    with schema_context(tenant.schema_name):
        version = content_version_get()
        with django_capture_on_commit_callbacks(execute=True):
            assert publish_due_posts() == [due.pk]
        with django_capture_on_commit_callbacks(execute=True):
            assert publish_due_posts() == []
        assert content_version_get() == version + 1  # bumped by the run that published
    published = reload(tenant, due)
    assert published.status == "published" and not published.publish_scheduled and published.published_at
    assert reload(tenant, later).status == "draft" and reload(tenant, later).publish_scheduled
    assert reload(tenant, unscheduled_draft).status == "draft"


def test_first_published_at_is_kept_when_a_post_is_rescheduled(tenant):
    first = timezone.now() - timedelta(days=30)
    post = scheduled_post(tenant, due_in=-timedelta(seconds=1), published_at=first)
    with schema_context(tenant.schema_name):
        publish_due_posts()
    assert reload(tenant, post).published_at == first


def test_beat_entry_is_configured():
    entry = settings.CELERY_BEAT_SCHEDULE["content-publish-scheduled-posts"]
    assert entry["task"] == "content.publish_scheduled_posts"
    assert entry["schedule"] == float(settings.CONTENT_PUBLISH_INTERVAL) == 60.0


# --- with a real worker --------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_worker_publishes_due_posts_of_active_companies(make_tenant, celery_worker_process):
    from apps.content.tasks import publish_scheduled_posts, publish_tenant_scheduled_posts
    from tenants.models import Client

    active, suspended = make_tenant(), make_tenant()
    Client.objects.filter(pk=suspended.pk).update(status=Client.Status.SUSPENDED)
    due = scheduled_post(active, due_in=-timedelta(seconds=5))
    soon = scheduled_post(active, due_in=timedelta(seconds=3))
    far = scheduled_post(active, due_in=timedelta(days=3))
    frozen = scheduled_post(suspended, due_in=-timedelta(seconds=5))

    publish_scheduled_posts.delay()
    assert wait_for(lambda: reload(active, due).status == "published"), "the due post was not published"
    first_published_at = reload(active, due).published_at
    assert reload(active, soon).status == "draft" and reload(active, soon).publish_scheduled

    # When its date comes, the next beat run publishes the next post.
    time.sleep(max(0.0, (reload(active, soon).scheduled_publish_date - timezone.now()).total_seconds()) + 0.2)
    with tenant_context(active):
        publish_tenant_scheduled_posts.delay()  # a duplicate run for the tenant: harmless
    publish_scheduled_posts.delay()
    assert wait_for(lambda: reload(active, soon).status == "published"), "the post did not publish on its date"

    # Running again changed nothing already published; far-future and suspended posts wait.
    assert reload(active, due).published_at == first_published_at
    assert reload(active, far).status == "draft" and reload(active, far).publish_scheduled
    frozen_now = reload(suspended, frozen)
    assert frozen_now.status == "draft" and frozen_now.publish_scheduled and frozen_now.published_at is None


# --- the index of due companies -------------------------------------------------------------------
def test_scheduling_through_the_api_puts_the_earliest_date_in_the_index(tenant, api, category, media):
    later = timezone.now() + timedelta(days=2)
    sooner = timezone.now() + timedelta(hours=3)
    first = api.post("/api/posts", post_payload(category, media, postStatus="published",
                                                scheduledPublishDate=later.isoformat()))
    assert first.status_code == 201 and first.json()["post"]["isScheduled"], first.json()
    assert abs((index_of(tenant) - later).total_seconds()) < 1
    second = api.post("/api/posts", post_payload(category, media, postTitle="Sooner", postStatus="published",
                                                 scheduledPublishDate=sooner.isoformat()))
    assert second.status_code == 201, second.json()
    assert abs((index_of(tenant) - sooner).total_seconds()) < 1
    # moving a post later keeps the earlier time (a lower bound: the visit then settles it)
    moved = api.put(f"/api/posts/{second.json()['post']['id']}",
                    {"scheduledPublishDate": (later + timedelta(days=1)).isoformat()})
    assert moved.status_code == 200, moved.json()
    assert abs((index_of(tenant) - sooner).total_seconds()) < 1
    with schema_context(tenant.schema_name):
        assert scheduling.schedule_settle() is True
    assert abs((index_of(tenant) - later).total_seconds()) < 1  # settled on the next post's date


def test_the_beat_enters_only_the_companies_with_a_post_due(make_tenant, monkeypatch,
                                                            django_capture_on_commit_callbacks):
    from apps.content import tasks
    from apps.core import tenancy

    quiet, waiting, due = make_tenant(), make_tenant(), make_tenant()
    scheduled_post(waiting, due_in=timedelta(hours=1))
    post = scheduled_post(due, due_in=-timedelta(seconds=1))
    make_post(quiet, status="draft")
    sent = []
    monkeypatch.setattr(tenancy, "send_by_name", lambda name, *, args, **options: sent.append((name, args)))
    with CaptureQueriesContext(connection) as captured:
        assert tasks.publish_scheduled_posts() == 1
    assert sent == [(tenancy.CHUNK_TASK, ["content.publish_due", [due.schema_name]])]  # one task, the due company
    assert not [q for q in captured.captured_queries if "content_post" in q["sql"]]  # no schema entered
    with django_capture_on_commit_callbacks(execute=True):
        assert tenancy.chunk_run(*sent[0][1]) == {due.schema_name: 1}
    assert reload(due, post).status == "published"
    assert index_of(due) is None  # settled: nothing more is scheduled there
    assert index_of(waiting) is not None and index_of(quiet) is None


def test_a_post_whose_index_row_was_lost_is_published_by_the_sweep(make_tenant, django_capture_on_commit_callbacks):
    from apps.content import tasks

    company = make_tenant()
    lost = make_post(company, status="draft", publish_scheduled=True,  # written behind the services' back
                     scheduled_publish_date=timezone.now() - timedelta(minutes=1), categories=[make_category(company)])
    later = make_post(company, status="draft", publish_scheduled=True,
                      scheduled_publish_date=timezone.now() + timedelta(hours=5), categories=[make_category(company)])
    assert index_of(company) is None
    assert tasks.publish_scheduled_posts() == 0  # the index does not know it
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.publish_sweep() == 1
    assert reload(company, lost).status == "published"
    assert reload(company, later).status == "draft"
    assert abs((index_of(company) - later.scheduled_publish_date).total_seconds()) < 1  # repaired


def test_a_settle_never_hides_a_post_scheduled_meanwhile(tenant):
    """The visit read the row, then a post was scheduled before it settled: the row keeps the new
    post's time."""
    from apps.core import due

    scheduled_post(tenant, due_in=timedelta(hours=2))
    with schema_context(tenant.schema_name):
        read = due.due_read(company_id=tenant.pk, kind=scheduling.KIND)
        next_at = scheduling.next_scheduled()
    soon = scheduled_post(tenant, due_in=timedelta(minutes=5))  # written between the read and the settle
    assert due.due_settle(company_id=tenant.pk, kind=scheduling.KIND, read=read, next_at=next_at) is False
    assert index_of(tenant) == soon.scheduled_publish_date


@pytest.fixture
def worker_in_chunks_of_one(monkeypatch, settings, transactional_db):
    """A real worker, and this process, with periodic passes in chunks of one company."""
    from conftest import WorkerProcess

    monkeypatch.setenv("COMPANIES_CHUNK_SIZE", "1")
    settings.COMPANIES_CHUNK_SIZE = 1
    handle = WorkerProcess(connection.settings_dict["NAME"])
    handle.start()
    yield handle
    handle.stop()


@pytest.mark.django_db(transaction=True)
def test_the_sweep_reaches_every_company_through_chunk_tasks(make_tenant, worker_in_chunks_of_one):
    from apps.content import tasks

    companies = [make_tenant() for _ in range(3)]
    lost = [make_post(company, status="draft", publish_scheduled=True, categories=[make_category(company)],
                      scheduled_publish_date=timezone.now() - timedelta(minutes=1)) for company in companies]
    # this process runs the first chunk (one company); the worker runs one task per other company
    assert tasks.publish_sweep() == 1
    assert wait_for(lambda: all(reload(c, p).status == "published" for c, p in zip(companies, lost))), \
        worker_in_chunks_of_one.log_path.read_text()[-3000:]
    assert all(index_of(company) is None for company in companies)
