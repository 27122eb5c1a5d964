"""openapi/*.json are the documents the code serves (the dashboard's and the SDK's types are
generated from them): CI fails when a change of the API is not exported."""
from __future__ import annotations

import json
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from apps.core import testing
from apps.core.management.commands.openapi_export import DOCUMENTS, default_directory


def test_the_committed_documents_are_what_the_code_produces():
    call_command("openapi_export", check=True)  # raises CommandError with the diff when one is stale


def test_check_names_the_stale_document_and_says_how_to_fix_it(tmp_path):
    for name in DOCUMENTS:
        shutil.copy(default_directory() / name, tmp_path / name)
    public = json.loads((tmp_path / "public.json").read_text())
    del public["paths"]["/api/v1/tags"]
    (tmp_path / "public.json").write_text(json.dumps(public, indent=2, sort_keys=True) + "\n")
    (tmp_path / "root.json").unlink()

    with pytest.raises(CommandError) as refused:
        call_command("openapi_export", check=True, dir=str(tmp_path))
    message = str(refused.value)
    assert "public.json, root.json" in message and "dashboard.json" not in message.split("\n")[0]
    assert '+    "/api/v1/tags": {' in message  # the diff shows what the code has and the file lacks
    assert "python manage.py openapi_export" in message

    call_command("openapi_export", dir=str(tmp_path))  # writing brings them back
    call_command("openapi_export", check=True, dir=str(tmp_path))
    for name in DOCUMENTS:
        assert (tmp_path / name).read_text() == (default_directory() / name).read_text()


@pytest.mark.parametrize("name, path", [("dashboard.json", "/api/openapi.json"),
                                        ("public.json", "/api/v1/openapi.json")])
def test_the_exported_documents_are_the_served_ones(tenant, name, path):
    """Same paths (with their real prefixes) and schemas as a client downloading them gets."""
    served = Client(HTTP_HOST=testing.host_of(tenant)).get(path)
    assert served.status_code == 200
    assert served.json() == json.loads((default_directory() / name).read_text())


def test_the_exported_root_document_is_the_served_one(db):
    served = Client(HTTP_HOST=testing.host_of(None)).get("/api/openapi.json")
    assert served.status_code == 200
    assert served.json() == json.loads((default_directory() / "root.json").read_text())
