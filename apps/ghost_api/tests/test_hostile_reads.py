"""Reads by slug or id with a value no row can have (a NUL character, which PostgreSQL text cannot
hold): Ghost's 404 in Ghost's shape, through Django and through the public API's WSGI layer, for
every resource; never a 500."""
from __future__ import annotations

import pytest

from apps.public_api.tests.conftest import wsgi_app, wsgi_call  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

READS = ["posts/slug/a%00b/", "posts/slug/%00/", "pages/slug/a%00b/", "tags/slug/a%00b/", "authors/slug/a%00b/",
         "tiers/slug/a%00b/", "posts/" + "0" * 23 + "%00/", "pages/a%00b/", "tags/a%00b/", "authors/a%00b/",
         "tiers/a%00b/", "posts/slug/a%00b"]


def _is_ghosts_404(status: int, body: dict, path: str) -> None:
    assert status == 404, (path, status, body)
    error = body["errors"][0]
    assert error["type"] == "NotFoundError" and error["message"], (path, body)


@pytest.mark.parametrize("path", READS)
def test_a_nul_in_a_slug_or_id_is_ghosts_404(ghost, blog, path):
    response = ghost.get(path)
    _is_ghosts_404(response.status_code, response.json(), path)


@pytest.mark.parametrize("path", ["posts/slug/a%00b/", "tags/slug/a%00b/", "posts/" + "0" * 23 + "%00/"])
def test_a_nul_in_a_slug_or_id_is_ghosts_404_before_django_too(wsgi_app, tenant, blog, path):  # noqa: F811
    from urllib.parse import unquote

    for _ in range(2):  # a miss, then what the WSGI layer would serve again
        response = wsgi_call(wsgi_app, tenant, "/ghost/api/content/" + unquote(path),
                             query=f"key={tenant.ghost_content_key}")
        _is_ghosts_404(response.status_code, response.json(), path)
