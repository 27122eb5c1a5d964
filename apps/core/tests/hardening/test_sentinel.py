"""Redis Sentinel (docs/scaling-engines.md#redis-sentinel), with real processes: a Redis primary, its
replica and three sentinels (quorum 2), a private PostgreSQL, gunicorn, a Celery worker and beat, all
configured with REDIS_SENTINELS only. The primary is killed (SIGKILL) while an editor publishes posts
and a website reads the public API; the sentinels promote the replica. Then:

- the web answered every request: 2xx, or 503 with Retry-After while the primary was gone;
- every post answered 201 is there (the content is PostgreSQL's: nothing acknowledged is lost);
- every published post's webhook arrives (the outbox row of each is sent again by the relay when its
  message was lost with the primary), and the outbox empties;
- the worker and beat carry on against the promoted replica, without a restart.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
import redis

from apps.core.tests.hardening.services import (
    CeleryBeat,
    CeleryWorker,
    Gunicorn,
    Http,
    PrivatePostgres,
    _wait,
    app_env,
    free_port,
    migrate,
    postgres_bin,
)

pytestmark = [pytest.mark.scale, pytest.mark.timeout(600),
              pytest.mark.skipif(postgres_bin() is None or shutil.which("redis-server") is None,
                                 reason="PostgreSQL server binaries or redis-server missing")]

ROOT_DOMAIN = "sentinel.test"
MASTER = "cms"
PASSWORD = "password12345"


class RedisProcess:
    def __init__(self, directory: Path, port: int, *args: str):
        self.dir, self.port, self.args = directory, port, args
        self.process: subprocess.Popen | None = None

    def start(self) -> "RedisProcess":
        self.dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [shutil.which("redis-server"), *self.args], cwd=self.dir, start_new_session=True,
            stdout=open(self.dir / "redis.log", "ab"), stderr=subprocess.STDOUT)  # noqa: SIM115
        _wait(lambda: redis.Redis(port=self.port, socket_timeout=0.5).ping(), 15, f"redis on {self.port}",
              self.dir / "redis.log")
        return self

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2)


class SentinelGroup:
    """A primary, one replica and three sentinels (quorum 2, down after 1 s) on free ports."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="cms-sentinel-"))
        common = ("--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
        self.primary_port, self.replica_port = free_port(), free_port()
        self.primary = RedisProcess(self.dir / "primary", self.primary_port, "--port", str(self.primary_port), *common)
        self.replica = RedisProcess(self.dir / "replica", self.replica_port, "--port", str(self.replica_port), *common,
                                    "--replicaof", "127.0.0.1", str(self.primary_port))
        self.sentinels: list[RedisProcess] = []
        for n in range(3):
            port = free_port()
            folder = self.dir / f"sentinel{n}"
            folder.mkdir(parents=True)
            (folder / "sentinel.conf").write_text(
                f"port {port}\nbind 127.0.0.1\nsentinel monitor {MASTER} 127.0.0.1 {self.primary_port} 2\n"
                f"sentinel down-after-milliseconds {MASTER} 1000\nsentinel failover-timeout {MASTER} 5000\n"
                f"sentinel parallel-syncs {MASTER} 1\n")
            self.sentinels.append(RedisProcess(folder, port, str(folder / "sentinel.conf"), "--sentinel"))

    @property
    def addresses(self) -> str:
        return ",".join(f"127.0.0.1:{sentinel.port}" for sentinel in self.sentinels)

    def start(self) -> "SentinelGroup":
        self.primary.start()
        self.replica.start()
        for sentinel in self.sentinels:
            sentinel.start()
        # the replica in sync, and every sentinel knowing it and the other sentinels
        _wait(lambda: self.replica.client().info("replication")["master_link_status"] == "up", 30, "replica in sync")
        _wait(lambda: all(s.client().sentinel_master(MASTER)["num-slaves"] == 1
                          and s.client().sentinel_master(MASTER)["num-other-sentinels"] == 2 for s in self.sentinels),
              60, "sentinels ready")
        return self

    def primary_port_now(self) -> int | None:
        for sentinel in self.sentinels:
            try:
                return int(sentinel.client().sentinel_get_master_addr_by_name(MASTER)[1])
            except (redis.RedisError, TypeError):
                continue
        return None

    def cleanup(self) -> None:
        for process in (*self.sentinels, self.replica, self.primary):
            process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    from apps.webhooks.tests.receiver import Receiver

    tmp = tmp_path_factory.mktemp("sentinel")
    pg = PrivatePostgres().init().start()
    group = SentinelGroup().start()
    queue = f"sentinel-{uuid.uuid4().hex[:8]}"
    # REDIS_URL gives only the database: its host is a port where nothing listens
    env = app_env(database_url=pg.createdb("cms"), redis_url=f"redis://127.0.0.1:{free_port()}/0",
                  root_domain=ROOT_DOMAIN, queue=queue,
                  extra={"REDIS_SENTINELS": group.addresses, "REDIS_SENTINEL_MASTER": MASTER, "PUBLIC_PORT": "80",
                         "REDIS_BREAKER_SECONDS": "1", "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "1",
                         "OUTBOX_RELAY_SECONDS": "1", "OUTBOX_LEASE_SECONDS": "5", "WEBHOOK_RETRY_BASE_SECONDS": "0.5",
                         "MEDIA_ROOT": str(tmp / "media")})
    env.pop("CELERY_BROKER_URL")  # the broker follows the sentinels too
    web = worker = beat = None
    receiver = Receiver().__enter__()
    try:
        migrate(env)
        web = Gunicorn(env, workers=2, threads=4, log=tmp / "gunicorn.log").start()
        worker = CeleryWorker(env, queue=queue, log=tmp / "worker.log").start(timeout=60)
        beat = CeleryBeat(env, log=tmp / "beat.log").start(timeout=60)
        yield {"pg": pg, "group": group, "web": web, "worker": worker, "beat": beat, "receiver": receiver,
               "env": env, "tmp": tmp}
    finally:
        for process in (beat, worker, web):
            if process is not None:
                process.stop()
        receiver.__exit__(None, None, None)
        group.cleanup()
        pg.cleanup()


def company(stack) -> tuple[Http, Http, str]:
    web, pg = stack["web"], stack["pg"]
    subdomain = f"s{uuid.uuid4().hex[:8]}"
    signup = Http(web.base_url, ROOT_DOMAIN).post("/api/auth/register-client", json={
        "companyName": "Sentinel Company", "contactName": "Owner", "contactEmail": f"{subdomain}@example.com",
        "subdomain": subdomain, "adminUsername": "owner", "adminEmail": f"owner@{subdomain}.example.com",
        "adminPassword": PASSWORD})
    assert signup.status_code == 201, signup.text
    pg.sql("cms", "UPDATE tenants_client SET email_verified_at = now() WHERE subdomain = %s", (subdomain,))
    host = f"{subdomain}.{ROOT_DOMAIN}"
    login = Http(web.base_url, host).post("/api/auth/login", json={"email": f"owner@{subdomain}.example.com",
                                                                   "password": PASSWORD})
    assert login.status_code == 200, login.text
    dash = Http(web.base_url, host, {"Authorization": f"Bearer {login.json()['token']}"})
    key = dash.get("/api/client/info").json()["data"]["apiInfo"]["authentication"]["apiKey"]
    category = dash.post("/api/categories/add", json={"name": "News", "slug": "news"}).json()["category"]["id"]
    return dash, Http(web.base_url, host, {"x-api-key": key}), category


def test_the_primary_killed_fails_over_and_nothing_acknowledged_is_lost(stack):
    group, receiver = stack["group"], stack["receiver"]
    dash, site, category = company(stack)
    from PIL import Image
    import io

    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (10, 120, 200)).save(buffer, "PNG")
    image = dash.post("/api/media/upload", files={"file": ("cover.png", buffer.getvalue(), "image/png")},
                      data={"fileName": "cover.png", "altText": "Cover"})
    assert image.status_code == 201, image.text
    media = image.json()["media"]["id"]
    endpoint = dash.post("/api/webhooks", json={"url": receiver.url, "events": ["post.published"]})
    assert endpoint.status_code == 201, endpoint.text
    receiver.secret = endpoint.json()["endpoint"]["secret"]

    def publish(title: str):
        return dash.post("/api/posts", json={"postTitle": title, "postContent": "<p>x</p>", "postExcerpt": "Excerpt",
                                             "postStatus": "published", "categories": [category],
                                             "featuredMediaId": media})

    first = publish("Before the failover")
    assert first.status_code == 201, first.text
    receiver.wait_for(1, timeout=60)  # the worker sends through the sentinels' primary

    stop = threading.Event()
    acknowledged: list[str] = []
    answers: list[tuple[str, int, str | None]] = []

    def write():
        n = 0
        while not stop.is_set():
            n += 1
            reply = publish(f"Written through the failover {n}")
            answers.append(("write", reply.status_code, reply.headers.get("Retry-After")))
            if reply.status_code == 201:
                acknowledged.append(reply.json()["post"]["id"])
            time.sleep(0.05)

    def read():
        while not stop.is_set():
            reply = site.get("/api/v1/posts", params={"limit": 5})
            answers.append(("read", reply.status_code, reply.headers.get("Retry-After")))
            time.sleep(0.05)

    threads = [threading.Thread(target=write), threading.Thread(target=read)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(2)
        killed_at = time.monotonic()
        group.primary.kill()
        _wait(lambda: group.primary_port_now() == group.replica_port, 60, "the sentinels' failover")
        failover = time.monotonic() - killed_at
        time.sleep(5)  # writes and reads go on against the promoted replica
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    print(f"\nfailover in {failover:.1f} s; {len(answers)} requests ({sum(a[1] == 503 for a in answers)} answered 503), "
          f"{len(acknowledged)} posts acknowledged")

    # the web answered every request: 2xx, or 503 with Retry-After while the primary was gone
    refused = [answer for answer in answers if answer[1] >= 300]
    assert all(status == 503 and retry for _, status, retry in refused), refused[:5]
    assert any(kind == "write" and status == 201 for kind, status, _ in answers[-20:]), answers[-20:]
    assert len(acknowledged) > 5

    # every acknowledged post is there
    stored, page = set(), 1
    while True:  # every page of the list (an idle machine writes more than one page of posts here)
        rows = dash.get("/api/posts", params={"status": "all", "limit": 100, "page": page}).json()["posts"]
        stored |= {post["id"] for post in rows}
        if len(rows) < 100:
            break
        page += 1
    assert set(acknowledged) <= stored

    # every published post's webhook arrives (each one at least once: a message lost with the primary
    # is sent again by the outbox relay), and the outbox holds none of them any more
    wanted = {first.json()["post"]["id"], *acknowledged}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        delivered = {d["json"]["data"]["post"]["id"] for d in list(receiver.received)
                     if d["json"].get("event") == "post.published"}
        if wanted <= delivered:
            break
        time.sleep(0.5)
    missing = wanted - delivered
    assert not missing, (f"{len(missing)} webhooks never arrived\n"
                         f"{(stack['tmp'] / 'worker.log').read_text(errors='replace')[-3000:]}")
    _wait(lambda: stack["pg"].sql("cms", "SELECT count(*) FROM core_outbox WHERE task = 'webhooks.deliver'")[0][0] == 0,
          120, "the outbox's webhook rows done")

    # the worker and beat carry on (no restart): a new post's webhook arrives
    count = len(receiver.received)
    after = publish("After the failover")
    assert after.status_code == 201, after.text
    receiver.wait_for(count + 1, timeout=60)
    assert stack["worker"].process.poll() is None and stack["beat"].process.poll() is None
