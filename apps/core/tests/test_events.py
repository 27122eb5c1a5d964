"""What follows a write (apps/core/events.py): a batch scope turns a bulk operation's events into one
summary per subscriber: one audit entry, one `batch.completed` webhook, one content version bump
(one purge of the cache tier), while each post keeps its own revision. Real parts: PostgreSQL, a
Celery worker, a webhook receiver and an HTTP server standing in for the cache tier's nodes."""
from __future__ import annotations

import time

import pytest
from django.db import connection, transaction
from django_tenants.utils import schema_context

from apps.audit.models import AuditEntry
from apps.content import services as content
from apps.content.models import Post, PostRevision, Tag
from apps.content.tests.factories import make_category, make_media
from apps.core import events, testing
from apps.core.content_version import content_version_get
from apps.webhooks import services as webhooks
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.tests.conftest import _webhook_settings, receiver  # noqa: F401 - fixtures of the webhook tests
from apps.webhooks.tests.receiver import Receiver


class CacheNode(Receiver):
    """The webhook tests' HTTP receiver, answering the cache tier's `PURGE /` as a Varnish node does
    (200); `received` holds the `xkey-purge` header of each."""

    def __init__(self):
        super().__init__()
        node = self

        def do_PURGE(handler):  # noqa: N802
            with node._lock:
                node.received.append(handler.headers.get("xkey-purge", ""))
            handler.send_response(200)
            handler.end_headers()

        base = self.server.RequestHandlerClass
        self.server.RequestHandlerClass = type("PurgeHandler", (base,), {"do_PURGE": do_PURGE})
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.mark.timeout(900)  # 2,000 saves through the services: about a minute, several on a busy machine
@pytest.mark.django_db(transaction=True)
def test_two_thousand_posts_saved_in_one_batch_make_one_entry_one_delivery_and_one_purge(
        make_tenant, receiver, celery_worker_process, settings):  # noqa: F811
    tenant = make_tenant()
    admin = testing.tenant_admin(tenant)
    api = testing.Api(tenant, user=admin)
    endpoint = api.post("/api/webhooks", {"url": receiver.url, "events": ["post.published", "batch.completed"]})
    receiver.secret = endpoint.json()["endpoint"]["secret"]
    category, media = make_category(tenant), make_media(tenant)
    with CacheNode() as node:
        settings.EDGE_CACHE_URLS = [node.url]
        with schema_context(tenant.schema_name):
            version = content_version_get()
            with events.batch(summary="Import of 2,000 posts"):
                for n in range(2000):
                    content.post_create(author=admin, title=f"Imported {n}", content=f"<p>Post {n}</p>", excerpt="",
                                        category_ids=[str(category.pk)], featured_image_id=str(media.pk),
                                        status="published")
            assert content_version_get() == version + 1
            assert Post.objects.filter(status="published").count() == 2000
            assert PostRevision.objects.filter(action="create").count() == 2000  # each keeps its history
            [entry] = AuditEntry.objects.all()
        node.wait_for(1)
        [delivery] = receiver.wait_for(1)
        time.sleep(2.0)  # nothing else arrives
        assert node.received == [f"host-{testing.host_of(tenant)}"]  # the company's replies, once
    assert len(receiver.received) == 1 and delivery["valid"]
    body = delivery["json"]
    assert body["event"] == "batch.completed" and body["company"] == {"subdomain": tenant.subdomain}
    assert body["data"] == {"batch": {"summary": "Import of 2,000 posts", "counts": {"post.published": 2000},
                                      "total": 2000}}
    assert (entry.action, entry.actor_id, entry.object_type) == ("batch.completed", admin.pk, "")
    assert entry.summary == "Import of 2,000 posts (2000 post.created, 2000 post.published)"
    shown = api.get("/api/audit", {"action": "batch.completed"}).json()["entries"]
    assert [(e["actionLabel"], e["username"]) for e in shown] == [("Bulk change", admin.username)]


@pytest.mark.django_db(transaction=True)
def test_a_batch_leaves_out_what_a_rolled_back_savepoint_published(make_tenant, receiver):  # noqa: F811
    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        webhooks.webhook_endpoint_create(url=receiver.url, events=["tag.created", "batch.completed"])
        with events.batch(summary="Tags from a file"):
            content.tag_create(name="Kept", slug="kept")
            with pytest.raises(RuntimeError), transaction.atomic():
                content.tag_create(name="Refused", slug="refused")
                raise RuntimeError
            content.tag_create(name="Also kept", slug="also-kept")
        assert sorted(Tag.objects.values_list("slug", flat=True)) == ["also-kept", "kept"]
        assert [(e.action, e.summary) for e in AuditEntry.objects.all()] == [
            ("batch.completed", "Tags from a file (2 tag.created)")]
        [delivery] = WebhookDelivery.objects.all()
    assert delivery.event == "batch.completed"
    assert delivery.payload["data"]["batch"]["counts"] == {"tag.created": 2}


@pytest.mark.django_db(transaction=True)
def test_a_batch_that_fails_writes_and_sends_nothing(make_tenant, receiver):  # noqa: F811
    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        webhooks.webhook_endpoint_create(url=receiver.url, events=["tag.created", "batch.completed"])
        version = content_version_get()
        with pytest.raises(RuntimeError), events.batch(summary="Half an import"):
            content.tag_create(name="One", slug="one")
            raise RuntimeError
        assert not Tag.objects.exists() and not AuditEntry.objects.exists()
        assert not WebhookDelivery.objects.exists() and content_version_get() == version


@pytest.mark.django_db(transaction=True)
def test_a_batch_inside_a_batch_is_part_of_it_and_a_change_after_it_is_told_alone(make_tenant, receiver):  # noqa: F811
    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        webhooks.webhook_endpoint_create(url=receiver.url, events=["tag.created", "batch.completed"])
        with events.batch(summary="Outer"):
            content.tag_create(name="A", slug="a")
            with events.batch(summary="Inner"):
                content.tag_create(name="B", slug="b")
        content.tag_create(name="C", slug="c")
        assert [(e.action, e.summary) for e in AuditEntry.objects.order_by("created_at")] == [
            ("batch.completed", "Outer (2 tag.created)"), ("tag.created", "C")]
        assert [(d.event, d.payload["data"]) for d in WebhookDelivery.objects.order_by("created_at")] == [
            ("batch.completed", {"batch": {"summary": "Outer", "counts": {"tag.created": 2}, "total": 2}}),
            ("tag.created", {"tag": {"id": str(Tag.objects.get(slug="c").pk), "name": "C", "slug": "c",
                                     "postCount": 0}}),
        ]


@pytest.mark.django_db(transaction=True)
def test_a_batch_is_for_one_company(make_tenant):
    tenant, other = make_tenant(), make_tenant()
    with schema_context(tenant.schema_name):
        with pytest.raises(RuntimeError, match="one company"), events.batch(summary="Mixed"):
            content.tag_create(name="Here", slug="here")
            with schema_context(other.schema_name):
                content.tag_create(name="There", slug="there")
        connection.set_schema_to_public()
    for company in (tenant, other):
        with schema_context(company.schema_name):
            assert not Tag.objects.exists() and not AuditEntry.objects.exists()
