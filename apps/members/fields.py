"""Field types shared by the members' dashboard schemas (apps.members.schemas) and their public routes
(apps.members.public), apart from the former so that a content web process does not import them."""
from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator

from apps.core.validation import text


def clean_ids(value) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("Must be a list of ids")
    if len(value) > 1000:
        raise ValueError("At most 1000 ids")
    return [text(item, "Must be a list of ids") for item in value]


Ids = Annotated[list[str], BeforeValidator(clean_ids)]
