"""AI writing figures on this machine: the offline provider, and generate calls end to end
through a real Celery worker whose gemini provider talks to a local fake Gemini server (so the
figures are this system's overhead, not Google's latency). Runs on its own database
(cms_bench_ai), its own Redis key prefix and its own queue. BENCH_SMOKE=1: 3 sequential calls,
a burst of 4, 500 earlier jobs."""
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

SEQUENTIAL = knob("BENCH_SEQUENTIAL", 30, 3)
BURST = knob("BENCH_BURST", 40, 4)
CONCURRENCY = knob("BENCH_WORKER_CONCURRENCY", 4, 2)
GEMINI_LATENCY = knob("BENCH_GEMINI_LATENCY", 0.5, 0.1)
EXISTING_JOBS = knob("BENCH_EXISTING_JOBS", 20000, 500)
OFFLINE_CALLS = knob("BENCH_OFFLINE_CALLS", 200, 20)
ADMISSION_SAMPLES = knob("BENCH_SAMPLES", 25, 5)

from apps.ai.tests.fake_gemini import FakeGemini, json_reply  # noqa: E402

fake = FakeGemini().start()
env = {
    "DATABASE_URL": fresh_database("cms_bench_ai"),
    "REDIS_URL": REDIS_URL,
    "CELERY_BROKER_URL": REDIS_URL,
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "CELERY_TASK_ALWAYS_EAGER": "0",
    "CELERY_TASK_DEFAULT_QUEUE": "cms-bench-ai",
    "CACHE_KEY_PREFIX": "bench-ai",
    "AI_PROVIDER": "gemini",
    "GEMINI_API_KEY": "bench-key",
    "GEMINI_MODEL": "gemini-bench",
    "GEMINI_BASE_URL": fake.url,
    "AI_DAILY_QUOTA": "trial:1000000",
    "AI_MAX_RUNNING_PER_TENANT": "100000",
    "AI_WAIT_SECONDS": "60",
    "AI_QUEUE": "",
}
os.environ.update(env)

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.ai.models import GenerationJob  # noqa: E402
from apps.ai.providers.base import BlogRequest, SeoRequest  # noqa: E402
from apps.ai.providers.offline import OfflineProvider  # noqa: E402
from apps.core.testing import Api, create_tenant, tenant_admin  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)
fresh_redis(REDIS_URL, "bench-ai", "cms-bench-ai")
announce()
tenant = create_tenant("bench-ai")
admin = tenant_admin(tenant)
api = Api(tenant, user=admin)
BLOG = {"title": "Sourdough Bread at Home", "content": "<h2>Starter</h2><p>Feed it daily.</p>",
        "excerpt": "Bake sourdough at home.", "slug": "sourdough-bread-at-home", "metaTitle": "Sourdough",
        "metaDescription": "Bake.", "focusKeyword": "sourdough", "tags": ["Baking"], "categories": ["Food"]}
SEO = {"metaTitle": "Sourdough", "metaDescription": "Bake sourdough at home.", "keywords": ["sourdough"]}


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


# 1. The offline provider alone ----------------------------------------------------------------------
provider = OfflineProvider()
brief = BlogRequest("Write a blog post about remote work productivity tips for small teams.", "casual", "business")
seo = SeoRequest(title="Remote work tips", content="Remote teams need clear habits and good tools. " * 20)
for label, call in [("offline blog draft", lambda: provider.generate_blog(brief)),
                    ("offline SEO metadata", lambda: provider.generate_seo(seo))]:
    times = []
    for _ in range(OFFLINE_CALLS):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    print(f"{label:<48} median {ms(statistics.median(times))}, p95 {ms(pct(times, 95))} ({OFFLINE_CALLS} calls)")

