"""Webhook payloads of a company in several languages carry the post's locale (and its group's
published translations), as `?locale=` replies of the public content API do; a company with one
language gets the payloads it always got."""
from __future__ import annotations

from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.webhooks.models import WebhookDelivery

BODY = {"url": "http://127.0.0.1:9/hooks", "events": ["post.published", "post.deleted"]}


def _deliveries(tenant) -> list[dict]:
    with schema_context(tenant.schema_name):
        return [d.payload for d in WebhookDelivery.objects.order_by("created_at")]


def test_a_translations_events_carry_its_locale(api, tenant):
    assert api.put("/api/client/languages", {"languages": ["en", "fr"]}).status_code == 200
    assert api.post("/api/webhooks", BODY).status_code == 201
    source = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant),
                                                        customSlug="launch", postStatus="published")).json()["post"]
    french = api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).json()["post"]
    assert api.put(f"/api/posts/{french['id']}", {"status": "published", "title": "Lancement"}).status_code == 200
    assert api.delete(f"/api/posts/{french['id']}").status_code == 200
    published_en, published_fr, deleted = _deliveries(tenant)
    assert published_en["data"]["post"]["locale"] == "en"
    post = published_fr["data"]["post"]
    # the same slug in both languages: the payload is the translation's, not the English post's
    assert (post["id"], post["title"], post["locale"]) == (french["id"], "Lancement", "fr")
    assert post["translations"] == [{"locale": "en", "slug": "launch"}, {"locale": "fr", "slug": "launch"}]
    assert deleted["event"] == "post.deleted"
    assert deleted["data"]["post"] == {"id": french["id"], "slug": "launch", "locale": "fr"}


def test_a_single_language_companys_payloads_are_unchanged(api, tenant):
    assert api.post("/api/webhooks", BODY).status_code == 201
    api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant), postStatus="published"))
    [published] = _deliveries(tenant)
    assert "locale" not in published["data"]["post"] and "translations" not in published["data"]["post"]
