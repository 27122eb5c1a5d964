"""make bench-newsletter: one newsletter send to 100,000 members (BENCH_MEMBERS; BENCH_SMOKE=1: 500)
through a real Celery worker to a real SMTP server, beside its anchor in the same run; then the same
send with the worker killed three times during it, every email counted at the SMTP server.

- The SMTP server: aiosmtpd in a process of its own (bench/newsletter_smtp.py), counting each message
  by envelope recipient and Message-ID.
- The worker: `celery -A config worker` (prefork, 2 processes, as the image runs it) on the bench's
  own database (cms_bench_newsletter), Redis key prefix and queue; the send goes as the product sends
  it: POST /api/posts/{id}/send on the dashboard API (services.send_create -> outbox -> the task ->
  apps/newsletters/delivery.py, NEWSLETTER_SEND_CONNECTIONS sender threads, Django's SMTP backend
  through anymail's interface). The company is made by the product's sign-up (client_register); its
  members are test data, written with COPY (a member import's path is not what is measured).
- The anchor: a bare sender, plain smtplib over as many connections as the product's sender threads
  (one thread each), sending the bytes of one of the send's emails as the product made them, to every
  member, to the same server: what sending from Python to that server costs here.
- Public reads: GETs of /api/v1/posts (a cached page, and a new query string each time: the list from
  PostgreSQL) against granian (python -m config.serve, as the image serves it) on the same database,
  BENCH_READS pairs idle, one pair every BENCH_READ_PAUSE seconds as during the send (what is
  compared), and as many back to back (shown beside: the server's floor); then one pair every
  BENCH_READ_PAUSE seconds during the send. Sent by a process of their own (bench/newsletter_reads.py),
  as a website's server sends them, not by a thread that would wait for this process's interpreter
  lock while it samples the send.
- Worker memory: the RSS of the worker's processes, sampled during the send (before it, at 10 % of
  the emails, the peak, and after the last).
- Worker killed: a second send (another post) during which the worker's processes get SIGKILL at
  BENCH_KILLS moments spread over the send (by the emails the server has counted), each time started
  again at once. The outbox (its relay run here every second, as beat runs it) sends the task again
  when the send's lease ends, and the rows the dead worker held are claimed again when theirs ends:
  both leases are BENCH_LEASE_SECONDS (the product's defaults, 180 and 120 s, would make each kill
  wait minutes). Counted at the server: members missing, members with two or more copies, and with
  two different emails (two Message-IDs).
- CPU per email: user + system seconds (/proc) of the worker's processes, of the PostgreSQL backends of
  its connections (PGAPPNAME names them) and of the SMTP server during the send, and of the bare
  sender and the server during its run: on a machine with few cores the rates follow these.
- Where the time goes: the product's sender (delivery._Sender) run in this process, one thread, on
  BENCH_PROFILE_EMAILS emails of a third send, each step timed, wall and CPU (the member's email made,
  MIME to bytes, the SMTP exchange, the statements and the commit).

Goals (from the issue): the send within 300 s at 100,000 members, at >= 50 % of the bare sender's
rate, worker memory flat (BENCH_RSS_GROWTH_MB, 20, from 10 % of the send to its end), public reads'
p99 during the send within 2x their idle p99, and every member exactly one email with the worker
killed, counted at the SMTP server. The speed goals are reported, not asserted. The exit status is 1
when the run fails or exactly-once does: a member missing, a member with two different emails, or more
second copies than the product's bound (one per sender thread per kill: a worker killed between the
server's acceptance of an email and its mark sends it again, with the one Message-ID;
docs/newsletters.md#exactly-once). Such copies within the bound are counted and shown as the issue's
goal missed; BENCH_STRICT_ONCE=1 fails the run on them too.

Environment: BENCH_MEMBERS (100000), BENCH_CONNECTIONS (NEWSLETTER_SEND_CONNECTIONS: 8), BENCH_KILLS
(3), BENCH_LEASE_SECONDS (10), BENCH_READS (600), BENCH_READ_PAUSE (0.1), BENCH_RSS_GROWTH_MB (20),
BENCH_PROFILE_EMAILS (2000), BENCH_WEB_WORKERS (2), BENCH_WORKER_CPU_SHARES (256, the deployment's
cpu_shares: the worker's CPU weight in a control group of its own where root may make one, and the
bare sender's while it runs; idle: cpu.idle, as systemd's CPUWeight=idle; 0: the default weight),
BENCH_SMTP_CPU_SHARES (0: the SMTP server at the default weight; a number or idle as for the worker:
the provider's side, which a deployment does not run on its web machine), BENCH_STRICT_ONCE (0),
BENCH_KEEP (0: the database dropped at the end), BENCH_REDIS_URL.
BENCH_SMOKE=1: 500 members, lease 3 s, 50 reads, 200 emails profiled.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import common, servers  # noqa: E402
from bench.common import SMOKE, announce, knob  # noqa: E402

MEMBERS = knob("BENCH_MEMBERS", 100_000, 500)
CONNECTIONS = knob("BENCH_CONNECTIONS", 8)  # the product's NEWSLETTER_SEND_CONNECTIONS
KILLS = knob("BENCH_KILLS", 3)
LEASE = knob("BENCH_LEASE_SECONDS", 10, 3)
READS = knob("BENCH_READS", 600, 50)
READ_PAUSE = knob("BENCH_READ_PAUSE", 0.1)
RSS_GROWTH_MB = knob("BENCH_RSS_GROWTH_MB", 20.0)
PROFILE_EMAILS = knob("BENCH_PROFILE_EMAILS", 2000, 200)
WEB_WORKERS = knob("BENCH_WEB_WORKERS", 2)
STRICT_ONCE = knob("BENCH_STRICT_ONCE", False)
KEEP = knob("BENCH_KEEP", False)  # keep the database (cms_bench_newsletter) at the end, for a look
# The worker's CPU weight, as the deployment gives it (docker-compose.yml: cpu_shares 256, a quarter
# of the default 1024); "idle": the CPU only when nothing else wants it (systemd's CPUWeight=idle,
# the group's cpu.idle); 0: none (the worker competes with the web as an equal).
WORKER_CPU_SHARES = knob("BENCH_WORKER_CPU_SHARES", "256")
# The SMTP server's (the provider's stand-in), the same way; 0: the default weight.
SMTP_CPU_SHARES = knob("BENCH_SMTP_CPU_SHARES", "0")
for _name, _value in (("BENCH_WORKER_CPU_SHARES", WORKER_CPU_SHARES), ("BENCH_SMTP_CPU_SHARES", SMTP_CPU_SHARES)):
    if _value != "idle" and not _value.isdigit():
        sys.exit(f"{_name}={_value!r}: a number of shares (1024 is the default), idle or 0")
BOUND = CONNECTIONS * KILLS  # second copies the product allows: one per sender thread per kill
GOAL_SECONDS, GOAL_RATIO, GOAL_READS = 300.0, 0.5, 2.0
DATABASE = "cms_bench_newsletter"
SUBDOMAIN = "newsletter"
HOST = f"{SUBDOMAIN}.localhost"
QUEUE = "cms-bench-newsletter"
WORKER_APP = "bench-newsletter-worker"  # the application_name of the worker's connections (PGAPPNAME)
LOG = Path(tempfile.gettempdir()) / "cms-bench-newsletter-worker.log"


def email_of(n: int) -> str:
    return f"m{n:06d}@example.com"


# --- CPU weights -------------------------------------------------------------------------------------
class CpuWeight:
    """A CPU control group of its own for the worker (or the SMTP server), with the deployment's
    weight: cgroup v1's cpu.shares (1024 is the default) or v2's cpu.weight (100 is the default; the
    same fraction). Where this process may not make one (not root, no cpu controller), `reason` says
    why and the process runs at the default weight."""

    def __init__(self, shares: str, name: str = "worker", knob_name: str = "BENCH_WORKER_CPU_SHARES"):
        self.path, self.reason, self.shares = None, f"off ({knob_name}=0)", shares
        if shares in ("", "0"):
            return
        v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
        try:
            if (v1 / "cpu.shares").exists():
                root = v1
            elif "cpu" in (v2 / "cgroup.controllers").read_text().split():
                root = v2
            else:
                self.reason = "no cpu controller here"
                return
            if shares == "idle":
                setting = ("cpu.idle", "1")  # the same file in both versions
            elif root == v1:
                setting = ("cpu.shares", shares)
            else:
                setting = ("cpu.weight", str(max(1, round(int(shares) * 100 / 1024))))
            path = root / f"cms-bench-newsletter-{name}-{os.getpid()}"
            path.mkdir(exist_ok=True)
            try:
                (path / setting[0]).write_text(setting[1])
            except OSError:
                path.rmdir()
                raise
            self.path, self.reason = path, None
        except OSError as exc:
            self.reason = f"no control group could be made here ({exc.strerror})"

    def describe(self) -> str:
        if not self.path:
            return f"the default CPU weight: {self.reason}"
        return ("the CPU only when nothing else wants it (cpu.idle" if self.shares == "idle" else
                f"CPU weight {self.shares} of 1024 (cpu.shares") + ", a control group of its own)"

    def wrap(self, command: list[str]) -> list[str]:
        """`command` started under the weight: a shell puts itself in the group, then becomes the
        command (same process), so it and every process it starts (the pool's) run under it."""
        if not self.path:
            return command
        return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.path / "cgroup.procs"), *command]

    def own_group(self) -> str:
        """This process's group in the hierarchy the weight's group is in (/proc/self/cgroup)."""
        v1 = self.path.parent.name == "cpu"
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, group = line.split(":", 2)
            if (v1 and "cpu" in controllers.split(",")) or (not v1 and controllers == ""):
                return group
        return "/"

    @contextlib.contextmanager
    def this_process(self):
        """This process under the weight meanwhile (the anchor's sender: the same CPU share as the
        product's), then back in its own group."""
        if not self.path:
            yield
            return
        home = self.path.parent / self.own_group().lstrip("/") / "cgroup.procs"
        (self.path / "cgroup.procs").write_text(str(os.getpid()))
        try:
            yield
        finally:
            home.write_text(str(os.getpid()))

    def remove(self) -> None:
        deadline = time.monotonic() + 10
        while self.path and time.monotonic() < deadline:
            try:
                self.path.rmdir()  # once its processes are gone (the pool's may outlive the main one briefly)
                return
            except OSError:
                time.sleep(0.2)


