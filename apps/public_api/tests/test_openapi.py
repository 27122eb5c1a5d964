"""The public API's OpenAPI document is what clients (and the content SDK, sdk/) generate code
from: it stays as committed in openapi/public.json (written by `manage.py openapi_export`) while
the handlers change how they read their input (the query is read by
apps.public_api.request.parse_list and documented with apps.core.api.query_parameters)."""
from __future__ import annotations

import json

from apps.core.management.commands.openapi_export import default_directory


def test_the_document_is_unchanged():
    from config.api import public_api

    committed = json.loads((default_directory() / "public.json").read_text())
    assert public_api.get_openapi_schema(path_prefix="/api/v1/") == committed
