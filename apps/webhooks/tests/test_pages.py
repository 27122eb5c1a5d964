"""Pages' webhook events (apps.content.kinds): `page.published`, `page.updated`, `page.unpublished`,
`page.scheduled` and `page.deleted`, each with the page under `data.page`; an endpoint subscribed to
post events gets none of them, and the other way round."""
from __future__ import annotations

from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.webhooks.models import EVENTS, WebhookDelivery


def _deliveries(tenant) -> list[tuple[str, str, dict]]:
    with schema_context(tenant.schema_name):
        return [(d.endpoint.url, d.event, d.payload) for d in WebhookDelivery.objects.select_related("endpoint")
                .order_by("created_at", "event")]


def test_the_catalogue_has_the_page_events_of_the_post_events():
    post_events = [name.split(".", 1)[1] for name in EVENTS if name.startswith("post.")]
    assert [name.split(".", 1)[1] for name in EVENTS if name.startswith("page.")] == post_events


def test_a_pages_changes_are_page_events(api, tenant):
    pages = {"url": "http://127.0.0.1:9/pages", "events": [e for e in EVENTS if e.startswith("page.")]}
    posts = {"url": "http://127.0.0.1:9/posts", "events": [e for e in EVENTS if e.startswith("post.")]}
    assert api.post("/api/webhooks", pages).status_code == 201
    assert api.post("/api/webhooks", posts).status_code == 201
    assert "page.published" in api.get("/api/webhooks").json()["events"]  # offered to subscribe to
    media = make_media(tenant)
    page = api.post("/api/pages", {"postTitle": "About", "postContent": "<p>Us</p>", "postExcerpt": "Us",
                                   "postStatus": "published", "featuredMediaId": str(media.id)}).json()["post"]
    assert api.put(f"/api/pages/{page['id']}", {"title": "About us"}).status_code == 200
    assert api.put(f"/api/pages/{page['id']}", {"status": "draft"}).status_code == 200
    assert api.put(f"/api/pages/{page['id']}", {"status": "published"}).status_code == 200
    assert api.delete(f"/api/pages/{page['id']}").status_code == 200
    post = api.post("/api/posts/upload", post_payload(make_category(tenant), media, postStatus="published"))
    assert post.status_code == 201

    sent = _deliveries(tenant)
    assert [event for url, event, _ in sent if url.endswith("/pages")] == [
        "page.published", "page.updated", "page.unpublished", "page.published", "page.deleted"]
    assert [event for url, event, _ in sent if url.endswith("/posts")] == ["post.published"]
    first = next(payload for url, event, payload in sent if event == "page.published")
    assert first["data"]["page"]["title"] == "About" and first["data"]["page"]["id"] == page["id"]
    deleted = next(payload for url, event, payload in sent if event == "page.deleted")
    assert deleted["data"]["page"] == {"id": page["id"], "slug": "about"}