# --- the SMTP server ---------------------------------------------------------------------------------
class SmtpServer:
    """bench/newsletter_smtp.py in its own process, asked over its stdin."""

    def __init__(self, weight: CpuWeight):
        self.process = subprocess.Popen(weight.wrap([sys.executable, str(ROOT / "bench" / "newsletter_smtp.py")]),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        start_new_session=True)
        first = self.process.stdout.readline().split()
        if first[:1] != ["listening"]:
            raise RuntimeError(f"the SMTP server did not start: {first}")
        self.port = int(first[1])

    def ask(self, command: str) -> dict:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def count(self) -> int:
        return self.ask("count")["messages"]

    def received(self) -> dict[str, list[str]]:
        """{recipient: [Message-ID of each copy]} of what came since the last reset."""
        path = Path(tempfile.gettempdir()) / "cms-bench-newsletter-received.json"
        self.ask(f"dump {path}")
        found = json.loads(path.read_text())
        path.unlink()
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


smtp_weight = CpuWeight(SMTP_CPU_SHARES, "smtp", "BENCH_SMTP_CPU_SHARES")
try:
    smtp = SmtpServer(smtp_weight)
except Exception:
    smtp_weight.remove()
    raise
common.fresh_database(DATABASE)
ENV = {
    **os.environ,
    "DATABASE_URL": f"{common.server_url()}/{DATABASE}",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
    "ROOT_DOMAIN": "localhost",
    "DEBUG": "0",
    "LOG_LEVEL": "WARNING",
    "SCHEMA_POOL_SIZE": "0",
    "EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}",
    "NEWSLETTER_EMAIL_BACKEND": "",
    "NEWSLETTER_SEND_CONNECTIONS": str(CONNECTIONS),
    "PUBLIC_API_RATE_LIMIT": "1000000000",  # one key reads all along; the limit is still checked
    "CELERY_TASK_ALWAYS_EAGER": "0",
}
os.environ.update({k: v for k, v in ENV.items() if k != "PYTHONPATH"})
common.use_own_redis("newsletter")  # REDIS_URL, the broker, CACHE_KEY_PREFIX, the queue cms-bench-newsletter
ENV.update({k: os.environ[k] for k in ("REDIS_URL", "CELERY_BROKER_URL", "CACHE_KEY_PREFIX",
                                       "CELERY_TASK_DEFAULT_QUEUE")})

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.utils import timezone  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.content.models import Post  # noqa: E402
from apps.core import outbox  # noqa: E402
from apps.core.testing import Api, tenant_admin  # noqa: E402
from apps.newsletters.models import Delivery, Send  # noqa: E402
from apps.newsletters.services import newsletters_default  # noqa: E402
from bench import public_api_data  # noqa: E402
from lifecycle.services import client_register  # noqa: E402


