"""Scheduled publishing: the service is idempotent, and the beat task run by a real Celery worker
publishes due posts of every company that is not suspended."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django_tenants.utils import schema_context, tenant_context

from apps.content.models import Post
from apps.content.services import publish_due_posts
from apps.content.tests.conftest import make_category, make_post
from apps.core.content_version import content_version_get


def scheduled_post(tenant, *, due_in: timedelta, **fields) -> Post:
    return make_post(tenant, status="draft", publish_scheduled=True,
                     scheduled_publish_date=timezone.now() + due_in, categories=[make_category(tenant)], **fields)


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