# 2. A real worker -------------------------------------------------------------------------------------
log = open(Path(tempfile.gettempdir()) / "cms-bench-ai-worker.log", "wb")  # noqa: SIM115
worker = subprocess.Popen(
    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency",
     str(CONCURRENCY), "--queues", "cms-bench-ai", "--loglevel", "WARNING", "--without-gossip",
     "--without-mingle", "--without-heartbeat"],
    cwd=ROOT, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])},
    stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
)
try:
    fake.default = json_reply(BLOG)
    for _ in range(3):  # warm-up: worker imports, connections
        assert api.post("/api/ai/generate-blog", {"inputContent": "Warm up the worker please"}).status_code == 200

    # 2a. sequential generate-blog calls that wait for their job (the default), Gemini answering at once
    totals, queued, run, wake = [], [], [], []
    for n in range(SEQUENTIAL):
        started = time.perf_counter()
        response = api.post("/api/ai/generate-blog", {"inputContent": f"Sourdough bread at home, part {n}"})
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, response.json()
        totals.append(elapsed)
        with schema_context(tenant.schema_name):
            job = GenerationJob.objects.get(pk=response.json()["job"]["id"])
        queued.append((job.started_at - job.created_at).total_seconds())
        run.append((job.finished_at - job.started_at).total_seconds())
        wake.append(max(0.0, elapsed - (job.finished_at - job.created_at).total_seconds()))
    print(f"generate-blog, waiting (fake Gemini answers at once), {SEQUENTIAL} calls:")
    print(f"  request to reply          median {ms(statistics.median(totals))}, p95 {ms(pct(totals, 95))}")
    print(f"  enqueue to worker start   median {ms(statistics.median(queued))}, p95 {ms(pct(queued, 95))}")
    print(f"  job run (SDK call, parse) median {ms(statistics.median(run))}, p95 {ms(pct(run, 95))}")
    print(f"  rest of the request       median {ms(statistics.median(wake))}, p95 {ms(pct(wake, 95))}")

    # 2b. a burst of async jobs, Gemini taking GEMINI_LATENCY per call
    fake.default = json_reply(SEO)
    fake.latency = GEMINI_LATENCY
    started = time.perf_counter()
    ids = []
    for n in range(BURST):
        response = api.post("/api/ai/generate-seo?async=true", {"title": f"Sourdough {n}"})
        assert response.status_code == 202, response.json()
        ids.append(response.json()["job"]["id"])
    submit = time.perf_counter() - started
    deadline = time.monotonic() + 120 + BURST * GEMINI_LATENCY
    with schema_context(tenant.schema_name):
        while GenerationJob.objects.filter(pk__in=ids, status__in=GenerationJob.UNFINISHED).exists():
            if time.monotonic() > deadline:
                sys.exit("the burst's jobs did not finish in time (see the worker's log)")
            time.sleep(0.05)
        failed = GenerationJob.objects.filter(pk__in=ids, status="failed").count()
    wall = time.perf_counter() - started
    ideal = BURST * GEMINI_LATENCY / CONCURRENCY
    print(f"burst of {BURST} async SEO jobs, Gemini {GEMINI_LATENCY:.2f} s per call, {CONCURRENCY} worker processes:")
    print(f"  submitted in {ms(submit)} ({ms(submit / BURST)} per 202), all done in {wall:.2f} s "
          f"(ideal {ideal:.2f} s), {BURST / wall:.1f} jobs/s, {failed} failed")
    fake.latency = 0.0

    # 2c. admission (quota + running cap under the tenant lock) with many of today's jobs
    def async_post_ms(samples=ADMISSION_SAMPLES):
        times = []
        for _ in range(samples):
            started = time.perf_counter()
            assert api.post("/api/ai/generate-seo?async=true", {"title": "Rye"}).status_code == 202
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    before = async_post_ms()
    with schema_context(tenant.schema_name):
        GenerationJob.objects.bulk_create(
            [GenerationJob(kind="seo", input={"title": "history"}, status="succeeded", created_by=admin)
             for _ in range(EXISTING_JOBS)], batch_size=2000)
        with connection.cursor() as cursor:  # spread them over the previous 60 days
            cursor.execute("UPDATE ai_generationjob SET created_at = now() - (1 + random() * 60) * interval '1 day' "
                           "WHERE input->>'title' = 'history'")
            cursor.execute("ANALYZE ai_generationjob")
    after = async_post_ms()
    print(f"POST generate-seo?async=true (admission + enqueue): median {ms(before)} with ~{SEQUENTIAL + BURST} "
          f"jobs, {ms(after)} with {EXISTING_JOBS} more from the previous 60 days")
finally:
    os.killpg(worker.pid, 15)
    worker.wait(20)
    fake.stop()
