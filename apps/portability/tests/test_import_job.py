"""The import as a background job on a real Celery worker, with a real webhook receiver: the sample
WordPress export with its images served locally comes in as one transaction, with one
`import.completed` webhook, one audit entry and one content version bump; the progress is read
while it runs. A job whose worker died is sent again by the outbox and finishes, nothing twice."""
from __future__ import annotations

import time

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.audit.models import AuditEntry
from apps.content.models import Post
from apps.core import testing
from apps.core.content_version import content_version_get
from apps.core.models import OutboxMessage
from apps.media.models import Media
from apps.core.outbox import outbox_relay
from apps.portability.models import ImportJob
from apps.portability.tests.imageserver import ImageServer
from apps.portability.tests.test_import_media import WP_IMAGE_HOST
from apps.portability.tests.test_import_samples import GHOST, WXR, upload_bytes
from apps.webhooks.tests.conftest import _webhook_settings, receiver  # noqa: F401 - fixtures of the webhook tests


def _wait(api, job_id: str, timeout: float = 240.0) -> tuple[dict, list]:
    seen, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = api.get(f"/api/imports/{job_id}").json()["job"]
        seen.append((job["phase"], job["done"], job["total"]))
        if job["status"] in ("completed", "failed"):
            return job, seen
        time.sleep(0.2)
    raise AssertionError(f"import not finished: {seen[-3:]}")


@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
def test_import_job_on_a_worker_sends_one_webhook_and_one_audit_entry(
        make_tenant, receiver, celery_worker_process, monkeypatch, settings):  # noqa: F811
    tenant = make_tenant()
    admin = testing.tenant_admin(tenant)
    api = testing.Api(tenant, user=admin)
    endpoint = api.post("/api/webhooks", {"url": receiver.url, "events": ["post.published", "import.completed"]})
    receiver.secret = endpoint.json()["endpoint"]["secret"]
    with ImageServer() as images:
        celery_worker_process.stop()
        monkeypatch.setenv("IMPORT_FETCH_ALLOWED_HOSTS", images.host)
        celery_worker_process.start()
        with schema_context(tenant.schema_name):
            version = content_version_get()
        data = WXR.read_bytes().replace(WP_IMAGE_HOST, images.url.encode())
        job = upload_bytes(api, data, "theme-test.xml").json()["job"]
        assert api.post(f"/api/imports/{job['id']}/start", {}).status_code == 202
        job, seen = _wait(api, job["id"])
    assert job["status"] == "completed", job["error"]
    assert job["report"]["counts"]["post"] == {"created": 58} and job["report"]["counts"]["image"]["created"] >= 30
    assert any(phase in ("authors", "terms", "posts", "images") for phase, _, _ in seen)  # progress was shown
    [delivery] = receiver.wait_for(1)
    time.sleep(1.5)  # nothing else arrives
    assert len(receiver.received) == 1 and delivery["valid"]
    body = delivery["json"]
    assert body["event"] == "import.completed"
    assert body["data"]["import"]["summary"] == "Import of theme-test.xml"
    # The sample's 76 published items: 55 posts and 21 pages (a kind of their own, page.* events);
    # its password-protected post comes as a published members-only post (test_visibility)
    assert body["data"]["import"]["counts"]["post.published"] == 56
    assert body["data"]["import"]["counts"]["page.published"] == 21
    with schema_context(tenant.schema_name):
        # The import's transaction bumps the version once; the images' renditions are made by the
        # import itself, so nothing bumps it again (apps/portability/tests/test_import_cache_cost.py).
        assert not Media.objects.filter(renditions={}).exists()
        assert content_version_get() == version + 1
        [entry] = AuditEntry.objects.filter(action="batch.completed")
        assert entry.actor_id == admin.pk and "post.created" in entry.summary
        assert ImportJob.objects.get(pk=job["id"]).active is None  # the company may import again


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_died_is_sent_again_and_finishes(make_tenant, celery_worker_process, settings):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    celery_worker_process.stop()  # the worker is gone when the job is sent
    job = upload_bytes(api, GHOST.read_bytes(), "ghost.json").json()["job"]["id"]
    assert api.post(f"/api/imports/{job}/start", {}).status_code == 202
    with schema_context(tenant.schema_name):
        # A worker took it, marked it running and died: its transaction left nothing else.
        ImportJob.objects.filter(pk=job).update(status="running", started_at=timezone.now())
    # Its lease ends: the outbox sends the task again (the relay's sweep).
    OutboxMessage.objects.filter(key__startswith="import:").update(due_at=timezone.now())
    celery_worker_process.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        outbox_relay()
        body = api.get(f"/api/imports/{job}").json()["job"]
        if body["status"] == "completed":
            break
        time.sleep(0.5)
    assert body["status"] == "completed", body
    with schema_context(tenant.schema_name):
        assert Post.objects.count() == 2
