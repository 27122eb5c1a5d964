"""/metrics: a real gunicorn with two worker processes in Prometheus' multiprocess mode, a known
workload, and scrapes parsed with the Prometheus text parser: the counts move by the workload
whichever worker answered. Only operators' scrapers (token or network) get it."""
from __future__ import annotations

from collections import defaultdict

import pytest
import requests
from django.conf import settings
from django.db import connection
from prometheus_client.parser import text_string_to_metric_families

from apps.core import testing
from apps.core.metrics import route_group
from apps.core.task_queue import celery_app
from apps.core.tasks import outbox_relay
from apps.core.tests.hardening.services import Gunicorn
from conftest import child_process_env

TOKEN = "scrape-token-for-tests"


def scrape(base_url: str, token: str | None = TOKEN) -> dict:
    """{(name, frozenset(labels)): value} of one scrape."""
    headers = {"Host": testing.host_of(None), **({"Authorization": f"Bearer {token}"} if token else {})}
    response = requests.get(f"{base_url}/metrics", headers=headers, timeout=30)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("text/plain")
    values = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            values[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return values


def total(values: dict, name: str, **labels) -> float:
    wanted = set(labels.items())
    return sum(value for (sample, found), value in values.items() if sample == name and wanted <= found)


@pytest.fixture
def metered_server(transactional_db, tmp_path):
    multiproc = tmp_path / "prometheus"
    multiproc.mkdir()
    env = child_process_env(connection.settings_dict["NAME"], DB_CONN_MAX_AGE="0", LOG_LEVEL="WARNING",
                            PROMETHEUS_MULTIPROC_DIR=str(multiproc), METRICS_TOKEN=TOKEN, METRICS_NETWORKS="")
    server = Gunicorn(env, workers=2, log=tmp_path / "gunicorn.log").start()
    yield server
    server.stop()


@pytest.mark.timeout(180)
def test_a_scrape_counts_a_known_workload_across_worker_processes(metered_server, make_tenant):
    base = metered_server.base_url
    tenant = make_tenant()
    host = {"Host": testing.host_of(tenant)}
    before = scrape(base)

    for _ in range(6):
        assert requests.get(f"{base}/api/v1/posts", headers={**host, "x-api-key": tenant.api_key},
                            timeout=30).status_code == 200
    for _ in range(3):
        assert requests.get(f"{base}/api/v1/posts", headers={**host, "x-api-key": "wrong"}, timeout=30).status_code == 401
    for _ in range(2):
        assert requests.get(f"{base}/api/posts", headers=host, timeout=30).status_code == 401
    # a task waiting in the queue (no worker here), and an outcome counted by a task that ran
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    celery_app().send_task("core.outbox_relay", queue=queue)
    outbox_relay.apply()

    after = scrape(base)

    def moved(name, **labels):
        return total(after, name, **labels) - total(before, name, **labels)

    assert moved("cms_http_requests_total", route="public_api", method="GET", status="200") == 6
    assert moved("cms_http_requests_total", route="public_api", method="GET", status="401") == 3
    assert moved("cms_http_requests_total", route="dashboard_api", method="GET", status="401") == 2
    assert moved("cms_http_request_duration_seconds_count", route="public_api") == 9
    assert moved("cms_http_request_duration_seconds_bucket", route="public_api", le="+Inf") == 9
    assert moved("cms_public_api_cache_total", result="miss") + moved("cms_public_api_cache_total", result="hit") == 6
    assert moved("cms_public_api_cache_total", result="hit") >= 4  # the same page again: from the cache
    # the first scrape is counted by the second
    assert moved("cms_http_requests_total", route="metrics", method="GET", status="200") == 1
    assert total(after, "cms_celery_queue_length", queue=queue) >= 1
    assert moved("cms_celery_tasks_total", task="core.outbox_relay", outcome="success") == 1
    assert total(after, "cms_companies", status="trial") >= 1
    assert total(after, "cms_signups_last_day") >= 1
    assert total(after, "cms_db_connections") >= 1
    assert {state for (name, labels) in after if name == "cms_outbox_messages" for key, state in labels} == {
        "waiting", "in_flight", "due", "stuck"}
    # no label names a company
    companies = {tenant.schema_name, tenant.subdomain}
    labels_seen = defaultdict(set)
    for (name, labels) in after:
        for key, value in labels:
            labels_seen[key].add(value)
    assert not any(value in companies for values in labels_seen.values() for value in values)
    # every series the Grafana dashboard charts is one a scrape has
    import json
    import re
    from pathlib import Path

    dashboard = json.loads((Path(settings.BASE_DIR) / "deploy/grafana/cms.json").read_text())
    charted = {re.sub(r"_(total|bucket|count|sum)$", "", name) for panel in dashboard["panels"]
               for target in panel["targets"] for name in re.findall(r"\bcms_[a-z_]+", target["expr"])}
    response = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    exposed = {family.name for family in text_string_to_metric_families(response.text)}
    assert charted and charted <= exposed, charted - exposed


@pytest.mark.timeout(120)
def test_only_operators_scrapers_get_metrics(metered_server, make_tenant):
    base = metered_server.base_url
    root = {"Host": testing.host_of(None)}
    assert requests.get(f"{base}/metrics", headers=root, timeout=30).status_code == 403  # no token, no network
    wrong = requests.get(f"{base}/metrics", headers={**root, "Authorization": "Bearer nope"}, timeout=30)
    assert wrong.status_code == 403 and "cms_" not in wrong.text
    assert scrape(base)  # the token
    # a scraper calls a pod by its address, not by a company's host: the same answer
    by_address = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    assert by_address.status_code == 200 and "cms_http_requests_total" in by_address.text
    # and a company's host gives nothing more to a caller without the token
    tenant = make_tenant()
    assert requests.get(f"{base}/metrics", headers={"Host": testing.host_of(tenant)}, timeout=30).status_code == 403


@pytest.mark.parametrize("path, host, group", [
    ("/api/v1/posts", "acme.example.com", "public_api"), ("/api/posts", "acme.example.com", "dashboard_api"),
    ("/ghost/api/content/posts/", "acme.example.com", "ghost_api"),
    ("/api/auth/login", "acme.example.com", "auth"), ("/api/health", "x", "health"),
    ("/api/auth/register-client", "testserver.local", "auth"), ("/api/companies", "testserver.local", "root_api"),
    ("/posts/123", "acme.example.com", "dashboard_page"), ("/feeds/rss.xml", "acme.example.com", "feeds"),
    ("/metrics", "testserver.local", "metrics"), ("/operator/companies", "testserver.local", "operator"),
])
def test_route_groups_are_a_bounded_set(path, host, group, settings):
    settings.ROOT_DOMAIN = "testserver.local"
    assert route_group(path, host) == group
