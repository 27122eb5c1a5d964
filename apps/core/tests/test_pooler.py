"""The app behind a real PgBouncer (the system package, started here on a free port).

Session mode is supported: concurrent requests for different companies through a small pool
(server connections handed from one client to the next) never read another company's rows.
Transaction and statement modes would hand a connection whose search_path belongs to another
company to the next client (shown below), so the app refuses to run behind them: at start-up
when DB_POOL_MODE says so, and at its first connection when the check finds it."""
from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from apps.content.tests.factories import make_post
from apps.core.pooler import shares_server_connections
from apps.core.testing import host_of, parallel, tenant_admin, token_for
from apps.core.tests.hardening.services import Gunicorn, PgBouncer, pgbouncer_bin
from conftest import ROOT, child_process_env

pytestmark = [pytest.mark.skipif(pgbouncer_bin() is None, reason="pgbouncer not installed (make pgbouncer)"),
              pytest.mark.timeout(180)]


def _params(url: str) -> dict:
    return {"conninfo": url, "connect_timeout": 5}


def test_transaction_pooling_hands_one_companys_search_path_to_the_next_client():
    """Why transaction pooling is refused: a session-level SET outlives the client's transaction."""
    with PgBouncer(pool_mode="transaction", pool_size=1) as bouncer:
        with psycopg.connect(bouncer.url("postgres"), autocommit=True) as first, \
                psycopg.connect(bouncer.url("postgres"), autocommit=True) as second:
            first.execute('SET search_path = "company_a", public')
            assert second.execute("SHOW search_path").fetchone()[0] == "company_a, public"


@pytest.mark.parametrize("mode, shared", [("session", False), ("transaction", True), ("statement", True)])
def test_the_check_tells_per_transaction_pooling_from_session_pooling(mode, shared):
    with PgBouncer(pool_mode=mode) as bouncer:
        assert shares_server_connections(_params(bouncer.url("postgres"))) is shared


def test_a_direct_connection_passes_the_check():
    assert shares_server_connections(connection.get_connection_params()) is False


def _run_app(database_url: str, **env) -> subprocess.CompletedProcess:
    code = "from django.db import connection; connection.ensure_connection(); print('connected')"
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env=child_process_env(connection.settings_dict["NAME"], DATABASE_URL=database_url, **env))


@pytest.mark.django_db
def test_the_app_refuses_transaction_pooling_at_its_first_connection():
    with PgBouncer(pool_mode="transaction") as bouncer:
        result = _run_app(bouncer.url(connection.settings_dict["NAME"]), DB_POOL_MODE="session")
    assert result.returncode != 0
    assert "PoolerModeRefused" in result.stderr and "pool_mode=session" in result.stderr, result.stderr
    assert "connected" not in result.stdout


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["transaction", "statement"])
def test_db_pool_mode_transaction_is_refused_before_anything_runs(mode):
    result = _run_app("postgres://postgres@127.0.0.1:5432/postgres", DB_POOL_MODE=mode)
    assert result.returncode != 0
    assert f"DB_POOL_MODE={mode} is not supported" in result.stderr, result.stderr


@pytest.mark.django_db
def test_session_pooling_passes_and_sends_the_session_settings():
    with PgBouncer(pool_mode="session") as bouncer:
        code = ("from django.db import connection; c = connection.cursor(); c.execute('SHOW jit'); "
                "print(c.fetchone()[0]); c.execute('SHOW plan_cache_mode'); print(c.fetchone()[0])")
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
            env=child_process_env(connection.settings_dict["NAME"], DB_POOL_MODE="session",
                                  DATABASE_URL=bouncer.url(connection.settings_dict["NAME"])))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == ["off", "force_generic_plan"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_for_different_companies_through_session_pooling_stay_apart(make_tenant, tmp_path):
    """Three companies with a post of the same slug; 3 web workers x 8 threads share 3 server
    connections through PgBouncer (each handed to the next client after DISCARD ALL): every
    public and dashboard read returns the caller's company's post only."""
    import requests

    tenants = [make_tenant() for _ in range(3)]
    for tenant in tenants:
        make_post(tenant, f"Post of {tenant.subdomain}", slug="same-slug", status="published")
    tokens = {tenant.pk: token_for(tenant, tenant_admin(tenant)) for tenant in tenants}
    name = connection.settings_dict["NAME"]
    with PgBouncer(pool_mode="session", pool_size=3) as bouncer:
        env = child_process_env(name, DATABASE_URL=bouncer.url(name), DB_POOL_MODE="session", DB_CONN_MAX_AGE="0",
                                PUBLIC_API_CACHE="0", LOG_LEVEL="WARNING")
        server = Gunicorn(env, workers=3, threads=8, log=tmp_path / "gunicorn.log").start()
        try:
            def call(tenant, kind):
                headers = {"Host": host_of(tenant)}
                if kind == "list":
                    response = requests.get(f"{server.base_url}/api/v1/posts", timeout=60,
                                            headers={**headers, "x-api-key": tenant.api_key})
                    return tenant, kind, response.status_code, [p["title"] for p in response.json()["data"]["posts"]]
                if kind == "slug":
                    response = requests.get(f"{server.base_url}/api/v1/posts/slug/same-slug", timeout=60,
                                            headers={**headers, "x-api-key": tenant.api_key})
                    return tenant, kind, response.status_code, [response.json()["data"]["post"]["title"]]
                response = requests.get(f"{server.base_url}/api/posts?status=all", timeout=60,
                                        headers={**headers, "Authorization": f"Bearer {tokens[tenant.pk]}"})
                return tenant, kind, response.status_code, [p["title"] for p in response.json()["posts"]]

            calls = [(tenant, kind) for tenant in tenants for kind in ("list", "slug", "dashboard")] * 3
            for _ in range(2):
                for tenant, kind, status, titles in parallel([lambda t=t, k=k: call(t, k) for t, k in calls]):
                    assert (status, titles) == (200, [f"Post of {tenant.subdomain}"]), (kind, server.log.read_text())
            # Another company's key or token on this host: refused, whatever the pool served before.
            a, b = tenants[0], tenants[1]
            assert requests.get(f"{server.base_url}/api/v1/posts", timeout=30,
                                headers={"Host": host_of(a), "x-api-key": b.api_key}).status_code == 401
            assert requests.get(f"{server.base_url}/api/posts", timeout=30, headers={
                "Host": host_of(a), "Authorization": f"Bearer {tokens[b.pk]}"}).status_code == 401
        finally:
            server.stop()
