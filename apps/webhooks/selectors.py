"""Reads of the webhooks app: endpoints, deliveries, and each event's object in the public
content API's shape (built by the public API's and the content/media apps' own builders)."""
from __future__ import annotations

import uuid

from django.db.models import QuerySet

from apps.content.models import Post
from apps.content.post_schemas import CategoryOut, TagOut
from apps.core.errors import NotFound
from apps.core.languages import current as current_languages
from apps.media.models import Media
from apps.media.schemas import media_out
from apps.media.storage import MediaUrls
from apps.public_api import selectors as public
from apps.webhooks.models import WebhookDelivery, WebhookEndpoint

ENDPOINT_NOT_FOUND = "Webhook endpoint not found"
DELIVERY_NOT_FOUND = "Webhook delivery not found"


def _uuid(value: str, message: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError as exc:
        raise NotFound(message) from exc


def endpoints() -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.all()


def endpoint_get(endpoint_id: str, *, for_update: bool = False) -> WebhookEndpoint:
    queryset = WebhookEndpoint.objects.select_for_update() if for_update else WebhookEndpoint.objects
    endpoint = queryset.filter(pk=_uuid(endpoint_id, ENDPOINT_NOT_FOUND)).first()
    if endpoint is None:
        raise NotFound(ENDPOINT_NOT_FOUND)
    return endpoint


def endpoints_subscribed(event: str) -> list[WebhookEndpoint]:
    return [endpoint for endpoint in WebhookEndpoint.objects.filter(active=True) if event in endpoint.events]


def deliveries(endpoint: WebhookEndpoint) -> QuerySet[WebhookDelivery]:
    return WebhookDelivery.objects.filter(endpoint=endpoint)


def delivery_get(endpoint: WebhookEndpoint, delivery_id: str) -> WebhookDelivery:
    delivery = deliveries(endpoint).filter(pk=_uuid(delivery_id, DELIVERY_NOT_FOUND)).first()
    if delivery is None:
        raise NotFound(DELIVERY_NOT_FOUND)
    return delivery


# --- the object of an event, as the public content API sends it ----------------------------------
def post_public(post_id) -> dict | None:
    if not Post.objects.filter(pk=post_id).exists():
        return None
    # By id, right after the write (a slug may be taken in several languages); a company of several
    # languages gets the post's `locale` and `translations` as `?locale=` replies carry them.
    try:
        return public.post_by_id(post_id, localized=not current_languages().single)
    except NotFound:
        return None


def _term_public(kind: str, term_id) -> dict | None:
    if kind == "category":
        term = public.categories().filter(pk=term_id).first()
        return CategoryOut.from_category(term).model_dump(mode="json") if term else None
    term = public.tags().filter(pk=term_id).first()
    return TagOut.from_tag(term).model_dump(mode="json") if term else None


def media_public(media_id) -> dict | None:
    media = Media.objects.select_related("uploaded_by").filter(pk=media_id).first()
    return media_out(media, MediaUrls.current()).model_dump(mode="json") if media else None


def event_object(kind: str, object_id) -> dict | None:
    """The JSON of a post, category, tag or media item as it is now (None when it is gone)."""
    if kind in ("post", "page"):  # a page's JSON is a post's (apps.content.kinds)
        return post_public(object_id)
    if kind in ("category", "tag"):
        return _term_public(kind, object_id)
    if kind == "media":
        return media_public(object_id)
    raise ValueError(kind)