# --- the worker --------------------------------------------------------------------------------------
class Worker:
    """`celery -A config worker` (prefork, 2 processes) in its own process group; its log appended to LOG."""

    def __init__(self, env: dict, weight: CpuWeight):
        self.env, self.process, self.weight = env, None, weight

    def start(self) -> float:
        """Started; returns the seconds it took to be ready."""
        started = time.monotonic()
        offset = LOG.stat().st_size if LOG.exists() else 0
        with open(LOG, "ab") as log:
            self.process = subprocess.Popen(self.weight.wrap(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency", "2",
                 "--queues", QUEUE, "--loglevel", "INFO", "--without-gossip", "--without-mingle",
                 "--without-heartbeat"]),
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited: {LOG.read_bytes()[offset:][-3000:].decode(errors='replace')}")
            with open(LOG, "rb") as log:
                log.seek(offset)
                if b"ready." in log.read():
                    return time.monotonic() - started
            time.sleep(0.1)
        raise RuntimeError("the worker did not become ready")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)  # no goodbye: rows left claimed, the task unfinished
        self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)

    def pids(self) -> list[int]:
        """The worker's processes: the main one and its pool's."""
        pids = [self.process.pid]
        try:
            for task in Path(f"/proc/{self.process.pid}/task").iterdir():
                pids += [int(pid) for pid in (task / "children").read_text().split()]
        except OSError:
            return []
        return pids

    def rss_mb(self) -> float:
        """The RSS of the worker's processes together, MB."""
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total / 1024


