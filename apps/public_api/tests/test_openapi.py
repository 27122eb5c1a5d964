"""The public API's OpenAPI document is what clients generate code from: it stays as recorded
(openapi.json) while the handlers change how they read their input (the query is read by
apps.public_api.request.parse_list and documented with apps.core.api.query_parameters)."""
from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).with_name("openapi.json")


def test_the_document_is_unchanged():
    from config.api import public_api

    assert public_api.get_openapi_schema(path_prefix="/api/") == json.loads(GOLDEN.read_text())
    document = json.dumps(public_api.get_openapi_schema(path_prefix="/api/"))
    assert document == json.dumps(json.loads(GOLDEN.read_text()))  # key order too
