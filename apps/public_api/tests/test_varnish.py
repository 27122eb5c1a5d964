"""The HTTP cache tier: a real varnishd (the system package with varnish-modules) running
deploy/varnish/default.vcl on a free port in front of gunicorn on the test database, with a real
Celery worker sending the app's purges (EDGE_CACHE_URLS)."""
from __future__ import annotations

import time

import pytest
import requests
from django.db import connection

from django_tenants.utils import schema_context

from apps.content.services import post_update
from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.content.tests.factories import make_post
from apps.core.testing import host_of, tenant_admin, token_for
from apps.core.tests.hardening.services import Gunicorn, Varnish, varnishd_bin
from conftest import WorkerProcess, child_process_env

pytestmark = [pytest.mark.skipif(varnishd_bin() is None, reason="varnish + varnish-modules not installed (make varnish)"),
              pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


class Edge:
    def __init__(self, varnish: Varnish, app: Gunicorn):
        self.varnish, self.app = varnish, app

    def get(self, tenant, path: str, key: str | None, **headers):
        if key is not None:
            headers["x-api-key"] = key
        return requests.get(self.varnish.base_url + path, headers={"Host": host_of(tenant), **headers}, timeout=30)

    def app_requests(self) -> int:
        """Requests Varnish sent to the app so far."""
        return self.varnish.stat("MAIN.backend_req")


@pytest.fixture
def edge(tmp_path, request):
    param = getattr(request, "param", (600, 60))  # the VCL's default limit, or {"rate": ..., "env": {...}}
    rate, extra = (param, {}) if isinstance(param, tuple) else (param["rate"], param["env"])
    name = connection.settings_dict["NAME"]
    app = Gunicorn(child_process_env(name, LOG_LEVEL="WARNING", **extra), workers=1, threads=4,
                   log=tmp_path / "gunicorn.log")
    varnish = Varnish(app.port, rate_limit=rate)
    app.env["EDGE_CACHE_URLS"] = varnish.base_url
    worker = WorkerProcess(name)
    worker.env["EDGE_CACHE_URLS"] = varnish.base_url
    app.start()
    varnish.start()
    worker.start()
    try:
        yield Edge(varnish, app)
    finally:
        worker.stop()
        varnish.stop()
        app.stop()


def titles_and_ids(response) -> dict[str, str]:
    assert response.status_code == 200, response.text
    return {post["title"]: post["id"] for post in response.json()["data"]["posts"]}


def titles(response) -> list[str]:
    assert response.status_code == 200, response.text
    return [post["title"] for post in response.json()["data"]["posts"]]


def test_hits_are_answered_by_varnish_per_host_and_key(edge, make_tenant):
    a, b = make_tenant(), make_tenant()
    make_post(a, "A's post", slug="same", status="published")
    make_post(b, "B's post", slug="same", status="published")
    make_post(a, "A's draft", slug="draft", status="draft")

    first = edge.get(a, "/api/v1/posts", a.api_key)
    assert titles(first) == ["A's post"] and first.headers["X-Edge"] == "MISS"
    assert "s-maxage=" in first.headers["Cache-Control"]
    post_key = "p-" + titles_and_ids(first)["A's post"].replace("-", "")[:12]
    assert first.headers["Surrogate-Key"] == f"host-{host_of(a)} posts-{host_of(a)} {post_key}"
    assert first.headers["Cache-Tag"] == first.headers["Surrogate-Key"].replace(" ", ",")
    before = edge.app_requests()
    second = edge.get(a, "/api/v1/posts", a.api_key)
    assert titles(second) == ["A's post"] and second.headers["X-Edge"] == "HIT"
    # A conditional read of a cached reply: 304 from Varnish.
    not_modified = edge.get(a, "/api/v1/posts", a.api_key, **{"If-None-Match": second.headers["ETag"]})
    assert not_modified.status_code == 304
    # One object for every client (requests asks for gzip): the tier keeps and sends the plain bytes.
    plain = edge.get(a, "/api/v1/posts", a.api_key, **{"Accept-Encoding": "identity"})
    assert plain.headers["X-Edge"] == "HIT" and plain.content == second.content == first.content
    assert "Content-Encoding" not in second.headers and "Accept-Encoding" not in second.headers["Vary"]
    assert edge.app_requests() == before  # none reached the app

    # Tenant A's cached reply is never served for B's host or key, nor for a wrong key.
    assert titles(edge.get(b, "/api/v1/posts", b.api_key)) == ["B's post"]
    assert edge.get(b, "/api/v1/posts", a.api_key).status_code == 401
    assert edge.get(a, "/api/v1/posts", b.api_key).status_code == 401
    assert edge.get(a, "/api/v1/posts", a.api_key + "x").status_code == 401
    assert edge.get(a, "/api/v1/posts", None).status_code == 401
    assert edge.get(b, "/api/v1/posts/slug/same", b.api_key).json()["data"]["post"]["title"] == "B's post"

    # Drafts read with the preview key are cached under that key only: the content key gets the 403.
    preview = edge.get(a, "/api/v1/posts?status=all", a.preview_key)
    assert set(titles(preview)) == {"A's post", "A's draft"}
    assert titles(edge.get(a, "/api/v1/posts?status=all", a.preview_key)) == titles(preview)
    for _ in range(2):
        leaked = edge.get(a, "/api/v1/posts?status=all", a.api_key)
        assert leaked.status_code == 403 and "A's draft" not in leaked.text


@pytest.mark.parametrize("edge", [{"rate": (3, 60), "env": {"PUBLIC_API_RATE_LIMIT": "3"}}], indirect=True)
def test_the_per_key_rate_limit_holds_at_the_edge(edge, make_tenant, settings):
    settings.PUBLIC_API_RATE_LIMIT = 3  # this process writes the companies' host entries too
    a = make_tenant()
    statuses = [edge.get(a, "/api/v1/posts", a.api_key).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    refused = edge.get(a, "/api/v1/posts", a.api_key)
    assert refused.json()["error"] == "rate_limited" and refused.headers["Retry-After"]


@pytest.mark.parametrize("edge", [{"rate": (3, 60), "env": {"PUBLIC_API_RATE_LIMIT": "3",
                                                             "PUBLIC_API_RATE_LIMITS": "business:6"}}], indirect=True)
def test_each_company_gets_its_plans_limit_at_the_edge(edge, make_tenant, settings):
    settings.PUBLIC_API_RATE_LIMIT, settings.PUBLIC_API_RATE_LIMITS = 3, {"business": 6}  # as the app's
    trial, business = make_tenant(plan="trial"), make_tenant(plan="business")
    first = edge.get(business, "/api/v1/posts", business.api_key)
    assert first.status_code == 200 and first.headers["X-RateLimit-Limit"] == "6"
    # Varnish learned the business plan's 6 from that reply: six more reads (hits, which never reach
    # the app's own counter) pass, the next is refused.
    statuses = [edge.get(business, "/api/v1/posts", business.api_key).status_code for _ in range(7)]
    assert statuses == [200] * 6 + [429]
    # The trial company keeps the default 3.
    statuses = [edge.get(trial, "/api/v1/posts", trial.api_key).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def _eventually(check, seconds: float = 1.0):
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.05)


def test_writes_rotation_and_suspension_purge_the_edge(edge, make_tenant, settings):
    a, b = make_tenant(), make_tenant()
    make_post(a, "Old news", slug="old", status="published")
    make_post(b, "B's post", slug="b", status="published")
    token = token_for(a, tenant_admin(a))
    for tenant in (a, b):
        edge.get(tenant, "/api/v1/posts", tenant.api_key)
        assert edge.get(tenant, "/api/v1/posts", tenant.api_key).headers["X-Edge"] == "HIT"

    # A publish through the dashboard API: the next read is fresh within 1 s.
    body = post_payload(make_category(a), make_media(a), postTitle="Fresh news", postStatus="published")
    created = requests.post(f"{edge.app.base_url}/api/posts/upload", json=body, timeout=30,
                            headers={"Host": host_of(a), "Authorization": f"Bearer {token}"})
    assert created.status_code == 201, created.text
    published = time.monotonic()
    assert _eventually(lambda: "Fresh news" in titles(edge.get(a, "/api/v1/posts", a.api_key)))
    assert time.monotonic() - published < 1.5
    # Another company's cached replies were not purged.
    assert edge.get(b, "/api/v1/posts", b.api_key).headers["X-Edge"] == "HIT"

    # A rotated key is refused at once (its cached copies are gone), the new one reads.
    old_key = a.api_key
    assert edge.get(a, "/api/v1/posts", old_key).headers["X-Edge"] == "HIT"
    rotated = requests.post(f"{edge.app.base_url}/api/client/api-key/rotate", timeout=30,
                            headers={"Host": host_of(a), "Authorization": f"Bearer {token}"})
    assert rotated.status_code == 200, rotated.text
    assert _eventually(lambda: edge.get(a, "/api/v1/posts", old_key).status_code == 401)
    a.refresh_from_db()
    assert "Fresh news" in titles(edge.get(a, "/api/v1/posts", a.api_key))

    # A suspended company: its cached replies stop at once (the app's 403).
    from lifecycle.services import client_set_status

    assert edge.get(b, "/api/v1/posts", b.api_key).headers["X-Edge"] == "HIT"
    settings.EDGE_CACHE_URLS = [edge.varnish.base_url]  # this process purges too (through the worker)
    client_set_status(client=b, status="suspended")
    assert _eventually(lambda: edge.get(b, "/api/v1/posts", b.api_key).status_code == 403)


def _edge_status(edge, tenant, path: str, key: str) -> str:
    response = edge.get(tenant, path, key)
    assert response.status_code == 200, response.text
    return response.headers["X-Edge"]


def test_a_post_write_purges_the_replies_it_changed_and_no_others(edge, make_tenant, settings):
    a = make_tenant()
    host = host_of(a)
    first = make_post(a, "First", slug="first", status="published")
    second = make_post(a, "Second", slug="second", status="published")
    draft = make_post(a, "Draft", slug="draft", status="draft")
    content = {"list": "/api/v1/posts", "first": "/api/v1/posts/slug/first", "second": "/api/v1/posts/slug/second",
               "search": "/api/v1/posts?search=first", "categories": "/api/v1/categories"}
    preview = "/api/v1/posts?status=all"
    for path in content.values():
        edge.get(a, path, a.api_key)
    edge.get(a, preview, a.preview_key)
    assert {name: _edge_status(edge, a, path, a.api_key) for name, path in content.items()} == dict.fromkeys(content, "HIT")

    # The keys each reply carries: its host, its kind of list, each post in it; the preview key's "drafts".
    keys = {name: set(edge.get(a, path, a.api_key).headers["Surrogate-Key"].split()) for name, path in content.items()}
    p_first, p_second = (f"p-{post.pk.hex[:12]}" for post in (first, second))
    assert keys["first"] == {f"host-{host}", p_first}
    assert keys["list"] == {f"host-{host}", f"posts-{host}", p_first, p_second}
    assert keys["search"] == {f"host-{host}", f"search-{host}", p_first}
    assert keys["categories"] == {f"host-{host}"}
    assert f"drafts-{host}" in edge.get(a, preview, a.preview_key).headers["Surrogate-Key"].split()

    settings.EDGE_CACHE_URLS = [edge.varnish.base_url]  # this process's writes purge (through the worker)
    admin = tenant_admin(a)

    # A draft edited: the preview key's replies are fresh within 1 s; what the content key reads stays cached.
    with schema_context(a.schema_name):
        post_update(actor=admin, post=draft, title="Draft, edited")
    assert _eventually(lambda: "Draft, edited" in titles(edge.get(a, preview, a.preview_key)))
    assert {name: _edge_status(edge, a, path, a.api_key) for name, path in content.items()} == dict.fromkeys(content, "HIT")

    # A typo fixed in a published post: its page, the lists that show it and the searches are fresh;
    # the other post's page and the categories are still answered by the edge.
    with schema_context(a.schema_name):
        post_update(actor=admin, post=first, title="First, fixed")
    assert _eventually(lambda: edge.get(a, content["first"], a.api_key).json()["data"]["post"]["title"] == "First, fixed")
    assert "First, fixed" in titles(edge.get(a, content["list"], a.api_key))
    assert titles(edge.get(a, content["search"], a.api_key)) == ["First, fixed"]
    assert _edge_status(edge, a, content["second"], a.api_key) == "HIT"
    assert _edge_status(edge, a, content["categories"], a.api_key) == "HIT"

    # Publishing changes every list: the whole company's replies go.
    with schema_context(a.schema_name):
        post_update(actor=admin, post=draft, status="published")
    assert _eventually(lambda: "Draft, edited" in titles(edge.get(a, content["list"], a.api_key)))
    assert _edge_status(edge, a, content["categories"], a.api_key) == "MISS"
    assert _edge_status(edge, a, content["second"], a.api_key) == "MISS"


def test_a_translation_renamed_or_moved_purges_the_replies_that_name_it(edge, make_tenant, settings):
    """docs/translations.md: a new slug of a post with translations changes its group's other
    replies (their `translations` name it), a post moved to another language changes that
    language's lists; neither reply holds the post's own key, so the company's replies go."""
    from apps.content.models import Post
    from tenants.models import Client

    a = make_tenant()
    Client.objects.filter(pk=a.pk).update(languages=["en", "fr"])
    launch = make_post(a, "Launch", slug="launch", status="published")
    french = make_post(a, "Lancement", slug="lancement", status="published", language="fr")
    alone = make_post(a, "Seul", slug="seul", status="published", language="fr")
    with schema_context(a.schema_name):
        Post.objects.filter(pk=french.pk).update(translation_group=launch.translation_group)
    english = "/api/v1/posts/slug/launch?locale=en"

    def french_slug() -> str:
        post = edge.get(a, english, a.api_key).json()["data"]["post"]
        return {t["locale"]: t["slug"] for t in post["translations"]}.get("fr", "")

    assert french_slug() == "lancement"
    assert titles(edge.get(a, "/api/v1/posts", a.api_key)) == ["Launch"]  # the default language's
    assert _edge_status(edge, a, english, a.api_key) == "HIT"
    assert _edge_status(edge, a, "/api/v1/posts", a.api_key) == "HIT"

    settings.EDGE_CACHE_URLS = [edge.varnish.base_url]
    admin = tenant_admin(a)
    with schema_context(a.schema_name):
        post_update(actor=admin, post=french, custom_slug="lancement-2024")
    assert _eventually(lambda: french_slug() == "lancement-2024")
    with schema_context(a.schema_name):
        post_update(actor=admin, post=alone, language="en")
    assert _eventually(lambda: sorted(titles(edge.get(a, "/api/v1/posts", a.api_key))) == ["Launch", "Seul"])
