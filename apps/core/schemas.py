from ninja import Schema
from pydantic import ConfigDict


class InSchema(Schema):
    """Input schemas: defaults are validated too, so a missing field gets the same
    message as an empty one (the spec's texts)."""

    model_config = ConfigDict(validate_default=True)


class MessageOut(Schema):
    success: bool = True
    message: str
