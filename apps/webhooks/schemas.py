from __future__ import annotations

from datetime import datetime

from pydantic import field_validator

from apps.core.schemas import InSchema, OutSchema, PaginationOut, SuccessOut, omitted
from apps.webhooks.models import WebhookDelivery, WebhookEndpoint


class EndpointIn(InSchema):
    url: str = ""
    events: list[str] = []
    description: str = ""
    active: bool = True

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if not (value or "").strip():
            raise ValueError("URL is required")
        return value  # trimmed by the service, after its check of what was typed (network.check_url_at_save)


class EndpointUpdateIn(InSchema):
    url: str | None = None
    events: list[str] | None = None
    description: str | None = None
    active: bool | None = None


class EndpointOut(OutSchema):
    id: str
    url: str
    description: str
    events: list[str]
    active: bool
    disabledReason: str | None
    consecutiveFailures: int
    createdAt: datetime
    updatedAt: datetime
    secret: str | None = omitted(description="Only in the replies of create and secret rotation")

    @staticmethod
    def of(endpoint: WebhookEndpoint, *, with_secret: bool = False) -> "EndpointOut":
        return EndpointOut(
            id=str(endpoint.id), url=endpoint.url, description=endpoint.description, events=list(endpoint.events),
            active=endpoint.active, disabledReason=endpoint.disabled_reason or None,
            consecutiveFailures=endpoint.consecutive_failures, createdAt=endpoint.created_at,
            updatedAt=endpoint.updated_at, secret=endpoint.secret if with_secret else None,
        )


class EndpointListOut(SuccessOut):
    endpoints: list[EndpointOut]
    events: list[str]  # every subscribable event


class EndpointReplyOut(SuccessOut):
    endpoint: EndpointOut


class EndpointSavedOut(SuccessOut):
    message: str
    endpoint: EndpointOut


class DeliveryOut(OutSchema):
    id: str
    webhookId: str
    event: str
    status: str
    attempt: int
    responseStatus: int | None
    responseExcerpt: str
    durationMs: int | None
    error: str
    createdAt: datetime
    lastAttemptAt: datetime | None
    nextAttemptAt: datetime | None

    @staticmethod
    def of(delivery: WebhookDelivery) -> "DeliveryOut":
        return DeliveryOut(
            id=str(delivery.id), webhookId=str(delivery.event_id), event=delivery.event, status=delivery.status,
            attempt=delivery.attempt, responseStatus=delivery.response_status,
            responseExcerpt=delivery.response_excerpt, durationMs=delivery.duration_ms, error=delivery.error,
            createdAt=delivery.created_at, lastAttemptAt=delivery.last_attempt_at,
            nextAttemptAt=delivery.next_attempt_at,
        )


class DeliveryListOut(SuccessOut):
    deliveries: list[DeliveryOut]
    pagination: PaginationOut


class DeliveryQueuedOut(SuccessOut):
    message: str
    delivery: DeliveryOut
