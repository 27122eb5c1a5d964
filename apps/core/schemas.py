from datetime import datetime
from typing import Any, Literal

from ninja import Field, Schema
from ninja.schema import DjangoGetter
from pydantic import ConfigDict, model_validator
from pydantic.alias_generators import to_snake


class InSchema(Schema):
    """Input schemas: defaults are validated too, so a missing field gets the same
    message as an empty one (the spec's texts)."""

    model_config = ConfigDict(validate_default=True)


def service_name(field: str, renamed: dict[str, str] | None = None) -> str:
    """The services' keyword for a wire field: camelCase to snake_case by one rule (`customSlug` ->
    `custom_slug`), except the few in `renamed` whose service name says more (`tags` -> `tag_ids`)."""
    return (renamed or {}).get(field) or to_snake(field)


def snake_case_fields(schema: Schema, *, fields=None, renamed: dict[str, str] | None = None) -> dict:
    """The schema's fields (all, or `fields`) as the services' keyword arguments."""
    names = type(schema).model_fields if fields is None else fields
    return {service_name(name, renamed): getattr(schema, name) for name in names}


# --- replies -------------------------------------------------------------------------------------
class OutSchema(Schema):
    """Reply schemas: the success bodies of docs/api/index.md, declared in the order their keys are sent.

    - An instance of the very class is kept as it is when a reply is validated (pydantic's own rule
      for model instances; ninja's Schema reads it again, field by field), so a reply assembled
      from parts built by `from_*` helpers is validated once, not once per level.
    - Keyword arguments and dicts are validated by pydantic itself: ninja's getter (attributes of
      ORM objects, resolvers) costs about 2 µs a field, 0.9 ms on a page of 20 media.
    - In the OpenAPI document every field is `required`, defaults included (they are always
      sent), except the ones declared with `omitted()`.
    """

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    @model_validator(mode="wrap")
    @classmethod
    def _run_root_validator(cls, values, handler, info):  # replaces ninja's Schema validator
        if type(values) is cls:
            return values
        if isinstance(values, dict) and not cls._ninja_resolvers:
            return handler(values)
        return handler(DjangoGetter(values, cls, info.context))


def _is_none(value) -> bool:
    return value is None


def omitted(**kwargs) -> Any:
    """A key that some replies leave out: not `required` in OpenAPI, never sent as null (a field
    left unset is dropped from the reply)."""
    return Field(None, exclude_if=_is_none, **kwargs)


class SuccessOut(OutSchema):
    """A success reply: `success: true` first, then the fields of the subclass."""

    success: Literal[True] = True


class MessageOut(SuccessOut):
    message: str


class PaginationOut(OutSchema):
    """apps.core.pagination.Page.meta()"""

    total: int
    totalPages: int
    currentPage: int
    limit: int


class ErrorOut(Schema):
    """The error envelope (docs/api/index.md). Every operation's OpenAPI entry documents it for its 4xx
    (apps.core.api.Api); handlers name it for the other statuses they answer with it, e.g.
    `response={201: PostSavedOut, 503: ErrorOut}`."""

    success: Literal[False] = False
    message: str
    error: str
    errors: list[dict] | None = None


class OutgoingKindOut(OutSchema):
    """One kind of work waiting in the outbox for the company (apps.core.outbox)."""

    kind: str  # the task, e.g. core.send_email, webhooks.deliver
    label: str  # what it is, for people: Emails, Webhook deliveries...
    waiting: int  # a retry later (the receiving server failed)
    sending: int  # being sent now, or due
    stuck: int  # not sent although due for a while: the sending service is down (operators are told)


class OutgoingEmailOut(OutSchema):
    id: str
    kind: str  # the template: password_reset, invitation, ...
    to: str
    subject: str
    status: Literal["failed", "stuck"]  # failed: given up after its tries; stuck: still unsent
    attempts: int
    lastError: str
    createdAt: datetime


class OutgoingOut(SuccessOut):
    """GET /api/outgoing: what waits to leave for the company, and its emails that failed or are stuck."""

    kinds: list[OutgoingKindOut]
    emails: list[OutgoingEmailOut]
