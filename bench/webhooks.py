"""Webhook delivery latency on this machine: from the commit of a publish (PUT status=published
through the dashboard API) to the receiver getting the signed POST, through a real Celery worker
and a real HTTP receiver on 127.0.0.1. Runs on its own database (cms_bench_webhooks), Redis key
prefix and queue.

Each publish waits for its delivery before the next, so the figure is one event's path, not a
queue: commit -> fan-out in the web process (the post read in the public API's shape, the delivery
row, the task sent) -> worker picks the task -> signed POST -> receiver. BENCH_SMOKE=1: 5 publishes."""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import REDIS_URL, announce, fresh_database, fresh_redis, knob  # noqa: E402

PUBLISHES = knob("BENCH_PUBLISHES", 100, 5)
QUEUE = "cms-bench-webhooks"
env = {
    "DATABASE_URL": fresh_database("cms_bench_webhooks"),
    "REDIS_URL": REDIS_URL,
    "CELERY_BROKER_URL": REDIS_URL,
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "CELERY_TASK_DEFAULT_QUEUE": QUEUE,
    "CACHE_KEY_PREFIX": "bench-webhooks",
    "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "1",  # the receiver listens on 127.0.0.1
}
os.environ.update(env)

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

import apps.webhooks.subscribers as webhook_subscribers  # noqa: E402
from apps.content.tests.conftest import make_category, make_media, post_payload  # noqa: E402
from apps.core.testing import Api, create_tenant, tenant_admin  # noqa: E402
from apps.webhooks.tests.receiver import Receiver  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)
fresh_redis(REDIS_URL, "bench-webhooks", QUEUE)
tenant = create_tenant("bench-webhooks")
api = Api(tenant, user=tenant_admin(tenant))
category, media = make_category(tenant), make_media(tenant)

# The instant each publish commits: an on_commit callback registered just before the service's
# own (on_commit callbacks run in order, right after the commit); and when its fan-out is done.
commits: list[float] = []
fanned_out: list[float] = []
_emit = webhook_subscribers.event_emit


def timed_emit(**kwargs):
    transaction.on_commit(lambda: commits.append(time.monotonic()))
    _emit(**kwargs)
    transaction.on_commit(lambda: fanned_out.append(time.monotonic()))


webhook_subscribers.event_emit = timed_emit  # what the webhooks subscriber calls


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


log = open(Path(tempfile.gettempdir()) / "cms-bench-webhooks-worker.log", "wb")  # noqa: SIM115
worker = subprocess.Popen(
    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency", "2",
     "--queues", QUEUE, "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
    cwd=ROOT, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])},
    stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
)
try:
    with Receiver() as receiver:
        created = api.post("/api/webhooks", {"url": receiver.url, "events": ["post.published"]}).json()["endpoint"]
        receiver.secret = created["secret"]
        drafts = [api.post("/api/posts/upload", post_payload(category, media, postTitle=f"Bench post {n}"))
                  .json()["post"] for n in range(PUBLISHES + 3)]
        latency, fan_out = [], []
        for n, draft in enumerate(drafts):
            response = api.put(f"/api/posts/{draft['id']}", {"status": "published"})
            assert response.status_code == 200, response.content
            got = receiver.wait_for(n + 1, timeout=30)[n]
            assert got["valid"] and got["json"]["data"]["post"]["id"] == draft["id"]
            if n >= 3:  # the first ones warm the worker's processes and connections
                latency.append(got["at"] - commits[n])
                fan_out.append(fanned_out[n] - commits[n])
    announce()
    print(f"webhook delivery after a publish, {PUBLISHES} publishes one after the other, "
          f"Celery prefork worker (2 processes), receiver on 127.0.0.1:")
    print(f"  commit to receiver        median {ms(statistics.median(latency))}, p90 {ms(pct(latency, 90))}, "
          f"max {ms(max(latency))}")
    print(f"  of which fan-out (web)    median {ms(statistics.median(fan_out))}, p90 {ms(pct(fan_out, 90))}")
finally:
    os.killpg(worker.pid, 15)
    worker.wait(20)
