from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import field_validator

from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted
from apps.core.validation import clean_min_length
from apps.integrations.models import NAME_MAX, Integration
from apps.integrations.secrets import hint
from apps.integrations.services import KEYS, Issued

NAME_REQUIRED = "Name is required"
NAME_TOO_LONG = f"Name must be at most {NAME_MAX} characters"
KEYS_REQUIRED = "Choose the keys to rotate: content, admin or both"


class IntegrationIn(InSchema):
    name: str = ""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_min_length(value, 1, NAME_REQUIRED, maximum=NAME_MAX, too_long=NAME_TOO_LONG)


class IntegrationRotateIn(InSchema):
    """The keys to rotate (both when the body is left out)."""

    keys: list[Literal["content", "admin"]] = list(KEYS)

    @field_validator("keys")
    @classmethod
    def _keys(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError(KEYS_REQUIRED)
        return list(dict.fromkeys(value))


class IntegrationOut(OutSchema):
    id: str
    name: str
    companyKey: bool  # its Content API key is the company's Ghost content key (it cannot be deleted)
    contentKeyHint: str  # the last four digits of its Content API key
    adminKeyId: str | None  # the id of its Admin API key (the part before the colon); None: none yet
    adminKeyHint: str | None  # the last four digits of its Admin API key's secret
    createdAt: datetime
    updatedAt: datetime
    contentKey: str | None = omitted(description="The whole Content API key: only in the reply of the write "
                                                 "that made it (create, rotate)")
    adminKey: str | None = omitted(description="The whole Admin API key (id:secret): only in the reply of the "
                                               "write that made it (create, rotate)")

    @staticmethod
    def of(integration: Integration, client, issued: Issued | None = None) -> "IntegrationOut":
        content_hint = hint(client.ghost_content_key) if integration.company_key else integration.content_key_hint
        return IntegrationOut(
            id=str(integration.id), name=integration.name, companyKey=integration.company_key,
            contentKeyHint=content_hint, adminKeyId=integration.admin_key_id,
            adminKeyHint=integration.admin_secret_hint or None, createdAt=integration.created_at,
            updatedAt=integration.updated_at, contentKey=issued.content_key if issued else None,
            adminKey=issued.admin_key if issued else None)


class IntegrationListOut(SuccessOut):
    integrations: list[IntegrationOut]
    ghostUrl: str  # what a publishing tool asks for as the "Ghost URL" (or "API URL"): the company's host


class IntegrationSavedOut(SuccessOut):
    message: str
    integration: IntegrationOut
