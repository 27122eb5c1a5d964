from typing import Literal

from ninja import Schema
from pydantic import ConfigDict


class InSchema(Schema):
    """Input schemas: defaults are validated too, so a missing field gets the same
    message as an empty one (the spec's texts)."""

    model_config = ConfigDict(validate_default=True)


class MessageOut(Schema):
    success: bool = True
    message: str


class ErrorOut(Schema):
    """The error envelope (API.md). Every operation's OpenAPI entry documents it for its 4xx
    (apps.core.api.Api); handlers name it for the other statuses they answer with it, e.g.
    `response={201: dict, 503: ErrorOut}`."""

    success: Literal[False] = False
    message: str
    error: str
    errors: list[dict] | None = None
