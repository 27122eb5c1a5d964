"""Host -> company on a reused connection: a request for the company the connection served last
runs without any `SET search_path`; a request for another company, an unknown host or the root
domain always gets its own path first. Nothing of one company is ever read on another's host."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from django.test import Client as HttpClient

from apps.content.tests.factories import make_post
from apps.core.testing import host_of


class Site:
    """A website of one company calling the public API with a key, on the test's one connection
    and without resetting its schema between requests (as a web worker's connection)."""

    def __init__(self, tenant, key: str, host: str | None = None):
        self.http = HttpClient(HTTP_HOST=host or host_of(tenant))
        self.key = key

    def get(self, path: str):
        return self.http.get(path, headers={"x-api-key": self.key})


def key_client(tenant, key: str) -> Site:
    return Site(tenant, key)


@pytest.fixture(autouse=True)
def _uncached(settings):
    settings.PUBLIC_API_CACHE = False  # every request reads the database


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [post["title"] for post in response.json()["data"]["posts"]]


def sets(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SET search_path")]


def test_same_company_again_needs_no_set_search_path(tenant):
    make_post(tenant, "Mine", slug="mine", status="published")
    site = key_client(tenant, tenant.api_key)
    assert titles(site.get("/api/v1/posts")) == ["Mine"]
    with CaptureQueriesContext(connection) as queries:
        assert titles(site.get("/api/v1/posts")) == ["Mine"]
    assert sets(queries) == []
    assert any("content_post" in q["sql"] for q in queries.captured_queries)


def test_alternating_companies_each_read_their_own_schema(tenant, other_tenant):
    make_post(tenant, "Mine", slug="same-slug", status="published")
    make_post(other_tenant, "Theirs", slug="same-slug", status="published")
    mine, theirs = key_client(tenant, tenant.api_key), key_client(other_tenant, other_tenant.api_key)
    for _ in range(3):
        with CaptureQueriesContext(connection) as queries:
            assert titles(mine.get("/api/v1/posts")) == ["Mine"]
        # The list's statement names the company's schema itself (the SQL of prepared reads
        # does not depend on the connection's search_path).
        assert any(f'FROM "{tenant.schema_name}"."content_post"' in q["sql"] for q in queries.captured_queries)
        assert not any(other_tenant.schema_name in q["sql"] for q in queries.captured_queries)
        assert titles(theirs.get("/api/v1/posts")) == ["Theirs"]
        assert mine.get("/api/v1/posts/slug/same-slug").json()["data"]["post"]["title"] == "Mine"
        assert theirs.get("/api/v1/posts/slug/same-slug").json()["data"]["post"]["title"] == "Theirs"
    # Another company's key on this host is refused, whatever the connection served before.
    assert key_client(tenant, other_tenant.api_key).get("/api/v1/posts").status_code == 401


def test_unknown_host_and_root_domain_leave_the_companys_schema(tenant, root_api):
    make_post(tenant, "Mine", slug="mine", status="published")
    site = key_client(tenant, tenant.api_key)
    assert titles(site.get("/api/v1/posts")) == ["Mine"]
    assert root_api.get("/api/health").status_code == 200
    assert connection.schema_name == "public"
    titles(site.get("/api/v1/posts"))
    assert connection.schema_name == tenant.schema_name
    unknown = Site(tenant, tenant.api_key, host=f"nobody.{settings.ROOT_DOMAIN}")
    assert unknown.get("/api/v1/posts").status_code == 404
    assert connection.schema_name == "public"


def test_a_rolled_back_savepoint_does_not_leave_a_stale_path(tenant, other_tenant):
    """ROLLBACK TO SAVEPOINT undoes a SET issued inside it; the next query sets the path again.
    (Searches run on the search_path: the content app's search condition names no schema.)"""
    make_post(tenant, "Mine", slug="mine", status="published")
    make_post(other_tenant, "Theirs", slug="theirs", status="published")
    mine, theirs = key_client(tenant, tenant.api_key), key_client(other_tenant, other_tenant.api_key)
    assert titles(mine.get("/api/v1/posts?search=mine")) == ["Mine"]
    try:
        with transaction.atomic():
            with CaptureQueriesContext(connection) as queries:
                assert titles(theirs.get("/api/v1/posts?search=theirs")) == ["Theirs"]
            assert sets(queries) == [f'SET search_path = "{other_tenant.schema_name}","public"']
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    assert titles(theirs.get("/api/v1/posts?search=theirs")) == ["Theirs"]
    assert titles(mine.get("/api/v1/posts?search=mine")) == ["Mine"]
    assert titles(mine.get("/api/v1/posts?search=theirs")) == []
