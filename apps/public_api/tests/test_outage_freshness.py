"""The public API after a Redis outage shows what was written before Redis came back, whether
Redis comes back with its data (restarted from its snapshot, or reached again after a network
partition) or empty (restarted without persistence, or its keys evicted).

Real parts: a private redis-server (cache and broker) that the tests stop and start, gunicorn
serving the production WSGI app (one worker: what it keeps in memory is what the next request
finds), a Celery worker and beat (the outbox relay every second), on this test's database."""
from __future__ import annotations

import time

import pytest
import requests
from django.conf import settings
from django.db import connection

from apps.content.tests.factories import make_category, make_media, make_post
from apps.core import testing
from apps.core.tests.hardening.services import CeleryBeat, CeleryWorker, Gunicorn, PrivateRedis

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

VISIBLE_WITHIN = 10  # seconds after Redis answers again (the breaker, the relay's second, a task's run)


class Stack:
    def __init__(self, tmp_path, tenant):
        from conftest import child_process_env

        self.tenant, self.tmp = tenant, tmp_path
        self.redis = PrivateRedis().start()
        env = child_process_env(
            connection.settings_dict["NAME"], TEST_REDIS_URL_BASE=f"redis://127.0.0.1:{self.redis.port}",
            TEST_REDIS_DB="0", REDIS_BREAKER_SECONDS="1", OUTBOX_RELAY_SECONDS="1", LOG_LEVEL="INFO")
        self.web = Gunicorn(env, workers=1, log=tmp_path / "gunicorn.log").start()
        self.worker = CeleryWorker(env, queue=settings.CELERY_TASK_DEFAULT_QUEUE, log=tmp_path / "worker.log").start()
        self.beat = CeleryBeat(env, log=tmp_path / "beat.log").start()
        self.token = testing.token_for(tenant, testing.tenant_admin(tenant))
        self.category, self.image = make_category(tenant), make_media(tenant)

    def call(self, method: str, path: str, *, key: bool = False, **kw) -> requests.Response:
        headers = {"Host": testing.host_of(self.tenant)}
        headers.update({"x-api-key": self.tenant.api_key} if key else {"Authorization": f"Bearer {self.token}"})
        return requests.request(method, self.web.base_url + path, headers=headers, timeout=30, **kw)

    def posts(self) -> requests.Response:
        return self.call("GET", "/api/v1/posts?limit=20", key=True)

    def ghost_posts(self) -> requests.Response:
        return requests.get(f"{self.web.base_url}/ghost/api/content/posts/?key={self.tenant.ghost_content_key}",
                            headers={"Host": testing.host_of(self.tenant)}, timeout=30)

    def publish(self, title: str) -> requests.Response:
        return self.call("POST", "/api/posts", json={"postTitle": title, "postContent": "<p>Body</p>",
                                                      "postExcerpt": "Excerpt", "postStatus": "published",
                                                      "categories": [str(self.category.pk)],
                                                      "featuredMediaId": str(self.image.pk)})

    def website(self, url: str) -> requests.Response:
        return self.call("PUT", "/api/client/info", json={
            "name": self.tenant.name, "contactName": "Contact Person", "contactEmail": self.tenant.contact_email,
            "websiteUrl": url})

    def stop(self) -> None:
        for part in (self.beat, self.worker, self.web):
            part.stop()
        self.redis.stop()

    def logs(self) -> str:
        return "\n".join(path.read_text(errors="replace")[-3000:] for path in self.tmp.glob("*.log"))


@pytest.fixture
def stack(tmp_path, make_tenant):
    tenant = make_tenant()
    make_post(tenant, "Written before the outage", slug="before", status="published")
    made = Stack(tmp_path, tenant)
    yield made
    made.stop()


def _until(predicate, seconds: float) -> float | None:
    """Seconds until `predicate()` held (polled), or None if it did not within `seconds`."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if predicate():
            return time.monotonic() - started
        time.sleep(0.25)
    return None


def _stale_reads(read, fresh, *, seconds: float = VISIBLE_WITHIN + 5) -> list[float]:
    """Read for `seconds` from now; the times (seconds from now) of the replies that were not
    `fresh` later than VISIBLE_WITHIN seconds from now."""
    started = time.monotonic()
    stale = []
    while (now := time.monotonic() - started) < seconds:
        if not fresh(read()) and now > VISIBLE_WITHIN:
            stale.append(round(now, 1))
        time.sleep(0.2)
    return stale


def _cached(stack) -> None:
    """The list is in the reply cache (and this worker's copy of it)."""
    assert stack.posts().status_code == 200
    assert _until(lambda: stack.posts().headers.get("X-Cache") == "HIT", 10) is not None, stack.logs()


@pytest.mark.django_db(transaction=True)
def test_a_post_published_while_redis_is_down_is_listed_soon_after_redis_returns_with_its_data(stack):
    """Today: Redis comes back with the content version it had and the replies cached under it: the
    list without the post is served again for up to PUBLIC_API_CACHE_TTL (10 minutes)."""
    _cached(stack)
    stack.redis.stop(keep_data=True)
    published = stack.publish("Written while Redis was down")
    assert published.status_code == 201, published.text
    assert "Written while Redis was down" in stack.posts().text  # served uncached meanwhile

    stack.redis.start()  # with the snapshot taken before the outage: the old version, the old replies
    stale = _stale_reads(stack.posts, lambda reply: "Written while Redis was down" in reply.text)
    assert not stale, f"the list without the post, {stale} s after Redis returned\n{stack.logs()}"
    assert stack.posts().headers.get("X-Cache") == "HIT"  # from the cache again


@pytest.mark.django_db(transaction=True)
def test_after_redis_returns_empty_no_reply_is_built_from_what_a_worker_kept_before_the_outage(stack):
    """A worker keeps what a posts list reads of its company (its settings, its languages) by the
    company's content version. Today Redis restarted empty counts the version again from 0, so
    the numbers of before the outage come back, and the worker's copy of the company kept under
    one of them is used again: the Ghost-compatible list links every post to the old website."""
    assert stack.website("https://before.example").status_code == 200  # the version is 1 now
    listed = stack.ghost_posts()  # built by the worker, which keeps the company under version 1
    assert listed.status_code == 200, listed.text
    assert listed.json()["posts"][0]["url"].startswith("https://before.example/")

    stack.redis.stop()
    stack.redis.start()  # empty
    assert _until(lambda: stack.posts().headers.get("X-Cache") == "MISS", VISIBLE_WITHIN) is not None

    assert stack.website("https://after.example").status_code == 200  # a bump
    stale = _stale_reads(stack.ghost_posts, lambda reply: all(
        post["url"].startswith("https://after.example/") for post in reply.json()["posts"]))
    assert not stale, f"posts linked to the old website {stale} s after the change\n{stack.ghost_posts().text[:600]}"
