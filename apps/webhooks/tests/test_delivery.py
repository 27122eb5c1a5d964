"""Deliveries through a real Celery worker to a real HTTP receiver that checks signatures."""
from __future__ import annotations

import time

import pytest
from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, make_tag, post_payload
from apps.core import testing
from apps.core.mailcatcher import links, parts
from apps.webhooks import services
from apps.webhooks.models import WebhookDelivery, WebhookEndpoint


def _endpoint(api, receiver, events=("post.published",)) -> dict:
    created = api.post("/api/webhooks", {"url": receiver.url, "events": list(events)}).json()["endpoint"]
    receiver.secret = created["secret"]
    return created


def _wait(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_publishing_a_post_sends_exactly_one_signed_delivery(make_tenant, receiver, celery_worker_process):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    endpoint = _endpoint(api, receiver, events=["post.published", "post.updated", "tag.created"])
    category, media = make_category(tenant), make_media(tenant)

    card = make_media(tenant)
    draft = api.post("/api/posts/upload", post_payload(category, media, postTitle="Launch day", ogImageId=str(media.id),
                                                       twitterImageId=str(card.id))).json()["post"]
    published = api.put(f"/api/posts/{draft['id']}", {"status": "published"})
    assert published.status_code == 200, published.content

    [got] = receiver.wait_for(1)
    time.sleep(1.0)  # nothing else arrives: the draft's creation is no event, the publish is one
    assert len(receiver.received) == 1
    assert got["valid"], "the signature does not verify with the documented recipe"
    body = got["json"]
    assert body["event"] == "post.published" and body["company"] == {"subdomain": tenant.subdomain}
    assert body["occurredAt"].endswith("Z") and got["headers"]["Webhook-Id"] == body["id"]
    post = body["data"]["post"]
    # the public content API's shape of the post
    public_key = api.get("/api/client/info").json()["data"]["apiInfo"]["authentication"]["apiKey"]
    public = testing.Api(tenant, headers={"x-api-key": public_key}).get(f"/api/v1/posts/slug/{post['slug']}")
    assert post == public.json()["data"]["post"]
    # every image carries its absolute address; spacesKey stays the storage key
    for name, image in (("featuredImage", media), ("ogImage", media), ("twitterImage", card)):
        assert post[name]["id"] == str(image.id) and post[name]["spacesKey"] == image.storage_key
        assert post[name]["link"].startswith("http") and post[name]["link"].endswith(image.storage_key)
        assert post[name]["cdnUrl"] == post[name]["link"]  # no CDN base in the tests

    assert _wait(lambda: api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()["deliveries"][0]["status"]
                 == "succeeded")
    [logged] = api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()["deliveries"]
    assert logged["responseStatus"] == 200 and logged["attempt"] == 1 and logged["responseExcerpt"] == "answered 200"
    assert logged["durationMs"] is not None

    # a tag created (subscribed) and a category created (not subscribed)
    api.post("/api/tags/add", {"name": "News", "slug": "news"})
    api.post("/api/categories/add", {"name": "Other", "slug": "other"})
    receiver.wait_for(2)
    time.sleep(0.5)
    assert [r["json"]["event"] for r in receiver.received] == ["post.published", "tag.created"]
    assert receiver.received[1]["json"]["data"]["tag"]["slug"] == "news"

    # Send test event, then Redeliver: signed, the redelivery with the same Webhook-Id
    test = api.post(f"/api/webhooks/{endpoint['id']}/test").json()["delivery"]
    receiver.wait_for(3)
    api.post(f"/api/webhooks/{endpoint['id']}/deliveries/{test['id']}/redeliver")
    received = receiver.wait_for(4)
    assert received[2]["json"]["event"] == received[3]["json"]["event"] == "webhook.test"
    assert received[2]["headers"]["Webhook-Id"] == received[3]["headers"]["Webhook-Id"]
    assert all(r["valid"] for r in received)


@pytest.mark.django_db(transaction=True)
def test_a_500_is_retried_and_delivered_once(make_tenant, receiver, celery_worker_process):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    endpoint = _endpoint(api, receiver, events=["category.updated"])
    receiver.statuses = [500, 503]
    category = make_category(tenant)
    assert api.put(f"/api/categories/{category.id}", {"name": "Renamed", "slug": category.slug}).status_code == 200

    received = receiver.wait_for(3)
    time.sleep(1.0)
    assert [r["status"] for r in receiver.received] == [500, 503, 200]
    assert len({r["headers"]["Webhook-Id"] for r in received}) == 1 and all(r["valid"] for r in received)
    assert received[0]["json"]["data"]["category"]["name"] == "Renamed"
    assert _wait(lambda: api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()["deliveries"][0]["status"]
                 == "succeeded")
    [logged] = api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()["deliveries"]
    assert logged["attempt"] == 3
    assert api.get(f"/api/webhooks/{endpoint['id']}").json()["endpoint"]["consecutiveFailures"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_4xx_is_not_retried(make_tenant, receiver, celery_worker_process):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    endpoint = _endpoint(api, receiver, events=["tag.created"])
    receiver.statuses = [404]
    api.post("/api/tags/add", {"name": "News", "slug": "news"})
    receiver.wait_for(1)
    assert _wait(lambda: api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()["deliveries"][0]["status"]
                 == "failed")
    time.sleep(1.0)
    assert len(receiver.received) == 1


@pytest.mark.django_db(transaction=True)
def test_an_endpoint_failing_again_and_again_is_disabled_and_admins_see_why(make_tenant, receiver, smtp,
                                                                          celery_worker_process):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    endpoint = _endpoint(api, receiver, events=["tag.created"])
    receiver.statuses = [500] * 20
    api.post("/api/tags/add", {"name": "News", "slug": "news"})

    def disabled():
        return not api.get(f"/api/webhooks/{endpoint['id']}").json()["endpoint"]["active"]

    assert _wait(disabled), "the endpoint was not turned off"
    shown = api.get(f"/api/webhooks/{endpoint['id']}").json()["endpoint"]
    assert "3 failed deliveries in a row" in shown["disabledReason"] and "HTTP 500" in shown["disabledReason"]
    # the company's admins are told by email too, with a link to the endpoint on the company's host
    [message] = smtp.wait_for(1)
    text, _html = parts(message)
    assert message["To"] == api.user.email and tenant.name in message["Subject"]
    assert receiver.url in text and "3 failed deliveries in a row" in text
    assert f"http://{testing.host_of(tenant)}/dashboard/settings/webhooks/{endpoint['id']}" in links(message)
    time.sleep(1.0)
    assert len(receiver.received) == 3  # WEBHOOK_DISABLE_AFTER_FAILURES (tests: 3), then no more tries
    assert api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()["deliveries"][0]["status"] == "failed"
    # new events skip a disabled endpoint; turning it on again clears the reason
    api.post("/api/tags/add", {"name": "More", "slug": "more"})
    again = api.put(f"/api/webhooks/{endpoint['id']}", {"active": True}).json()["endpoint"]
    assert again["active"] is True and again["disabledReason"] is None and again["consecutiveFailures"] == 0
    time.sleep(0.5)
    assert len(receiver.received) == 3


@pytest.mark.django_db(transaction=True)
def test_a_private_address_is_refused_at_send_time(make_tenant, receiver, settings):
    """Saved while private networks were allowed (or a name that later resolves to one): the
    send resolves, checks and refuses; nothing reaches the receiver."""
    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        endpoint = services.webhook_endpoint_create(url=receiver.url, events=["tag.created"])
        delivery = services.webhook_test_send(endpoint=endpoint)
        settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
        assert services.webhook_delivery_attempt(delivery_id=str(delivery.pk)) is None
        delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.FAILED and "private or local" in delivery.error
    assert receiver.received == []


@pytest.mark.django_db(transaction=True)
def test_nothing_is_sent_when_the_transaction_rolls_back(make_tenant, receiver):
    from django.db import transaction

    from apps.content import services as content

    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        services.webhook_endpoint_create(url=receiver.url, events=["tag.created"])
        with pytest.raises(RuntimeError), transaction.atomic():
            content.tag_create(name="Gone", slug="gone")
            raise RuntimeError
        assert WebhookDelivery.objects.count() == 0
        content.tag_create(name="Kept", slug="kept")
        assert WebhookDelivery.objects.get().payload["data"]["tag"]["slug"] == "kept"


@pytest.mark.django_db(transaction=True)
def test_old_delivery_logs_are_pruned_in_every_company(make_tenant):
    from datetime import timedelta

    from django.utils import timezone

    from apps.webhooks.tasks import prune_deliveries

    counts = []
    for tenant in (make_tenant(), make_tenant()):
        with schema_context(tenant.schema_name):
            endpoint = WebhookEndpoint.objects.create(url="https://example.com/h", events=["tag.created"], secret="s")
            old, new = (WebhookDelivery.objects.create(endpoint=endpoint, event="tag.created", payload={})
                        for _ in range(2))
            WebhookDelivery.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
            counts.append((tenant, new.pk))
    assert prune_deliveries() == 2
    for tenant, kept in counts:
        with schema_context(tenant.schema_name):
            assert list(WebhookDelivery.objects.values_list("pk", flat=True)) == [kept]
