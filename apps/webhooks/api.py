"""Webhook endpoints of the company's websites (admins: capability settings.manage)."""
from __future__ import annotations

from ninja import Query, Router, Schema

from apps.core.pagination import page_params
from apps.core.permissions import requires
from apps.core.schemas import MessageOut, PaginationOut
from apps.core.selectors import paginate
from apps.webhooks import selectors, services
from apps.webhooks.models import EVENTS
from apps.webhooks.schemas import (
    DeliveryListOut,
    DeliveryOut,
    DeliveryQueuedOut,
    EndpointIn,
    EndpointListOut,
    EndpointOut,
    EndpointReplyOut,
    EndpointSavedOut,
    EndpointUpdateIn,
)

router = Router(tags=["webhooks"])
CANNOT_MANAGE = "Only administrators can manage webhooks"


def _endpoint(request, endpoint_id: str, *, for_update: bool = False):
    return selectors.endpoint_get(endpoint_id, for_update=for_update)


@router.get("", response=EndpointListOut)
@requires("settings.manage", CANNOT_MANAGE)
def list_endpoints(request):
    return EndpointListOut(endpoints=[EndpointOut.of(e) for e in selectors.endpoints()], events=list(EVENTS))


@router.post("", response={201: EndpointSavedOut})
@requires("settings.manage", CANNOT_MANAGE)
def create_endpoint(request, payload: EndpointIn):
    """The reply carries the signing `secret`: it is shown this once."""
    endpoint = services.webhook_endpoint_create(url=payload.url, events=payload.events,
                                                description=payload.description, active=payload.active)
    return 201, EndpointSavedOut(message="Webhook endpoint created successfully",
                                 endpoint=EndpointOut.of(endpoint, with_secret=True))


@router.get("/{endpoint_id}", response=EndpointReplyOut)
@requires("settings.manage", CANNOT_MANAGE)
def get_endpoint(request, endpoint_id: str):
    return EndpointReplyOut(endpoint=EndpointOut.of(_endpoint(request, endpoint_id)))


@router.put("/{endpoint_id}", response=EndpointSavedOut)
@requires("settings.manage", CANNOT_MANAGE)
def update_endpoint(request, endpoint_id: str, payload: EndpointUpdateIn):
    endpoint = services.webhook_endpoint_update(endpoint=_endpoint(request, endpoint_id), **payload.dict())
    return EndpointSavedOut(message="Webhook endpoint updated successfully", endpoint=EndpointOut.of(endpoint))


@router.delete("/{endpoint_id}", response=MessageOut)
@requires("settings.manage", CANNOT_MANAGE)
def delete_endpoint(request, endpoint_id: str):
    services.webhook_endpoint_delete(endpoint=_endpoint(request, endpoint_id))
    return MessageOut(message="Webhook endpoint deleted successfully")


@router.post("/{endpoint_id}/secret/rotate", response=EndpointSavedOut)
@requires("settings.manage", CANNOT_MANAGE)
def rotate_secret(request, endpoint_id: str):
    """A new signing secret, shown this once; the old one stops signing at once."""
    endpoint = services.webhook_secret_rotate(endpoint=_endpoint(request, endpoint_id))
    return EndpointSavedOut(message="Webhook secret rotated", endpoint=EndpointOut.of(endpoint, with_secret=True))


@router.post("/{endpoint_id}/test", response={202: DeliveryQueuedOut})
@requires("settings.manage", CANNOT_MANAGE)
def send_test(request, endpoint_id: str):
    delivery = services.webhook_test_send(endpoint=_endpoint(request, endpoint_id))
    return 202, DeliveryQueuedOut(message="Test event queued", delivery=DeliveryOut.of(delivery))


class DeliveryListQuery(Schema):
    page: int | None = None
    limit: int | None = None


@router.get("/{endpoint_id}/deliveries", response=DeliveryListOut)
@requires("settings.manage", CANNOT_MANAGE)
def list_deliveries(request, endpoint_id: str, filters: Query[DeliveryListQuery]):
    endpoint = _endpoint(request, endpoint_id)
    page = page_params(filters.page, filters.limit, default_limit=20, max_limit=100)
    deliveries, total = paginate(selectors.deliveries(endpoint), page)
    return DeliveryListOut(deliveries=[DeliveryOut.of(d) for d in deliveries],
                           pagination=PaginationOut(**page.meta(total)))


@router.post("/{endpoint_id}/deliveries/{delivery_id}/redeliver", response={202: DeliveryQueuedOut})
@requires("settings.manage", CANNOT_MANAGE)
def redeliver(request, endpoint_id: str, delivery_id: str):
    delivery = selectors.delivery_get(_endpoint(request, endpoint_id), delivery_id)
    delivery = services.webhook_delivery_redeliver(delivery=delivery)
    return 202, DeliveryQueuedOut(message="Delivery queued again", delivery=DeliveryOut.of(delivery))


ROUTES = [("/webhooks", router)]
