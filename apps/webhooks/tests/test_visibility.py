"""A post's `visibility` in webhook bodies (docs/content.md#members-only-posts): each post or page
event carries it; a members-only post's body is sent whole, as every other field (a webhook goes
to an endpoint the company's admins registered, never to a reader)."""
from __future__ import annotations

from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.webhooks.models import WebhookDelivery

BODY = "<p>For the club</p>"


def _payloads(tenant) -> list[tuple[str, dict]]:
    with schema_context(tenant.schema_name):
        return [(d.event, d.payload) for d in WebhookDelivery.objects.order_by("created_at", "event")]


def test_post_and_page_events_carry_the_visibility(api, tenant):
    hook = {"url": "http://127.0.0.1:9/hook", "events": ["post.published", "post.updated", "page.published"]}
    assert api.post("/api/webhooks", hook).status_code == 201
    media = make_media(tenant)
    post = api.post("/api/posts/upload", post_payload(make_category(tenant), media, postStatus="published",
                                                      postContent=BODY, visibility="members")).json()["post"]
    assert api.put(f"/api/posts/{post['id']}", {"visibility": "public"}).status_code == 200
    page = api.post("/api/pages", {"postTitle": "Club", "postContent": BODY, "postExcerpt": "Club",
                                   "postStatus": "published", "featuredMediaId": str(media.id),
                                   "visibility": "members"})
    assert page.status_code == 201, page.json()

    sent = _payloads(tenant)
    assert [event for event, _ in sent] == ["post.published", "post.updated", "page.published"]
    published, updated, page_published = (payload["data"] for _, payload in sent)
    assert published["post"]["visibility"] == "members" and published["post"]["content"] == BODY
    assert updated["post"]["visibility"] == "public"
    assert page_published["page"]["visibility"] == "members" and page_published["page"]["content"] == BODY