def worker_backends() -> list[int]:
    """The PostgreSQL backends of the worker's connections (PGAPPNAME names them)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", [WORKER_APP])
        return [pid for (pid,) in cursor.fetchall()]


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (None: gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


class Cpu:
    """CPU seconds of groups of processes between the first sample and the last: a process first seen
    at the first sample counts from there, one that appears later from its start; one that ends counts
    up to its last sample (samples a quarter of a second apart)."""

    def __init__(self):
        self.base: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.samples = 0

    def sample(self, groups: dict[str, list[int]]) -> None:
        for group, pids in groups.items():
            for pid in pids:
                seconds = cpu_seconds(pid)
                if seconds is not None:
                    self.base.setdefault((group, pid), seconds if not self.samples else 0.0)
                    self.last[(group, pid)] = seconds
        self.samples += 1

    def seconds(self) -> dict[str, float]:
        total: dict[str, float] = {}
        for (group, pid), seconds in self.last.items():
            total[group] = total.get(group, 0.0) + seconds - self.base[(group, pid)]
        return total


# --- public reads ------------------------------------------------------------------------------------
class Reader:
    """GETs of the posts list, one cached page and one new query string (uncached) in turn, on one
    keep-alive connection: `count` pairs, or until stopped with `pause` seconds between pairs. In a
    process of its own (bench/newsletter_reads.py): in this one they would wait for the interpreter
    lock while the main thread samples the send."""

    def __init__(self, port: int, key: str, tag: str, *, count: int = 0, pause: float = 0.0):
        self.command = [sys.executable, str(ROOT / "bench" / "newsletter_reads.py"), str(port), HOST, tag,
                        str(count), str(pause)]
        self.key = key  # in its environment, not on its command line (which every process here may read)
        self.process = None
        self.wait = 120 + count * (pause + 1)  # seconds its end is waited for: a counted run's own time too
        self.timings: dict[str, list[float]] = {"cached": [], "uncached": []}
        self.errors = 0

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        env={**os.environ, "BENCH_READS_KEY": self.key})

    def stop(self) -> None:
        """Asked to stop (when reading until stopped), then its timings read."""
        if self.process is None or self.process.returncode is not None:
            return
        out, _ = self.process.communicate("stop\n", timeout=self.wait)  # a line on its stdin stops it
        if self.process.returncode != 0 or not out.strip():
            raise RuntimeError(f"the reads' process ended with status {self.process.returncode}")
        found = json.loads(out.strip().splitlines()[-1])
        self.timings = {"cached": found["cached"], "uncached": found["uncached"]}
        self.errors = found["errors"]

    def run(self) -> None:
        """`count` pairs, waited for."""
        self.start()
        self.stop()


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


# --- helpers -----------------------------------------------------------------------------------------
def send_status(schema: str, send_id) -> str:
    with schema_context(schema):
        return Send.objects.filter(pk=send_id).values_list("status", flat=True).first()


def send_row(schema: str, send_id) -> Send:
    with schema_context(schema):
        return Send.objects.get(pk=send_id)


def exactly_once(received: dict[str, list[str]], expected: set[str]) -> dict:
    copies = {recipient: ids for recipient, ids in received.items() if len(ids) > 1}
    return {"received": sum(len(ids) for ids in received.values()),
            "missing": len(expected - received.keys()),
            "unexpected": len(received.keys() - expected),
            "twice": len(copies),
            "extra_copies": sum(len(ids) - 1 for ids in copies.values()),
            "different": sum(1 for ids in received.values() if len(set(ids)) > 1)}


def loadavg() -> float:
    return os.getloadavg()[0]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# --- setup -------------------------------------------------------------------------------------------
announce()
print(f"{uptime()}  ({os.cpu_count()} CPUs)", flush=True)
weight = CpuWeight(WORKER_CPU_SHARES)
worker = Worker({**ENV, "PGAPPNAME": WORKER_APP}, weight)
print(f"the worker: {weight.describe()}; the SMTP server: {smtp_weight.describe()}", flush=True)
web = None
reader = None
try:
    started = time.perf_counter()
    call_command("migrate_schemas", interactive=False, verbosity=0)
    tenant = client_register(company_name="Bench newsletter", contact_name="Bench", contact_email="bench@example.com",
                             subdomain=SUBDOMAIN, admin_username="bench", admin_email="bench@example.com",
                             admin_password="password123", plan="enterprise", verified=True)
    schema = tenant.schema_name
    public_api_data.seed(schema, 0, 50, zephyr=set())  # published posts with ~2 KB bodies: what is sent and read
    with schema_context(schema):
        [newsletter] = newsletters_default()
        posts = list(Post.objects.filter(status="published").order_by("slug")[:3])
        now = timezone.now()
        with connection.cursor() as cursor:
            # Test data, not a write path of the product: the members and their subscriptions by COPY.
            with cursor.cursor.copy("COPY members_member (id, email, name, note, status, email_disabled, "
                                    "email_disabled_reason, source, session_version, created_at, updated_at) "
                                    "FROM STDIN") as copy:
                ids = [uuid.uuid4() for _ in range(MEMBERS)]
                for n, member_id in enumerate(ids):
                    copy.write_row((member_id, email_of(n), "", "", "free", False, "", "import", 0, now, now))
            with cursor.cursor.copy("COPY members_member_newsletters (member_id, newsletter_id) FROM STDIN") as copy:
                for member_id in ids:
                    copy.write_row((member_id, newsletter.pk))
            cursor.execute("VACUUM ANALYZE members_member")
            cursor.execute("VACUUM ANALYZE members_member_newsletters")
    connection.set_schema_to_public()
    expected = {email_of(n) for n in range(MEMBERS)}
    print(f"company, 50 posts and {MEMBERS:,} members made in {time.perf_counter() - started:.0f} s", flush=True)

    web, web_port = servers.start_server("granian", {**ENV, "WEB_ROUTES": "content"}, workers=WEB_WORKERS)
    # Idle, the reads come as they come during the send (one pair every READ_PAUSE seconds): what is
    # compared. Back to back (the server and its caches kept warm, no core ever idle) is shown beside it.
    floor = Reader(web_port, tenant.api_key, "floor", count=READS)
    floor.run()
    idle = Reader(web_port, tenant.api_key, "idle", count=READS, pause=READ_PAUSE)
    idle.run()
    print(f"public reads idle: cached p99 {pct(idle.timings['cached'], 99) * 1000:.1f} ms, "
          f"uncached p99 {pct(idle.timings['uncached'], 99) * 1000:.1f} ms (back to back: "
          f"{pct(floor.timings['cached'], 99) * 1000:.1f} / {pct(floor.timings['uncached'], 99) * 1000:.1f} ms)",
          flush=True)

    api = Api(tenant, user=tenant_admin(tenant))
    loads: list[float] = []

    def request_send(post) -> tuple[str, float]:
        at = time.time()
        response = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
        if response.status_code != 202:
            raise RuntimeError(f"POST /api/posts/{post.id}/send: {response.status_code} {response.content[:500]}")
        return response.json()["send"]["id"], at

    # --- 1. the send, timed --------------------------------------------------------------------------
    worker.start()
    time.sleep(1)
    rss_idle = worker.rss_mb()
    cpu = Cpu()

    def cpu_groups() -> dict[str, list[int]]:
        return {"worker": worker.pids(), "PostgreSQL": worker_backends(), "SMTP server": [smtp.process.pid]}

    cpu.sample(cpu_groups())
    smtp.ask("reset")
    reader = Reader(web_port, tenant.api_key, "during", pause=READ_PAUSE)
    reader.start()
    send_id, requested = request_send(posts[0])
    rss: list[tuple[int, float]] = []  # (emails at the server, MB)
    deadline = time.monotonic() + max(1800, MEMBERS / 20)
    while (status := send_status(schema, send_id)) not in ("sent", "failed"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the send is still {status} after {max(1800, MEMBERS / 20):.0f} s")
        rss.append((smtp.count(), worker.rss_mb()))
        cpu.sample(cpu_groups())
        loads.append(loadavg())
        time.sleep(0.25)
    cpu.sample(cpu_groups())
    reader.stop()
    if status != "sent":
        raise RuntimeError(f"the send failed: {send_row(schema, send_id).error}")
    time.sleep(0.5)
    rss_end = worker.rss_mb()
    first = send_row(schema, send_id)
    server = smtp.ask("count")
    whole = first.finished_at.timestamp() - requested
    prepare = first.started_at.timestamp() - requested
    rate = MEMBERS / whole
    at_10 = next((mb for count, mb in rss if count >= MEMBERS // 10), rss[-1][1] if rss else rss_end)
    rss_peak = max([mb for _, mb in rss] + [rss_end])
    run_1 = exactly_once(smtp.received(), expected)
    print(f"send 1: {whole:.1f} s, {rate:,.0f} emails/s ({run_1['received']:,} at the server)", flush=True)

    # --- 2. the anchor: a bare sender, the same bytes ------------------------------------------------
    from django.core.mail.message import sanitize_address

    from apps.newsletters import sending
    from apps.site.selectors import site_view

    with schema_context(schema):
        template = sending.Template.of(send=first, newsletter=newsletter, client=tenant, schema=schema,
                                       site_title=site_view(tenant).title)
        one = template.message(member_id=ids[0], email=email_of(0))
        payload = one.message().as_bytes(linesep="\r\n")
        from_address = sanitize_address(one.from_email, "utf-8")
    connection.set_schema_to_public()

    def bare(part: list[str]) -> None:
        client = smtplib.SMTP("127.0.0.1", smtp.port, timeout=30)
        for address in part:
            client.sendmail(from_address, [address], payload)
        client.quit()

    smtp.ask("reset")
    everyone = [email_of(n) for n in range(MEMBERS)]
    threads = [threading.Thread(target=bare, args=(everyone[k::CONNECTIONS],)) for k in range(CONNECTIONS)]
    load_bare = loadavg()
    cpu_bare = Cpu()
    cpu_bare.sample({"sender": [os.getpid()], "SMTP server": [smtp.process.pid]})
    with weight.this_process():  # the product's sender runs under the weight: so does its anchor
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        bare_seconds = time.perf_counter() - started
    cpu_bare.sample({"sender": [os.getpid()], "SMTP server": [smtp.process.pid]})
    bare_count = smtp.count()
    if bare_count != MEMBERS:
        raise RuntimeError(f"the bare sender: {bare_count} messages at the server, not {MEMBERS}")
    bare_rate = MEMBERS / bare_seconds
    print(f"bare sender: {bare_seconds:.1f} s, {bare_rate:,.0f} emails/s ({len(payload):,} bytes each)", flush=True)

    # --- 3. the send again, the worker killed during it ----------------------------------------------
    worker.stop()
    worker.env = {**worker.env, "NEWSLETTER_BATCH_LEASE_SECONDS": str(LEASE),
                  "NEWSLETTER_SEND_LEASE_SECONDS": str(LEASE)}
    worker.start()
    smtp.ask("reset")
    second_id, requested_2 = request_send(posts[1])
    kills: list[tuple[int, bool, float]] = []  # (emails at the server at the kill, mid-send, restart seconds)
    relayed = time.monotonic()
    deadline = time.monotonic() + max(1800, MEMBERS / 10)

    def relay() -> None:
        """What beat does every OUTBOX_RELAY_SECONDS: the due rows of the outbox sent."""
        global relayed
        if time.monotonic() - relayed >= 1:
            connection.set_schema_to_public()
            outbox.outbox_relay()
            relayed = time.monotonic()

    for kill in range(KILLS):
        target = (kill + 1) * MEMBERS // (KILLS + 2)
        while (count := smtp.count()) < target and send_status(schema, second_id) != "sent":
            if time.monotonic() > deadline:
                raise RuntimeError(f"the second send is stuck at {count} emails")
            relay()
            loads.append(loadavg())
            time.sleep(0.05)
        worker.kill()
        mid = send_status(schema, second_id) == "sending" and count < MEMBERS
        kills.append((count, mid, worker.start()))
        print(f"worker killed at {count:,} emails ({'mid-send' if mid else 'after the send'}), "
              f"ready again in {kills[-1][2]:.1f} s", flush=True)
    while (status := send_status(schema, second_id)) != "sent":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the second send is still {status}")
        relay()
        loads.append(loadavg())
        time.sleep(0.25)
    time.sleep(1)  # a sender still answering would show now
    second = send_row(schema, second_id)
    whole_2 = second.finished_at.timestamp() - requested_2
    run_2 = exactly_once(smtp.received(), expected)
    with schema_context(schema):
        marked = dict(Delivery.objects.filter(send_id=second_id).values_list("status").annotate(
            n=Count("id")))
    connection.set_schema_to_public()
    not_recorded = LOG.read_text(errors="replace").count("another sender had claimed the row")
    worker.stop()

    # --- 4. where a product email's time goes: the product's sender, one thread, here ----------------
    from apps.newsletters import delivery

    spent: dict[str, float] = {}  # wall seconds by step
    busy: dict[str, float] = {}  # CPU seconds of this thread by step
    calls: dict[str, int] = {}

    def timed(name: str, function):
        def wrapper(*args, **kwargs):
            started, started_cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - started
                busy[name] = busy.get(name, 0.0) + time.thread_time() - started_cpu
                calls[name] = calls.get(name, 0) + 1
        return wrapper

    statements = [0]  # through Django's cursors (the mark runs on the sender's own: counted by call)

    def counted(execute, sql, params, many, context):
        statements[0] += 1
        return execute(sql, params, many, context)

    patches = [(delivery, "_mark_sent"), (delivery, "claim"), (delivery, "_skip_gone"),
               (delivery, "_heartbeat"), (delivery._Sender, "_send_one"), (sending.Template, "message"),
               (sending, "send"), (smtplib.SMTP, "sendmail")]
    originals = [getattr(owner, name) for owner, name in patches]
    for owner, name in patches:
        setattr(owner, name, timed(name, getattr(owner, name)))
    stop = threading.Event()
    _marked = delivery._mark_sent

    def mark_and_stop(*args):
        if calls.get("_mark_sent", 0) >= PROFILE_EMAILS:
            stop.set()  # the sender stops after its batch
        return _marked(*args)

    delivery._mark_sent = mark_and_stop
    try:
        with schema_context(schema):
            third = Send.objects.create(post=posts[2], post_title=posts[2].title, newsletter=newsletter,
                                        subject=posts[2].title, status=Send.Status.QUEUED)
            third = delivery.send_prepare(third)
            third = Send.objects.select_related("newsletter").get(pk=third.pk)
            template = sending.Template.of(send=third, newsletter=newsletter, client=tenant, schema=schema,
                                           site_title=site_view(tenant).title)
            sender = delivery._Sender(template, third.pk, stop)
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO off")  # as the product's sender threads do
            with connection.execute_wrapper(counted):
                started, started_cpu = time.perf_counter(), time.thread_time()
                sender.run_here()
                profile_seconds = time.perf_counter() - started
                profile_cpu = time.thread_time() - started_cpu
    finally:
        for (owner, name), original in zip(patches, originals):
            setattr(owner, name, original)
    connection.set_schema_to_public()
    profiled = spent and calls["_send_one"]
finally:
    if reader is not None and reader.process is not None and reader.process.poll() is None:
        reader.process.kill()
    worker.stop()
    weight.remove()
    if web is not None:
        servers.stop(web)
    smtp.stop()
    smtp_weight.remove()
load_end = uptime()
if not KEEP:
    common.drop_database(DATABASE)

# --- the table ---------------------------------------------------------------------------------------
def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def row(what: str, measured: str, goal: str = "", result: str = "") -> None:
    print(f"{what:<50} {measured:<44} {goal:<12} {result}")


ms = lambda seconds: f"{seconds * 1000:.1f} ms"  # noqa: E731
print(f"\nnewsletter send to {MEMBERS:,} members: Celery prefork worker (2 processes), {CONNECTIONS} sender threads "
      f"(NEWSLETTER_SEND_CONNECTIONS), NEWSLETTER_BATCH 100; SMTP server aiosmtpd in its own process on 127.0.0.1; "
      f"email {len(payload):,} bytes")
loads = loads or [load_bare]
print(f"machine: {os.cpu_count()} CPUs, shared; load average (1 min) during the sends: mean "
      f"{statistics.mean(loads):.1f}, max {max(loads):.1f}; before the bare sender {load_bare:.1f}; at the end: "
      f"{load_end.split('load average:')[-1].strip()}")
print(f"\n{'':<50} {'measured':<44} {'goal':<12} result")
row("send: whole time (request to the last email)", f"{whole:.1f} s", f"<= {GOAL_SECONDS:.0f} s",
    mark(whole <= GOAL_SECONDS) + ("" if MEMBERS >= 100_000 else f" (at {MEMBERS:,}: not the goal's size)"))
row("send: emails/s (whole time)", f"{rate:,.0f} emails/s")
row("  of which preparing (request to sending)", f"{prepare:.1f} s")
row("  SMTP server: first to last email", f"{server['last'] - server['first']:.1f} s "
    f"({MEMBERS / max(server['last'] - server['first'], 1e-9):,.0f} emails/s)")
row(f"bare sender: smtplib, {CONNECTIONS} connections, same bytes", f"{bare_seconds:.1f} s, {bare_rate:,.0f} emails/s")
row("send's rate / bare sender's rate", f"{rate / bare_rate:.0%}", f">= {GOAL_RATIO:.0%}",
    mark(rate / bare_rate >= GOAL_RATIO))
growth = rss_end - at_10
row("worker memory (RSS, its 3 processes)", f"{rss_idle:.0f} MB idle, {at_10:.0f} at 10 %, peak {rss_peak:.0f}, "
    f"end {rss_end:.0f}", f"<= +{RSS_GROWTH_MB:.0f} MB", mark(growth <= RSS_GROWTH_MB))
row("  growth from 10 % of the send to its end", f"{growth:+.1f} MB")
for kind in ("cached", "uncached"):
    before, during = pct(idle.timings[kind], 99), pct(reader.timings[kind], 99)
    row(f"public reads p99, {kind} /api/v1/posts", f"idle {ms(before)}, during {ms(during)} ({during / before:.1f}x)",
        f"<= {GOAL_READS:.0f}x", mark(during <= GOAL_READS * before))
    row(f"  p50 idle / during ({len(idle.timings[kind])} / {len(reader.timings[kind])} GETs)",
        f"{ms(statistics.median(idle.timings[kind]))} / {ms(statistics.median(reader.timings[kind]))}")
    row("  idle back to back (no pause): p50 / p99", f"{ms(statistics.median(floor.timings[kind]))} / "
        f"{ms(pct(floor.timings[kind], 99))}")
if idle.errors or reader.errors or floor.errors:
    row("public reads: errors", f"{idle.errors + floor.errors} idle, {reader.errors} during", "0", "FAIL")
row("send 1: every member one email (no kill)", f"{run_1['received']:,} received, {run_1['missing']} missing, "
    f"{run_1['twice']} twice", "0, 0", mark(not run_1["missing"] and not run_1["twice"] and not run_1["unexpected"]))
mid_send = sum(1 for _, mid, _ in kills if mid)
row(f"send 2: worker killed {KILLS} times (SIGKILL)", f"{mid_send} kills mid-send, at "
    + ", ".join(f"{count:,}" for count, _, _ in kills) + " emails", f"{KILLS} mid-send", mark(mid_send == KILLS))
row("  whole time (leases of %d s)" % LEASE, f"{whole_2:.1f} s; worker ready again in "
    + ", ".join(f"{seconds:.1f}" for _, _, seconds in kills) + " s")
row("  members missing (counted at the SMTP server)", f"{run_2['missing']}", "0", mark(not run_2["missing"]))
row("  members emailed twice or more", f"{run_2['twice']} ({run_2['extra_copies']} extra copies)", "0",
    mark(not run_2["twice"]))
row("    of them two different emails (Message-IDs)", f"{run_2['different']}", "0", mark(not run_2["different"]))
row("    copies beyond the product's bound", f"{max(0, run_2['extra_copies'] - BOUND)} (bound: one per sender "
    f"thread per kill, {BOUND})", "0", mark(run_2["extra_copies"] <= BOUND))
row("  the product's records", ", ".join(f"{n:,} {status}" for status, n in sorted(marked.items()))
    + f"; {not_recorded} answers not recorded (logged)")
if run_2["unexpected"] or run_1["unexpected"]:
    row("  emails to addresses not in the send", f"{run_1['unexpected'] + run_2['unexpected']}", "0", "FAIL")

used = cpu.seconds()
used_bare = cpu_bare.seconds()
print(f"\nCPU per email, ms (user + system, from /proc; {os.cpu_count()} CPUs shared with the machine's other work):")
print("  the send:         " + ", ".join(f"{group} {used.get(group, 0.0) / MEMBERS * 1000:.2f}"
                                        for group in ("worker", "PostgreSQL", "SMTP server"))
      + f"; together {sum(used.values()) / MEMBERS * 1000:.2f}")
print("  the bare sender:  " + ", ".join(f"{group} {used_bare.get(group, 0.0) / MEMBERS * 1000:.2f}"
                                        for group in ("sender", "SMTP server"))
      + f"; together {sum(used_bare.values()) / MEMBERS * 1000:.2f}")

if profiled:
    emails = calls["_send_one"]

    def per(name: str, table: dict) -> float:
        return table.get(name, 0.0) / emails * 1e6

    print(f"\nwhere a product email's time goes: the product's sender (delivery._Sender), one thread, in this "
          f"process, {emails:,} emails, {emails / profile_seconds:,.0f} emails/s; µs per email, wall and CPU of "
          f"this thread (the rest of the wall: waiting for PostgreSQL, the SMTP server, a CPU):")
    steps = (("the member's email made (Template.message: links, tokens, headers)", ("message",), ()),
             ("handed to the SMTP connection (sending.send: the envelope)", ("send",), ("sendmail",)),
             ("SMTP exchange (smtplib sendmail: MAIL, RCPT, DATA)", ("sendmail",), ()),
             ("database: the row marked sent (and locked) before the exchange", ("_mark_sent",), ()),
             ("database: the commit, and the rest of the step", ("_send_one",),
              ("message", "send", "_mark_sent")),
             ("database, per batch (claim, still subscribed, heartbeat)", ("claim", "_skip_gone", "_heartbeat"), ()))
    for what, plus, minus in steps:
        wall = sum(per(name, spent) for name in plus) - sum(per(name, spent) for name in minus)
        own = sum(per(name, busy) for name in plus) - sum(per(name, busy) for name in minus)
        print(f"  {what:<70} {wall:>8,.0f} wall {own:>7,.0f} CPU")
    print(f"  {'total':<70} {profile_seconds / emails * 1e6:>8,.0f} wall {profile_cpu / emails * 1e6:>7,.0f} CPU; "
          f"{(statements[0] + calls.get('_mark_sent', 0)) / emails:.2f} statements + 1 commit "
          "per email")

# The exit status: a member missing, two different emails, or more copies than the product's bound fail
# the run; copies with the one Message-ID within the bound are the documented case (a kill between the
# server's acceptance and the mark: docs/newsletters.md#exactly-once), reported above, failing the run
# only with BENCH_STRICT_ONCE=1 (no copy at all, as the goal counts at the server).
failed = bool(run_1["missing"] or run_1["twice"] or run_1["unexpected"] or run_2["missing"] or run_2["unexpected"]
              or run_2["different"] or run_2["extra_copies"] > BOUND or (STRICT_ONCE and run_2["twice"]))
if failed:
    print("\nexactly once: FAILED (above)")
elif run_2["twice"]:
    print(f"\nexactly once: {run_2['twice']} member(s) got a second copy of their email, with its one Message-ID "
          "(the worker killed between the server's acceptance and the mark), within the product's bound; "
          "BENCH_STRICT_ONCE=1 fails the run on it")
else:
    print("\nexactly once: held" + (" (smoke mode: the speed figures say nothing)" if SMOKE else ""))
sys.exit(1 if failed else 0)
