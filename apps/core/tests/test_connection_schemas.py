"""A database connection serves at most DB_CONNECTION_MAX_SCHEMAS companies (apps.core.db
schema_visited): PostgreSQL keeps the catalog cache of every schema a connection touched."""
import time

import pytest
from django.db import connection

from apps.core import db
from apps.core.testing import host_of


@pytest.mark.django_db(transaction=True)
def test_a_connection_is_closed_after_its_request_once_it_served_too_many_companies(settings):
    settings.DB_CONNECTION_MAX_SCHEMAS = 2
    connection.close()
    connection.ensure_connection()
    first = connection.connection
    for schema in ("t_a", "t_b", "t_a", "t_b"):
        db.schema_visited(schema)
    connection.close_if_unusable_or_obsolete()  # what Django runs when a request ends
    assert connection.connection is first  # two companies: kept

    db.schema_visited("t_c")
    connection.close_if_unusable_or_obsolete()
    assert connection.connection is None  # a third: closed, the next request connects afresh

    connection.ensure_connection()
    db.schema_visited("t_d")
    connection.close_if_unusable_or_obsolete()
    assert connection.connection is not None  # the new connection counts from zero


@pytest.mark.django_db(transaction=True)
def test_requests_for_different_companies_count_on_their_connection(make_tenant, settings, client):
    settings.DB_CONNECTION_MAX_SCHEMAS = 2
    tenants = [make_tenant() for _ in range(3)]
    connection.close()
    for tenant in tenants[:2]:
        assert client.get("/api/v1/posts", HTTP_HOST=host_of(tenant), HTTP_X_API_KEY=tenant.api_key).status_code == 200
    assert connection.close_at is None or connection.close_at > time.monotonic()
    assert client.get("/api/v1/posts", HTTP_HOST=host_of(tenants[2]),
                      HTTP_X_API_KEY=tenants[2].api_key).status_code == 200
    assert connection.close_at <= time.monotonic()  # due: closed when the request ends
